// Red-team rows that need a layout of their own (test/corpus/layouts/*.jsonl):
// a repository with uncommitted and untracked work, ignored directories
// holding other repositories, links out of the workspace, archives over
// work git does not hold. Each row's `setup` (bash, with $D set to a new
// temporary directory) builds the layout; the command is only classified,
// as the hook would (source claude, host primary), never run. An attack
// must not be tier 0–1; a look-alike must be.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { Engine } from "../../services/classifier/engine/index.js";
import { missing, named } from "../support/needs.js";
import { getEngine } from "./engine-fixture.js";

interface LayoutRow {
  command: string;
  cwd: string;
  expect: "allowed" | "not-allowed";
  setup: string;
  note: string;
  family: string;
}

const DIR = join(import.meta.dirname, "../corpus/layouts");
const rows: LayoutRow[] = readdirSync(DIR)
  .filter((f) => f.endsWith(".jsonl"))
  .flatMap((f) =>
    readFileSync(join(DIR, f), "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as LayoutRow),
  );
const noGit = missing("git");
let engine: Engine;

beforeAll(async () => {
  engine = await getEngine();
});

describe.skipIf(noGit)(named("red-team rows in layouts of their own (hook, primary)", noGit), () => {
  it("has rows, attacks and look-alikes both", () => {
    expect(rows.filter((r) => r.expect === "not-allowed").length).toBeGreaterThanOrEqual(40);
    expect(rows.filter((r) => r.expect === "allowed").length).toBeGreaterThanOrEqual(10);
  });

  for (const [i, row] of rows.entries())
    it(`${row.family} #${i + 1}: ${row.expect === "allowed" ? "allows" : "does not allow"} ${row.command.slice(0, 80)}`, () => {
      const d = mkdtempSync(join(tmpdir(), "agent-sudo-layout-"));
      try {
        execFileSync("bash", ["-c", row.setup], {
          env: { ...process.env, D: d, HOME: `${d}/.home`, GIT_CONFIG_NOSYSTEM: "1" },
          stdio: "ignore",
        });
        const v = engine.classify({
          command: row.command.replaceAll("$D", d),
          cwd: row.cwd.replaceAll("$D", d),
          host: "primary",
          source: "claude",
        });
        const why = `${row.command} → ${v.tier} ${v.rule}: ${v.reason} (${row.note})`;
        if (row.expect === "allowed") expect(v.tier, why).toBeLessThanOrEqual(1);
        else expect(v.tier, why).toBeGreaterThanOrEqual(2);
      } finally {
        rmSync(d, { recursive: true, force: true });
      }
    });
});
