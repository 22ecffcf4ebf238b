// Held-out everyday agent commands (bench/classify/everyday.txt, written
// without looking at the engine and kept out of test/corpus): how many the
// hook allows (tier 0–1), and which it does not. Friction, measured.
// Run after a build:  node bench/classify/everyday.mjs
// (AGENT_SUDO_DIST=/other/build points at another build output.)
import { mkdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "..", "..");
const dist = process.env.AGENT_SUDO_DIST ?? join(repo, "dist");
const { loadEngine } = await import(pathToFileURL(join(dist, "services/classifier/engine/index.js")).href);
const engine = await loadEngine(join(repo, "policies"));
// A scratch workspace: the commands name files that need not exist.
const cwd = "/tmp/agent-sudo-everyday/project";
mkdirSync(cwd, { recursive: true });
const commands = readFileSync(join(here, "everyday.txt"), "utf8")
  .split("\n")
  .filter((l) => l.trim() !== "" && !l.startsWith("#"));
const held = [];
for (const command of commands) {
  const v = engine.classify({ command, cwd, host: "primary", source: "claude" });
  if (v.tier > 1) held.push(`  ${v.tier} ${v.rule}: ${command}`);
}
const allowed = commands.length - held.length;
console.log(`everyday: ${allowed}/${commands.length} allowed by the hook (${((100 * allowed) / commands.length).toFixed(1)}%)`);
if (held.length > 0) console.log(`not allowed:\n${held.join("\n")}`);
