// Fuzzing (fast-check, fixed seed): random bytes and randomly generated shell
// never crash the engine, always yield a tier 0–4 with a rule, and input that
// does not parse is never judged 0–1.
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { loadBashParser } from "../../services/classifier/engine/parse.js";
import type { BashParser } from "../../services/classifier/engine/parse.js";
import type { Engine, Verdict } from "../../services/classifier/verdict.js";
import { getEngine } from "./engine-fixture.js";

const SEED = 424242;
let engine: Engine;
let parser: BashParser;

beforeAll(async () => {
  engine = await getEngine();
  parser = await loadBashParser();
});

function check(command: string, host: "primary" | "server-01" = "primary"): Verdict {
  const v = engine.classify({ command, cwd: "/home/dev/project", host, source: "claude" });
  expect([0, 1, 2, 3, 4]).toContain(v.tier);
  expect(v.rule.length).toBeGreaterThan(0);
  if (parser.parse(command).error && v.tier < 2) throw new Error(`unparseable input judged ${v.tier}: ${JSON.stringify(command)}`);
  return v;
}

const WORDS = [
  "ls",
  "rm",
  "-rf",
  "/",
  "~",
  "echo",
  "cat",
  "git",
  "status",
  "sudo",
  "bash",
  "-c",
  "x",
  "$HOME",
  "*",
  ".env",
  "/etc/passwd",
  "/dev/sda",
  "dd",
  "of=/dev/sda",
  "python3",
  "-e",
  "eval",
  "find",
  "-exec",
  "{}",
  "\\;",
  "xargs",
  "env",
  "A=1",
  "timeout",
  "5",
  "ssh",
  "h",
  "docker",
  "run",
  "-v",
  "/:/h",
  "mkfs",
  "chmod",
  "777",
];
const OPS = [
  " ",
  " ",
  " ",
  "; ",
  " && ",
  " || ",
  " | ",
  " & ",
  "\n",
  " > ",
  " >> ",
  " < ",
  " 2>&1 ",
  " <<< ",
  "$(",
  ")",
  "`",
  "'",
  '"',
  "(",
  ")",
  "{ ",
  "; }",
  "<(",
  "$((",
  "))",
  "\\",
  "#",
  "!",
  "=",
  "$",
  "${",
  "}",
  "<<EOF\n",
  "\nEOF\n",
];

const shellish = fc
  .array(fc.oneof(fc.constantFrom(...WORDS), fc.constantFrom(...OPS), fc.string({ maxLength: 4 })), { maxLength: 24 })
  .map((xs) => xs.join(""));

describe("classifier fuzzing", () => {
  it("survives random byte strings", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        check(Buffer.from(bytes).toString("latin1"));
        check(Buffer.from(bytes).toString("utf8"), "server-01");
      }),
      { seed: SEED, numRuns: 400 },
    );
  });

  it("survives random unicode strings", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 120 }), (s) => void check(s)),
      { seed: SEED, numRuns: 400 },
    );
  });

  it("survives randomly generated shell and never allows what does not parse", () => {
    fc.assert(
      fc.property(shellish, (s) => void check(s)),
      { seed: SEED, numRuns: 1500 },
    );
  });

  it("refuses over-long input and NUL bytes", () => {
    expect(check("ls " + "a".repeat(70_000)).tier).toBe(4);
    expect(check("ls\0; rm -rf /").tier).toBe(4);
  });

  it("refuses absurdly deep nesting", () => {
    let c = "ls";
    for (let i = 0; i < 10; i++) c = `bash -c ${JSON.stringify(c)}`;
    expect(check(c).tier).toBe(4);
  });
});
