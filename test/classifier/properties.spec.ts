// Property tests (fast-check, fixed seed): wrapping a command never lowers its
// tier, and appending a catastrophic command always yields tier 4.
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import type { Engine } from "../../services/classifier/verdict.js";
import { getEngine, judge, loadCorpus } from "./engine-fixture.js";

const SEED = 20260708;
const CWD = "/home/dev/project";
const corpus = loadCorpus().filter((c) => (c.source ?? "claude") === "claude" && (c.host ?? "primary") === "primary");
const commands = corpus.map((c) => c.command);
// Simple commands only for prefix wrappers: a prefix applies to the first command of a list, and runs a
// program — never a keyword or a builtin that has no program of its name (`nice [[ … ]]`, `nice declare -i
// n=x` run nothing: nice finds no such program), and a first word beginning with a dash is the wrapper's own
// option (`sudo --exec=sh ls` is not the command `--exec=sh`).
const NO_PROGRAM =
  /^\s*(\[\[|-|(declare|typeset|local|export|readonly|let|read|mapfile|readarray|unset|source|\.|eval|exec|shopt|set|trap|alias|unalias|getopts|command|builtin|enable|hash|type|ulimit|umask|wait|jobs|cd|pushd|popd|dirs|history|fc|bind|complete|compgen|caller|return|exit|break|continue|shift)(\s|$))/;
const simple = commands.filter(
  (c) => !/[;&|\n(){}`<>]|^\s*[A-Za-z_]+=|^(if|for|while|case|function|!)\b|\$\(/.test(c) && !NO_PROGRAM.test(c),
);

const quote = (s: string): string => `'${s.replaceAll("'", `'\\''`)}'`;

const WRAPPERS: Array<[string, (c: string) => string, boolean]> = [
  ["bash -c", (c) => `bash -c ${quote(c)}`, false],
  ["sh -c", (c) => `sh -c ${quote(c)}`, false],
  ["subshell", (c) => `( ${c} )`, false],
  ["true &&", (c) => `true && ${c}`, false],
  ["group", (c) => `{ ${c}\n}`, false],
  ["sudo", (c) => `sudo ${c}`, true],
  ["env X=1", (c) => `env X=1 ${c}`, true],
  ["timeout 5", (c) => `timeout 5 ${c}`, true],
  ["nohup … &", (c) => `nohup ${c} &`, true],
  ["nice", (c) => `nice ${c}`, true],
];

const CATASTROPHIC = [
  "rm -rf /",
  "rm -rf ~",
  "rm -rf --no-preserve-root /",
  "mkfs.ext4 /dev/sda1",
  "dd if=/dev/zero of=/dev/sda",
  ":(){ :|:& };:",
  "echo b > /proc/sysrq-trigger",
  "chmod -R 777 /",
  "wipefs -a /dev/sda",
  "timeshift --restore",
  "bash -c 'rm -rf /'",
  "cat /dev/zero > /dev/nvme0n1",
];

let engine: Engine;
beforeAll(async () => {
  engine = await getEngine();
});

const tier = (command: string): number => judge(engine, { command, cwd: CWD }).tier;

describe("classifier properties", () => {
  // Every corpus command under every wrapper (not a sample: what a sample meets shifts with the corpus).
  it("never lowers the tier when a command is wrapped", () => {
    const lowered: string[] = [];
    // Each command's own tier once, not once per wrapper (the corpus grows; this test's time is its size × wrappers).
    const own = new Map<string, number>();
    for (const [name, wrap, needsSimple] of WRAPPERS) {
      for (const c of needsSimple ? simple : commands) {
        const before = own.get(c) ?? tier(c);
        own.set(c, before);
        const after = tier(wrap(c));
        if (after < before) lowered.push(`${name}: ${JSON.stringify(c)} ${before} → ${after}`);
      }
    }
    expect(lowered).toEqual([]);
  }, 300_000);

  it("never lowers the tier of nested wrappers", () => {
    fc.assert(
      fc.property(fc.nat(), fc.array(fc.constantFrom(...WRAPPERS.filter((w) => !w[2])), { minLength: 2, maxLength: 3 }), (n, ws) => {
        const c = commands[n % commands.length] as string;
        const wrapped = ws.reduce((acc, [, wrap]) => wrap(acc), c);
        expect(tier(wrapped)).toBeGreaterThanOrEqual(tier(c));
      }),
      { seed: SEED, numRuns: 200 },
    );
  });

  it("yields tier 4 when a catastrophic command is appended", () => {
    fc.assert(
      fc.property(fc.nat(), fc.constantFrom(...CATASTROPHIC), fc.constantFrom("; ", "\n", " && ", " || ", " & "), (n, bad, sep) => {
        const c = commands[n % commands.length] as string;
        const joined = `${c}${sep}${bad}`;
        if (tier(joined) !== 4) throw new Error(`${JSON.stringify(joined)} → ${tier(joined)}`);
      }),
      { seed: SEED, numRuns: 600 },
    );
  });

  it("judges every catastrophic command 4 under every wrapper", () => {
    for (const bad of CATASTROPHIC) {
      for (const [name, wrap] of WRAPPERS) expect(tier(wrap(bad)), `${name} ${bad}`).toBe(4);
    }
  });
});
