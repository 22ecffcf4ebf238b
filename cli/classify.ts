// `agent-sudo classify` and `agent-sudo explain`: run the verdict engine in
// process against a policies directory, with no service running.
//   classify [--host H] [--source sudo|claude] [--cwd DIR] [--json] [--policies DIR] -- COMMAND
//   classify --batch FILE|-   (JSONL {command, source?, host?, cwd?} in, one JSONL verdict per line out)
//   explain [options] -- COMMAND   (the parse tree and each part's verdict)
// Exit codes: 0 success, 2 usage or input error, 3 policy load error.
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { Language, Parser } from "web-tree-sitter";
import type { Node } from "web-tree-sitter";
import { createRequire } from "node:module";
import { HOST_IDS, repoRoot } from "../services/shared/config.js";
import type { HostId } from "../services/shared/config.js";
import { loadEngine } from "../services/classifier/engine/index.js";
import type { ClassifyInput, Engine, Source, Verdict } from "../services/classifier/verdict.js";
import { UsageError } from "./command.js";

interface Options {
  host: HostId;
  source: Source;
  cwd: string;
  json: boolean;
  policies: string;
  batch: string | null;
  command: string | null;
}

const USAGE =
  "usage: agent-sudo classify [--host primary|server-01] [--source sudo|claude] [--cwd DIR] [--json] [--policies DIR] -- COMMAND\n       agent-sudo classify --batch FILE|-\n       agent-sudo explain [options] -- COMMAND";

function parseArgs(argv: readonly string[]): Options {
  const o: Options = {
    host: "primary",
    source: "claude",
    cwd: process.cwd(),
    json: false,
    policies: join(repoRoot, "policies"),
    batch: null,
    command: null,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined) throw new UsageError(`${a} needs a value`);
      return v;
    };
    if (a === "--") {
      o.command = argv.slice(i + 1).join(" ");
      break;
    }
    if (a === "--host") {
      const h = value();
      if (!(HOST_IDS as readonly string[]).includes(h)) throw new UsageError(`unknown host ${h}`);
      o.host = h as HostId;
    } else if (a === "--source") {
      const s = value();
      if (s !== "sudo" && s !== "claude") throw new UsageError(`unknown source ${s}`);
      o.source = s;
    } else if (a === "--cwd") o.cwd = resolve(value());
    else if (a === "--policies") o.policies = resolve(value());
    else if (a === "--batch") o.batch = value();
    else if (a === "--json") o.json = true;
    else throw new UsageError(`unknown option ${a}`);
  }
  return o;
}

async function engineFor(o: Options): Promise<Engine | number> {
  try {
    return await loadEngine(o.policies);
  } catch (err) {
    process.stderr.write(`agent-sudo: cannot load policies: ${(err as Error).message}\n`);
    return 3;
  }
}

function printVerdict(v: Verdict, json: boolean): void {
  if (json)
    process.stdout.write(
      JSON.stringify({
        tier: v.tier,
        rule: v.rule,
        reason: v.reason,
        explicit: v.explicit,
        parts: v.parts,
        ...(v.attrs ? { attrs: v.attrs } : {}),
      }) + "\n",
    );
  else process.stdout.write(`tier ${v.tier}  rule ${v.rule}${v.explicit ? " (explicit)" : ""}\n${v.reason}\n${attrsLine(v)}`);
}

/** "grants: …" when the rules behind the verdict carry attributes; else nothing. */
function attrsLine(v: Verdict): string {
  const a = v.attrs;
  if (!a) return "";
  const grants = [...(a.network ? ["network"] : []), ...a.verify.map((c) => `verify \`${c}\``), ...a.redeploy.map((u) => `redeploy ${u}`)];
  return grants.length > 0 ? `grants: ${grants.join(", ")}\n` : "";
}

function batchInput(line: string, o: Options): ClassifyInput {
  const raw = JSON.parse(line) as Record<string, unknown>;
  if (typeof raw.command !== "string") throw new Error("command must be a string");
  const source = raw.source ?? o.source;
  const host = raw.host ?? o.host;
  if (source !== "sudo" && source !== "claude") throw new Error(`unknown source ${String(source)}`);
  if (typeof host !== "string" || !(HOST_IDS as readonly string[]).includes(host)) throw new Error(`unknown host ${String(host)}`);
  const cwd = typeof raw.cwd === "string" ? raw.cwd : o.cwd;
  return { command: raw.command, source, host: host as HostId, cwd };
}

function runBatch(engine: Engine, o: Options, file: string): number {
  const text = readFileSync(file === "-" ? 0 : file, "utf8");
  let failed = 0;
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    try {
      const v = engine.classify(batchInput(line, o));
      process.stdout.write(JSON.stringify({ tier: v.tier, rule: v.rule, reason: v.reason, explicit: v.explicit }) + "\n");
    } catch (err) {
      failed++;
      process.stdout.write(JSON.stringify({ tier: 4, rule: "bad-input", reason: (err as Error).message, explicit: false }) + "\n");
    }
  }
  return failed > 0 ? 2 : 0;
}

export async function classifyCommand(argv: string[]): Promise<number> {
  let o: Options;
  try {
    o = parseArgs(argv);
    if (o.batch === null && o.command === null) throw new UsageError("no command given");
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n${USAGE}\n`);
    return 2;
  }
  const engine = await engineFor(o);
  if (typeof engine === "number") return engine;
  if (o.batch !== null) return runBatch(engine, o, o.batch);
  printVerdict(engine.classify({ command: o.command ?? "", source: o.source, host: o.host, cwd: o.cwd }), o.json);
  return 0;
}

async function bashTree(command: string): Promise<string> {
  await Parser.init();
  const language = await Language.load(createRequire(import.meta.url).resolve("tree-sitter-bash/tree-sitter-bash.wasm"));
  const parser = new Parser();
  parser.setLanguage(language);
  const tree = parser.parse(command);
  if (tree === null) return "(no tree)\n";
  const lines: string[] = [];
  const visit = (n: Node, depth: number, field: string | null): void => {
    const leaf = n.childCount === 0 ? ` ${JSON.stringify(n.text)}` : "";
    const label = n.isNamed ? n.type : JSON.stringify(n.type);
    lines.push(`${"  ".repeat(depth)}${field ? field + ": " : ""}${label}${n.isMissing ? " MISSING" : ""}${leaf}`);
    for (let i = 0; i < n.childCount; i++) {
      const c = n.child(i);
      if (c) visit(c, depth + 1, n.fieldNameForChild(i));
    }
  };
  visit(tree.rootNode, 0, null);
  tree.delete();
  parser.delete();
  return lines.join("\n") + "\n";
}

export async function explainCommand(argv: string[]): Promise<number> {
  let o: Options;
  try {
    o = parseArgs(argv);
    if (o.command === null) throw new UsageError("no command given");
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n${USAGE}\n`);
    return 2;
  }
  const engine = await engineFor(o);
  if (typeof engine === "number") return engine;
  const v = engine.classify({ command: o.command ?? "", source: o.source, host: o.host, cwd: o.cwd });
  if (o.json) {
    printVerdict(v, true);
    return 0;
  }
  process.stdout.write(`parse tree:\n${await bashTree(o.command ?? "")}\nparts:\n`);
  for (const p of v.parts) process.stdout.write(`  tier ${p.tier}  ${p.rule}  ${JSON.stringify(p.text)}\n    ${p.reason}\n`);
  process.stdout.write(`\nverdict: tier ${v.tier}  rule ${v.rule}${v.explicit ? " (explicit)" : ""}\n${v.reason}\n${attrsLine(v)}`);
  return 0;
}
