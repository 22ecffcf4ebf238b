// git: the commands its options and config run (-c core.pager=…, alias.x='!…',
// --upload-pack, difftool -x, rebase -x, submodule foreach, bisect run …),
// the code-bearing config it sets (git config KEY VALUE), and the files its
// output options write (-o, --output, --output-directory; -C names where it works).
import type { Analysis } from "../analyzers.js";
import { optionValueSpec } from "../targets.js";
import type { Spec } from "../targets.js";
import type { Word } from "../types.js";
import { firstOperand, joinWords, literalWord } from "../unwrap.js";
import type { Delegate, Unwrap } from "../unwrap.js";
import { pullOptions, Runs, shQuote } from "./runs.js";
import type { CodeOption } from "./runs.js";

const GIT_GLOBAL_VALUES = new Set(["-C", "--git-dir", "--work-tree", "--namespace", "--super-prefix", "--attr-source", "--list-cmds"]);

/** Per git subcommand: options whose value is a command git runs, and whether the repository operand is appended to it. */
const GIT_CODE_OPTIONS: Record<string, CodeOption & { appendsRepo?: boolean }> = {
  "ls-remote": { longs: ["--upload-pack"], shorts: "u", appendsRepo: true },
  clone: { longs: ["--upload-pack"], shorts: "u", appendsRepo: true },
  fetch: { longs: ["--upload-pack"], appendsRepo: true },
  pull: { longs: ["--upload-pack"], appendsRepo: true },
  "fetch-pack": { longs: ["--upload-pack", "--exec"], appendsRepo: true },
  push: { longs: ["--receive-pack", "--exec"], appendsRepo: true },
  "send-pack": { longs: ["--receive-pack", "--exec"], appendsRepo: true },
  archive: { longs: ["--exec"], appendsRepo: true },
  difftool: { longs: ["--extcmd"], shorts: "x" },
  rebase: { longs: ["--exec"], shorts: "x" },
  grep: { longs: ["--open-files-in-pager"], shorts: "O", optional: true },
  "filter-branch": {
    longs: ["--env-filter", "--tree-filter", "--index-filter", "--parent-filter", "--msg-filter", "--commit-filter", "--tag-name-filter"],
  },
  "send-email": { longs: ["--sendmail-cmd", "--to-cmd", "--cc-cmd", "--header-cmd"] },
  instaweb: { longs: ["--httpd"], shorts: "d" },
};

/**
 * git options and config that run commands: `-c key=cmd` (core.sshCommand,
 * core.pager, alias.x='!cmd' …), --upload-pack/--receive-pack/--exec (run with
 * the repository appended), difftool -x, grep -O, rebase -x, submodule foreach,
 * bisect run. The code is judged, and so is the git command without it.
 */
function git(args: Word[]): Unwrap | null {
  const runs = new Runs();
  const kept: Word[] = [literalWord("git")];
  let i = 0;
  for (; i < args.length; i++) {
    const w = args[i] as Word;
    const t = w.text;
    if (!t.startsWith("-") || t === "--") break;
    if (t === "-c" || t === "--config-env" || t.startsWith("--config-env=")) {
      const pair = t.startsWith("--config-env=") ? { ...w, text: t.slice("--config-env=".length) } : args[++i];
      if (!pair) break;
      const eq = pair.text.indexOf("=");
      const key = eq < 0 ? pair.text : pair.text.slice(0, eq);
      const value = eq < 0 ? null : pair.text.slice(eq + 1);
      const runsWhat = pair.dynamic && eq < 0 ? "other" : gitConfigRuns(key, value);
      if (runsWhat === null) {
        kept.push(...(t.startsWith("--config-env=") ? [w] : [w, pair]));
        continue;
      }
      // --config-env takes the value from an environment variable: not known here.
      if (runsWhat === "shell" && value !== null && t === "-c")
        runs.add({ ...pair, text: gitConfigCommand(value) }, 2, `git -c ${key} runs a command`);
      else {
        runs.opaque.push(pair.text);
        runs.raise(2, `git config ${key} runs code`);
      }
      continue;
    }
    if (t.startsWith("--exec-path=")) {
      runs.opaque.push(t);
      runs.raise(2, "git runs its subcommands from another directory");
      continue;
    }
    kept.push(w);
    if (GIT_GLOBAL_VALUES.has(t) && args[i + 1]) kept.push(args[++i] as Word);
  }
  const sub = args[i];
  const rest = args.slice(i + 1);
  if (sub) kept.push(sub);
  const spec = sub && Object.hasOwn(GIT_CODE_OPTIONS, sub.text) ? GIT_CODE_OPTIONS[sub.text] : undefined;
  if (sub?.text === "submodule" && rest.some((w) => w.text === "foreach")) {
    const f = rest.findIndex((w) => w.text === "foreach");
    const at = firstOperand(rest, new Set(), f + 1);
    const cmd = rest.slice(at);
    kept.push(...rest.slice(0, Math.min(at, rest.length)));
    if (cmd.length) runs.add(joinWords(cmd), 0, "git runs a command in each submodule");
  } else if (sub?.text === "bisect" && rest[0]?.text === "run") {
    kept.push(rest[0]);
    if (rest.length > 1) {
      runs.inner.push(rest.slice(1));
      runs.raise(0, "git bisect runs a command at each step");
    }
  } else if (spec) {
    const { values, rest: left } = pullOptions(rest, spec);
    kept.push(...left);
    // Local transports run the program through a shell with the repository
    // path appended (`--upload-pack='rm -rf' ~`): judge it with each operand.
    const operands = left
      .filter((w) => !w.text.startsWith("-"))
      .slice(0, 4)
      .map((w) => shQuote(w.text));
    for (const v of values) {
      if (spec.appendsRepo && operands.length)
        for (const o of operands) runs.add(v, 2, `git ${sub?.text} runs a command named by an option`, o);
      else runs.add(v, 2, `git ${sub?.text} runs a command named by an option`);
    }
  } else kept.push(...rest);
  return runs.result("delegate:git", [kept]);
}

// git config keys whose value runs: as shell code (the value is a command
// line), or in another way (hooks, included config, URL rewriting, transports).
const GIT_SHELL_KEYS =
  /^(core\.(sshcommand|pager|editor|askpass|gitproxy|fsmonitor|alternaterefscommand)|sequence\.editor|gpg\.([^.]+\.)?program|gpg\.ssh\.defaultkeycommand|diff\.external|diff\..+\.(textconv|command)|(diff|merge)tool\..+\.cmd|merge\..+\.driver|filter\..+\.(clean|smudge|process)|pager\..+|alias\..+|credential\.(.+\.)?helper|submodule\..+\.update|sendemail\.(.+\.)?(sendmailcmd|tocmd|cccmd|headercmd)|(browser|man)\..+\.(cmd|path)|interactive\.difffilter|tar\..+\.command|trailer\..+\.(command|cmd)|uploadpack\.packobjectshook|remote\..+\.(uploadpack|receivepack)|hook\..+\.command|instaweb\.httpd)$/;
const GIT_OTHER_KEYS =
  /^(core\.hookspath|init\.templatedir|include\.|includeif\.|url\.|protocol\.|uploadpack\.|receive\.|remote\..+\.vcs|filter\.|credential\.|safe\.directory)/;

/**
 * Whether setting git config `key` to `value` makes git run something:
 * "shell" when the value is a command line (see gitConfigCommand), "other"
 * when it runs code in another way, null when it does not.
 */
export function gitConfigRuns(key: string, value: string | null): "shell" | "other" | null {
  const k = key.toLowerCase();
  const v = (value ?? "").trim();
  if (/^(pager\..+|core\.fsmonitor)$/.test(k) && value !== null && /^(true|false|yes|no|on|off|1|0)?$/i.test(v)) return null;
  if (/^(alias\..+|submodule\..+\.update)$/.test(k)) return v.startsWith("!") ? "shell" : k.startsWith("alias.") ? "other" : null;
  if (/^credential\.(.+\.)?helper$/.test(k)) return v.startsWith("!") || v.includes("/") ? "shell" : "other";
  if (GIT_SHELL_KEYS.test(k)) return "shell";
  return GIT_OTHER_KEYS.test(k) ? "other" : null;
}

/** The shell code a code-bearing git config value runs (`!cmd` aliases and helpers lose their `!`). */
export function gitConfigCommand(value: string): string {
  return value.trim().replace(/^!/, "");
}

/** `git -c KEY=VALUE …` and `git config KEY VALUE` with a key whose value runs: a floor, and the code to scan. */
export function gitAnalysis(args: readonly Word[]): Analysis | null {
  for (let i = 0; i < args.length; i++) {
    const t = (args[i] as Word).text;
    const next = args[i + 1]?.text ?? "";
    const pairRuns = (pair: string) =>
      gitConfigRuns(pair.split("=")[0] ?? "", pair.includes("=") ? pair.slice(pair.indexOf("=") + 1) : null);
    if (t === "-c" && pairRuns(next)) {
      return {
        tier: 2,
        rule: "analysis:git-code-config",
        reason: "git config key that runs a command",
        kind: "floor",
        code: gitConfigCommand(next.slice(next.indexOf("=") + 1)),
      };
    }
    if (t === "config") {
      const rest = args.slice(i + 1).filter((w) => !w.text.startsWith("-"));
      const at = rest.findIndex((w, j) => gitConfigRuns(w.text, rest[j + 1]?.text ?? null) !== null);
      if (at >= 0) {
        const value = rest[at + 1]?.text ?? "";
        return {
          tier: 2,
          rule: "analysis:git-code-config",
          reason: "git config key that runs a command",
          kind: "floor",
          code: gitConfigCommand(value),
        };
      }
    }
    if (!t.startsWith("-") && t !== "config" && !(args[i - 1]?.text === "-c" || args[i - 1]?.text === "-C")) break;
  }
  return null;
}

/** What git writes: its output options' files, else where it works (-C, --git-dir, --work-tree, the cwd). */
export const gitTargets: Spec = (args) => {
  // Output options name a file written even by a read verb; -C/--git-dir/
  // --work-tree only say where the verb works (a write only for write verbs).
  const out = optionValueSpec(["--output", "--output-directory", "-o"], false)(args);
  if (out.length) return out;
  return optionValueSpec(["-C", "--git-dir", "--work-tree"], true)(args).map((t) => ({ ...t, implicit: true }));
};

export const gitDelegate: Delegate = (_name, args) => git(args);
