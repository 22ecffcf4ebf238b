// Commands that run other commands from their arguments: find -exec/-ok/-delete,
// xargs, parallel, watch, ssh host 'cmd', docker/podman run|exec, docker compose
// run|exec, kubectl exec, npx, environment runners (uv run, poetry run, bundle
// exec …), and options that name a command (git --upload-pack/-c core.pager/
// difftool -x/submodule foreach, tar --to-command/-I, make --eval, cmake -E,
// gdb -ex 'shell …', nodemon --exec). The delegated command is judged like any other.
import type { TierNumber } from "../../shared/tier.js";
import type { StdinSource, Word } from "./types.js";
import { gitConfigCommand, gitConfigRuns } from "./analyzers.js";
import { dynamicWord, firstOperand, joinWords, literalWord, unwrap } from "./unwrap.js";
import type { Unwrap } from "./unwrap.js";

function find(args: Word[]): Unwrap | null {
  const roots = args
    .slice(
      0,
      Math.max(
        0,
        args.findIndex((w) => /^[-!(]/.test(w.text)),
      ),
    )
    .map((w) => w.text);
  const starts = roots.length ? roots : ["."];
  const inner: Word[][] = [];
  for (let i = 0; i < args.length; i++) {
    if (!/^-(exec|execdir|ok|okdir)$/.test((args[i] as Word).text)) continue;
    let j = i + 1;
    const cmd: Word[] = [];
    while (j < args.length && !/^[;+]$/.test((args[j] as Word).text)) cmd.push(args[j++] as Word);
    for (const root of starts) {
      inner.push(
        cmd.map((w) => (w.text.includes("{}") ? { ...w, text: w.text.replaceAll("{}", `${root.replace(/\/+$/, "")}/{}`), glob: true } : w)),
      );
    }
    i = j;
  }
  return inner.length ? unwrap("delegate:find-exec", 0, "find runs a command per match", { inner }) : null;
}

const XARGS_VALUES = new Set([
  "-n",
  "-I",
  "-P",
  "-L",
  "-d",
  "-a",
  "-E",
  "-s",
  "-e",
  "--max-args",
  "--max-procs",
  "--delimiter",
  "--arg-file",
  "--max-lines",
  "--eof",
  "--max-chars",
]);

/** xargs's replacement string: `-I R`, `-IR`, `-i[R]`, `--replace[=R]` (R defaults to `{}`). */
function xargsReplace(opts: Word[]): string | undefined {
  let repl: string | undefined;
  for (let i = 0; i < opts.length; i++) {
    const t = (opts[i] as Word).text;
    // Flags without values may be bundled before it: `-0I{}`, `-rtI {}`.
    const short = /^-[0prtx]*([Ii])(.*)$/s.exec(t);
    if (short?.[1] === "I") repl = short[2] || opts[++i]?.text;
    else if (short) repl = short[2] || "{}";
    else if (t === "--replace") repl = "{}";
    else if (t.startsWith("--replace=")) repl = t.slice("--replace=".length) || "{}";
    else if (XARGS_VALUES.has(t)) i++;
  }
  return repl === "" ? undefined : repl;
}

function xargs(args: Word[], stdin: StdinSource | null): Unwrap {
  const at = firstOperand(args, XARGS_VALUES);
  const repl = xargsReplace(args.slice(0, at));
  let cmd = args.slice(at);
  if (cmd.length === 0) cmd = [literalWord("echo")];
  // `find ROOT … -print0 | xargs -0 CMD`: each item is one path under ROOT, never an option.
  const nul = args.slice(0, at).some((w) => w.text === "--null" || /^-[a-zA-Z]*0/.test(w.text));
  // …and it lies under find's roots, which a reader of it reads as trees (secret-trees.ts).
  const roots = nul && stdin?.nulPaths === true && stdin.roots ? { underRoots: stdin.roots } : {};
  const input = { ...dynamicWord("$XARGS_INPUT"), noDash: nul && stdin?.nulPaths === true, stdinItem: true, ...roots };
  const inner = repl
    ? cmd.map((w) =>
        w.text === repl
          ? { ...w, text: "$XARGS_INPUT", dynamic: true, noDash: input.noDash && !w.text.startsWith("-"), stdinItem: true, ...roots }
          : w.text.includes(repl)
            ? {
                ...w,
                text: w.text.replaceAll(repl, "$XARGS_INPUT"),
                dynamic: true,
                noDash: input.noDash && !w.text.startsWith("-"),
                stdinItem: true,
              }
            : w,
      )
    : [...cmd, input];
  return unwrap("delegate:xargs", 0, "xargs runs a command on its input", { inner: [inner] });
}

/** At most this many `:::` arguments are substituted one by one; the rest stand as one unknown argument. */
const PARALLEL_ARGS = 16;

/** A word as a single-quoted shell word, for code that is parsed again. */
const shQuote = (text: string): string => `'${text.replace(/'/g, "'\\''")}'`;

function parallel(args: Word[]): Unwrap {
  const at = firstOperand(
    args,
    new Set(["-j", "--jobs", "-S", "--sshlogin", "--joblog", "--results", "-a", "--arg-file", "--delay", "--timeout"]),
  );
  const end = args.findIndex((w, i) => i >= at && /^::::?\+?$/.test(w.text));
  const cmd = args.slice(at, end < 0 ? undefined : end);
  // Arguments after `:::` are substituted for `{}`, or appended when the
  // command has none; arguments from `::::` files or stdin are unknown.
  const given: Word[] = [];
  let unknown = end < 0;
  let literal = false;
  for (const w of end < 0 ? [] : args.slice(end)) {
    if (/^::::\+?$/.test(w.text)) {
      literal = false;
      unknown = true;
    } else if (/^:::\+?$/.test(w.text)) literal = true;
    else if (literal) given.push(w);
  }
  if (given.length > PARALLEL_ARGS || given.some((w) => w.dynamic)) unknown = true;
  const known = given.filter((w) => !w.dynamic).slice(0, PARALLEL_ARGS);
  if (cmd.length === 0) {
    // `parallel ::: 'cmd1' 'cmd2'`: each argument is a command.
    return unwrap("delegate:parallel", unknown ? 2 : 0, "parallel runs each input as a command", {
      code: known.map((w) => w.text),
      opaque: given.filter((w) => w.dynamic).map((w) => w.text),
    });
  }
  const text = joinWords(cmd).text;
  const inputs = [...known.map((w) => shQuote(w.text)), ...(unknown ? ['"$PARALLEL_ARG"'] : [])];
  const code = inputs.map((arg) => (/\{[^}\s]*\}/.test(text) ? text.replace(/\{[^}\s]*\}/g, arg) : `${text} ${arg}`));
  return unwrap("delegate:parallel", 0, "parallel runs a command per input", { code });
}

function watch(args: Word[]): Unwrap {
  const at = firstOperand(args, new Set(["-n", "--interval", "-q", "--equexit"]));
  const rest = args.slice(at);
  if (args.slice(0, at).some((w) => w.text === "-x" || w.text === "--exec"))
    return unwrap("delegate:watch", 0, "watch re-runs a command", { inner: [rest] });
  return unwrap("delegate:watch", 0, "watch re-runs a command", { code: [joinWords(rest).text] });
}

const SSH_VALUES = new Set([
  "-p",
  "-i",
  "-l",
  "-o",
  "-F",
  "-J",
  "-L",
  "-R",
  "-D",
  "-W",
  "-b",
  "-c",
  "-E",
  "-e",
  "-m",
  "-O",
  "-Q",
  "-S",
  "-w",
  "-B",
  "-I",
]);

function ssh(args: Word[]): Unwrap {
  const at = firstOperand(args, SSH_VALUES);
  const opts = args.slice(0, at).map((w) => w.text);
  const optText = args
    .slice(0, at)
    .map((w) => w.text)
    .join(" ");
  if (/ProxyCommand|LocalCommand|PermitLocalCommand|KnownHostsCommand/i.test(optText))
    return unwrap("delegate:ssh", 2, "ssh option runs a local command", { opaque: [optText] });
  const forwards = opts.some((o) => /^-[LRDWw]/.test(o));
  const rest = args.slice(at + 1);
  if (rest.length === 0) return unwrap("delegate:ssh", 2, forwards ? "opens a tunnel" : "opens an interactive remote session");
  const floor: TierNumber = forwards ? 2 : 0;
  return unwrap("delegate:ssh", floor, "runs a command on another host", { code: [joinWords(rest).text], remote: true });
}

const RUN_VALUES = new Set([
  "-v",
  "--volume",
  "--mount",
  "-e",
  "--env",
  "--env-file",
  "--name",
  "-p",
  "--publish",
  "-w",
  "--workdir",
  "--network",
  "--net",
  "-u",
  "--user",
  "--entrypoint",
  "-l",
  "--label",
  "--cpus",
  "-m",
  "--memory",
  "--restart",
  "-h",
  "--hostname",
  "--add-host",
  "--cap-add",
  "--cap-drop",
  "--device",
  "--pid",
  "--ipc",
  "--uts",
  "--userns",
  "--security-opt",
  "--platform",
  "--pull",
  "--log-driver",
  "--log-opt",
  "--tmpfs",
  "--ulimit",
  "--gpus",
  "--dns",
  "--shm-size",
  "--stop-signal",
  "--health-cmd",
  "--cidfile",
  "--group-add",
  "--link",
  "--volumes-from",
  "--runtime",
  "--cgroupns",
  "-a",
  "--attach",
  "--detach-keys",
]);
const HOST_ROOT_MOUNT =
  /^(\/|\/etc|\/root|\/home|\/boot|\/usr|\/var|\/var\/lib|\/var\/lib\/docker|\/var\/run\/docker\.sock|\/run\/docker\.sock|\/dev|\/proc|\/sys)$/;

interface Mount {
  src: string;
  dst: string;
}

/** Bind mounts in any spelling: `-v SRC:DST`, `-vSRC:DST`, `--volume=…`, `--mount type=bind,src=…,dst=…` (source/target/destination too). */
function mountsOf(opts: string[]): Mount[] {
  const raw: { v: string; mount: boolean }[] = [];
  for (let i = 0; i < opts.length; i++) {
    const o = opts[i] as string;
    const m = /^(?:--(volume|mount)(?:=(.*))?|-[a-zA-Z]*?v(.*))$/s.exec(o);
    if (!m || (o.startsWith("--") && m[1] === undefined)) continue;
    const value = m[2] ?? (m[3] || undefined) ?? opts[++i] ?? "";
    raw.push({ v: value, mount: m[1] === "mount" });
  }
  const trim = (p: string) => (p.length > 1 ? p.replace(/\/+$/, "") : p);
  return raw.map(({ v, mount }) => {
    if (mount || /(^|,)(type|source|src|target|destination|dst)=/.test(v)) {
      const field = (re: RegExp) => re.exec(v)?.[1] ?? "";
      return { src: trim(field(/(?:^|,)(?:source|src)=([^,]*)/)), dst: trim(field(/(?:^|,)(?:target|destination|dst)=([^,]*)/)) };
    }
    const [src = "", dst = ""] = v.split(":");
    return { src: trim(src), dst: trim(dst) };
  });
}

function container(kind: "run" | "exec", tool: string, args: Word[]): Unwrap {
  const at = firstOperand(args, RUN_VALUES);
  const opts = args.slice(0, at).map((w) => w.text);
  const optText = opts.join(" ");
  const mounts = mountsOf(opts);
  const hostRoot = mounts.some((m) => HOST_ROOT_MOUNT.test(m.src));
  const privileged = /--privileged|--pid[ =]host|--cap-add[ =](ALL|SYS_ADMIN)|--userns[ =]host|--device[ =]\/dev\/(sd|nvme|vd)/.test(
    optText,
  );
  const rest = args.slice(at + 1);
  let floor: TierNumber = kind === "run" ? 2 : 0;
  let why = kind === "run" ? "starts a container" : "runs a command in a running container";
  if (hostRoot || privileged) {
    floor = 3;
    why = "container with host root, system mounts or privileges";
  }
  if (rest.length === 0) return unwrap(`delegate:${tool}-${kind}`, Math.max(floor, kind === "exec" ? 2 : floor) as TierNumber, why);
  return unwrap(`delegate:${tool}-${kind}`, floor, why, { inner: [rest.map((w) => hostView(w, mounts))], remote: true });
}

/** Rewrite a container path under a bind mount to the host path it reaches (`/host/etc` → `/etc`). */
function hostView(word: Word, mounts: Mount[]): Word {
  for (const { src, dst } of mounts) {
    if (!src.startsWith("/") || !dst.startsWith("/")) continue;
    const d = dst === "/" ? "" : dst;
    if (word.text === dst || word.text.startsWith(d + "/"))
      return { ...word, text: (src === "/" ? "" : src) + word.text.slice(d.length) || "/" };
  }
  return word;
}

function kubectlExec(args: Word[]): Unwrap {
  const dash = args.findIndex((w) => w.text === "--");
  if (dash < 0) return unwrap("delegate:kubectl-exec", 2, "interactive exec into a pod");
  return unwrap("delegate:kubectl-exec", 0, "runs a command in a pod", { inner: [args.slice(dash + 1)], remote: true });
}

const COMPOSE_VALUES = new Set([
  "-f",
  "--file",
  "-p",
  "--project-name",
  "--env-file",
  "--profile",
  "--project-directory",
  "-e",
  "--env",
  "-u",
  "--user",
  "-w",
  "--workdir",
  "--index",
  "--name",
  "--entrypoint",
  "-v",
  "--volume",
  "-l",
  "--label",
]);

function compose(sub: string, args: Word[]): Unwrap | null {
  if (sub !== "exec" && sub !== "run") return null;
  const at = firstOperand(args, COMPOSE_VALUES);
  const rest = args.slice(at + 1);
  const floor: TierNumber = sub === "run" ? 2 : 0;
  if (rest.length === 0) return unwrap(`delegate:compose-${sub}`, 2, "interactive session in a service container");
  return unwrap(`delegate:compose-${sub}`, floor, "runs a command in a service container", { inner: [rest], remote: true });
}

const NPX_VALUES = new Set(["-p", "--package", "-c", "--call", "--prefix", "-w", "--workspace"]);

/** npx/bunx/pnpm dlx: run a package's binary (downloading it when absent). */
function npx(tool: string, args: Word[]): Unwrap {
  const c = args.findIndex((w) => w.text === "-c" || w.text === "--call");
  if (c >= 0 && args[c + 1]) return unwrap(`delegate:${tool}`, 1, "runs a package binary", { code: [(args[c + 1] as Word).text] });
  const at = firstOperand(args, NPX_VALUES);
  const rest = args.slice(at);
  if (rest.length === 0) return unwrap(`delegate:${tool}`, 2, `${tool} without a command`);
  const bin = (rest[0] as Word).text.replace(/^@[^/]+\//, "").replace(/@[^@/]*$/, "");
  return unwrap(`delegate:${tool}`, 1, "runs a package binary", { inner: [[{ ...(rest[0] as Word), text: bin }, ...rest.slice(1)]] });
}

function dashExec(tool: string, args: Word[]): Unwrap {
  const dash = args.findIndex((w) => w.text === "--");
  if (dash < 0) return unwrap(`delegate:${tool}-exec`, 2, "interactive exec into an instance");
  return unwrap(`delegate:${tool}-exec`, 0, "runs a command in an instance", { inner: [args.slice(dash + 1)], remote: true });
}

/** How a program names an option whose value is a command it runs. */
interface CodeOption {
  /** Long names; unambiguous-looking abbreviations (4+ characters) count too, as getopt_long and git accept them. */
  longs: readonly string[];
  /** Short letters, alone (`-x V`), glued (`-xV`) or ending a cluster (`-yx V`). */
  shorts?: string;
  /** The value is optional and only given glued (`-Ocmd`, `--open-files-in-pager=cmd`). */
  optional?: boolean;
  /** Real long options that are prefixes of a code option (`--checkpoint` before `--checkpoint-action`). */
  not?: readonly string[];
}

/** The values of code-bearing options, and the arguments without them (up to a `--`). */
function pullOptions(args: readonly Word[], spec: CodeOption): { values: Word[]; rest: Word[] } {
  const values: Word[] = [];
  const rest: Word[] = [];
  for (let i = 0; i < args.length; i++) {
    const w = args[i] as Word;
    const t = w.text;
    if (t === "--") {
      rest.push(...args.slice(i));
      break;
    }
    if (t.startsWith("--")) {
      const eq = t.indexOf("=");
      const name = eq < 0 ? t : t.slice(0, eq);
      const hit = name.length >= 4 && !(spec.not ?? []).includes(name) && spec.longs.some((l) => l.startsWith(name));
      if (hit && eq >= 0) {
        values.push({ ...w, text: t.slice(eq + 1) });
        continue;
      }
      if (hit && !spec.optional) {
        if (args[i + 1]) values.push(args[++i] as Word);
        continue;
      }
    } else if (spec.shorts && /^-[^-]/.test(t)) {
      const k = [...t.slice(1)].findIndex((c) => spec.shorts?.includes(c));
      if (k >= 0) {
        const glued = t.slice(k + 2);
        if (glued !== "") values.push({ ...w, text: glued });
        else if (!spec.optional && args[i + 1]) values.push(args[++i] as Word);
        if (k > 0) rest.push({ ...w, text: t.slice(0, k + 1) });
        continue;
      }
    }
    rest.push(w);
  }
  return { values, rest };
}

/** Collects what a program's options run: shell code, opaque code, argv, the floor and why. */
class Runs {
  code: string[] = [];
  opaque: string[] = [];
  inner: Word[][] = [];
  floor: TierNumber = 0;
  why = "";

  /** A command line from an option: judged as shell code when literal, opaque when computed. */
  add(w: { text: string; dynamic: boolean }, floor: TierNumber, why: string, append = ""): void {
    if (w.dynamic) this.opaque.push(w.text);
    else this.code.push(append ? `${w.text} ${append}` : w.text);
    this.raise(w.dynamic ? 2 : floor, why);
  }

  raise(floor: TierNumber, why: string): void {
    if (floor >= this.floor) {
      this.floor = floor;
      this.why = why;
    }
    if (!this.why) this.why = why;
  }

  get found(): boolean {
    return this.code.length + this.opaque.length + this.inner.length > 0 || this.why !== "";
  }

  result(rule: string, rest: Word[][] = []): Unwrap | null {
    if (!this.found) return null;
    return unwrap(rule, this.floor, this.why, { code: this.code, opaque: this.opaque, inner: [...this.inner, ...rest] });
  }
}

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
  const spec = sub ? GIT_CODE_OPTIONS[sub.text] : undefined;
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

const TAR_CODE: CodeOption = {
  longs: ["--to-command", "--use-compress-program", "--rsh-command", "--info-script", "--new-volume-script"],
  shorts: "IF",
};
const COMPRESSOR =
  /^(gzip|gunzip|pigz|unpigz|bzip2|bunzip2|pbzip2|lbzip2|xz|unxz|pixz|lzma|unlzma|lzip|lzop|lz4|zstd|unzstd|pzstd|brotli|compress|uncompress)( +-[-a-zA-Z0-9=]+)*$/;

/** tar options that run commands: --to-command, --checkpoint-action=exec=, -I/--use-compress-program, --rsh-command, -F/--info-script. */
function tar(args: Word[]): Unwrap | null {
  // Old-style bundled letters (`tar xIf prog f.tar`) take their values in order: not followed here.
  const first = args[0];
  if (first && /^[a-zA-Z]+$/.test(first.text) && /[IF]/.test(first.text) && /[ctxrudA]/.test(first.text)) {
    return unwrap("delegate:tar", 2, "tar's bundled options name a program to run", { opaque: [joinWords(args).text] });
  }
  const runs = new Runs();
  const actions = pullOptions(args, { longs: ["--checkpoint-action"], not: ["--checkpoint"] });
  for (const v of actions.values) {
    if (/^exec=/.test(v.text)) runs.add({ ...v, text: v.text.slice(5) }, 2, "tar runs a command at each checkpoint");
  }
  const { values, rest } = pullOptions(actions.rest, TAR_CODE);
  for (const v of values) runs.add(v, COMPRESSOR.test(v.text.trim()) ? 0 : 2, "tar runs a command named by an option");
  return runs.result("delegate:tar", [[literalWord("tar"), ...rest]]);
}

/** `$(shell cmd)` and `VAR != cmd` in make text: shell code make runs while reading it. */
function makeShell(text: string): string[] {
  const out = [...text.matchAll(/\$[({]shell\s+([^)}]*)[)}]/g)].map((m) => m[1] ?? "");
  for (const m of text.matchAll(/!=\s*([^\n]*)/g)) out.push(m[1] ?? "");
  return out;
}

/** make --eval/-E TEXT (makefile text: `$(shell …)`, new recipes), SHELL= overrides and variables holding `$(shell …)`. */
function make(name: string, args: Word[]): Unwrap | null {
  const runs = new Runs();
  const { values, rest } = pullOptions(args, { longs: ["--eval"], shorts: "E" });
  for (const v of values) {
    runs.opaque.push(v.text);
    for (const c of makeShell(v.text)) runs.add({ ...v, text: c }, 2, "make evaluates makefile text given on the command line");
    runs.raise(2, "make evaluates makefile text given on the command line");
  }
  const kept: Word[] = [literalWord(name)];
  for (const w of rest) {
    const shellVar = /^(SHELL|\.SHELLFLAGS|MAKESHELL)[:?]?=(.*)$/s.exec(w.text);
    const assign = /^[A-Za-z_.][\w.]*([:+?!]?)=(.*)$/s.exec(w.text);
    const why = "a make variable given on the command line runs a shell command";
    if (shellVar) {
      runs.opaque.push(shellVar[2] ?? "");
      runs.raise(2, `make runs its recipes through ${shellVar[1]}`);
    } else if (assign?.[1] === "!") runs.add({ ...w, text: assign[2] ?? "" }, 2, why);
    else if (assign && makeShell(assign[2] ?? "").length) for (const c of makeShell(assign[2] ?? "")) runs.add({ ...w, text: c }, 2, why);
    else kept.push(w);
  }
  return runs.result(`delegate:${name}`, [kept]);
}

/** `cmake -E CMD …` runs a portable built-in command; `cmake -P file` runs a CMake script. */
const CMAKE_E: Record<string, string[] | null> = {
  rm: ["rm"],
  remove: ["rm"],
  remove_directory: ["rm", "-r"],
  make_directory: ["mkdir", "-p"],
  copy: ["cp"],
  copy_directory: ["cp", "-r"],
  copy_directory_if_different: ["cp", "-r"],
  copy_if_different: ["cp"],
  rename: ["mv"],
  create_symlink: ["ln", "-s"],
  create_hardlink: ["ln"],
  touch: ["touch"],
  touch_nocreate: ["touch", "-c"],
  cat: ["cat"],
  echo: ["echo"],
  echo_append: ["echo"],
  md5sum: ["md5sum"],
  sha1sum: ["sha1sum"],
  sha224sum: ["sha224sum"],
  sha256sum: ["sha256sum"],
  sha384sum: ["sha384sum"],
  sha512sum: ["sha512sum"],
  sleep: ["sleep"],
  true: ["true"],
  false: ["false"],
  tar: ["tar"],
  compare_files: ["cmp"],
  capabilities: ["true"],
  environment: ["env"],
  env: ["env"],
  time: ["time"],
  chdir: null,
};

function cmake(args: Word[]): Unwrap | null {
  const e = args.findIndex((w) => w.text === "-E");
  if (e >= 0) {
    const cmd = args[e + 1];
    if (!cmd) return null;
    const as = CMAKE_E[cmd.text];
    const rest = args.slice(e + 2);
    if (as === undefined) return unwrap("delegate:cmake-E", 2, `cmake -E ${cmd.text}: a built-in command not known here`);
    // `cmake -E chdir DIR CMD …` runs CMD in DIR: judged from the outside.
    if (as === null) return unwrap("delegate:cmake-E", 2, "cmake -E chdir runs a command in another directory", { inner: [rest.slice(1)] });
    return unwrap("delegate:cmake-E", 0, `cmake -E ${cmd.text} runs a built-in command`, { inner: [[...as.map(literalWord), ...rest]] });
  }
  const p = args.findIndex((w) => w.text === "-P");
  const script = p >= 0 ? args[p + 1] : undefined;
  if (script) return unwrap("delegate:cmake-P", 0, "cmake runs a CMake script", { inner: [[literalWord("\u0000script"), script]] });
  return null;
}

const GDB_VALUES = new Set([
  "-ex",
  "-iex",
  "-eval-command",
  "--eval-command",
  "-init-eval-command",
  "--init-eval-command",
  "-x",
  "-ix",
  "-command",
  "--command",
  "-init-command",
  "--init-command",
  "-p",
  "-pid",
  "--pid",
  "-cd",
  "--cd",
  "-d",
  "--directory",
  "-s",
  "--symbols",
  "-e",
  "--exec",
  "-c",
  "--core",
  "-se",
  "-b",
  "-l",
  "-data-directory",
  "--data-directory",
  "-D",
  "-tty",
  "--tty",
]);

/**
 * gdb's commands: `shell`/`!`/`pipe` run shell code; python, guile, source and
 * inferior calls run other code; -x files are scripts; -p attaches to a live
 * process; `run`/`start` run the program being debugged (judged as a script).
 */
function gdb(args: Word[]): Unwrap | null {
  const runs = new Runs();
  const kept: Word[] = [literalWord("gdb")];
  const operands: Word[] = [];
  let runsProgram = false;
  for (let i = 0; i < args.length; i++) {
    const w = args[i] as Word;
    const eq = w.text.startsWith("-") ? w.text.indexOf("=") : -1;
    const opt = eq > 0 ? w.text.slice(0, eq) : w.text;
    if (opt === "--args") {
      operands.push(...args.slice(i + 1, i + 2));
      kept.push(...args.slice(i));
      break;
    }
    if (!GDB_VALUES.has(opt)) {
      kept.push(w);
      if (!w.text.startsWith("-")) operands.push(w);
      continue;
    }
    const v = eq > 0 ? { ...w, text: w.text.slice(eq + 1) } : args[++i];
    if (!v) {
      kept.push(w);
      break;
    }
    if (/^-(p|pid|-pid)$/.test(opt)) {
      runs.opaque.push(v.text);
      runs.raise(2, "gdb attaches to a running process");
      continue;
    }
    if (/^-(x|ix|-?command|-?init-command)$/.test(opt)) {
      runs.inner.push([literalWord("\u0000script"), v]);
      runs.raise(2, "gdb runs a command file");
      continue;
    }
    if (!/^-(ex|iex|-?eval-command|-?init-eval-command)$/.test(opt)) {
      kept.push(...(eq > 0 ? [w] : [w, v]));
      continue;
    }
    const t = v.text;
    const shell = /^\s*(?:shell\b|!)\s*(.*)$/s.exec(t)?.[1] ?? /^\s*(?:pipe\b|\|)[^|]*\|\s*(.*)$/s.exec(t)?.[1];
    if (shell !== undefined) runs.add({ ...v, text: shell }, 2, "gdb runs a shell command");
    else if (
      v.dynamic ||
      /^\s*(python|py|pi|python-interactive|guile|gu|guile-repl|gr|source|so|pipe|\||call|compile|expression|jit-reader-load|add-auto-load-safe-path|set\s+auto-load|target|attach)\b/.test(
        t,
      ) ||
      /^\s*(print|p|output|call)\b.*\(/.test(t)
    ) {
      runs.opaque.push(t);
      runs.raise(2, "gdb runs code, attaches or calls into the program");
    } else if (/^\s*(run|r|start|starti)\b/.test(t)) runsProgram = true;
    else kept.push(...(eq > 0 ? [w] : [w, v]));
  }
  // The program gdb runs is judged like a script at its path.
  const program = operands[0];
  if (runsProgram && program) {
    runs.inner.push([literalWord("\u0000script"), program]);
    runs.raise(0, "gdb runs the program it debugs");
  }
  return runs.result("delegate:gdb", [kept]);
}

const NODEMON_VALUES = new Set([
  "-w",
  "--watch",
  "-e",
  "--ext",
  "-i",
  "--ignore",
  "-d",
  "--delay",
  "-s",
  "--signal",
  "--config",
  "-x",
  "--exec",
]);

/** `nodemon -x CMD [script]` / `--exec CMD`: nodemon runs CMD (with the script appended) through a shell. */
function nodemon(args: Word[]): Unwrap | null {
  const { values, rest } = pullOptions(args, { longs: ["--exec"], shorts: "x" });
  if (values.length === 0) return null;
  const operands = rest.filter((w, i) => !w.text.startsWith("-") && !NODEMON_VALUES.has(rest[i - 1]?.text ?? ""));
  const runs = new Runs();
  for (const v of values) runs.add(v, 0, "nodemon runs a command on each change", operands.map((w) => shQuote(w.text)).join(" "));
  return runs.result("delegate:nodemon", [[literalWord("nodemon"), ...rest]]);
}

interface Runner {
  /** The subcommand that runs a command (`uv run`, `bundle exec`). */
  sub: string;
  /** Options (before and after the subcommand) that take a separate value. */
  values: readonly string[];
  floor: TierNumber;
  /** `hatch run env:cmd`: a prefix naming an environment, not part of the command. */
  envPrefix?: boolean;
}

const UV_VALUES = [
  "--with",
  "--with-editable",
  "--with-requirements",
  "--extra",
  "--group",
  "--only-group",
  "--no-group",
  "--package",
  "-p",
  "--python",
  "--env-file",
  "--directory",
  "--project",
  "--index",
  "--default-index",
  "-i",
  "--index-url",
  "--extra-index-url",
  "-f",
  "--find-links",
  "--index-strategy",
  "--keyring-provider",
  "--resolution",
  "--prerelease",
  "--exclude-newer",
  "--link-mode",
  "--cache-dir",
  "--config-file",
  "--color",
  "-P",
  "--upgrade-package",
  "--reinstall-package",
  "--refresh-package",
  "--no-build-package",
  "--no-binary-package",
  "-C",
  "--config-setting",
  "--python-platform",
  "--allow-insecure-host",
  "--no-extra",
];

/** Environment runners: they run their arguments as a command inside a project environment. */
const RUNNERS: Record<string, Runner> = {
  uv: { sub: "run", values: UV_VALUES, floor: 1 },
  poetry: { sub: "run", values: ["-C", "--directory", "-P", "--project"], floor: 1 },
  pipenv: { sub: "run", values: ["--python"], floor: 1 },
  pdm: { sub: "run", values: ["-p", "--project", "--venv"], floor: 1 },
  hatch: { sub: "run", values: ["-e", "--env"], floor: 1, envPrefix: true },
  rye: { sub: "run", values: ["--pyproject"], floor: 1 },
  bundle: { sub: "exec", values: ["--gemfile"], floor: 1 },
  conda: { sub: "run", values: ["-n", "--name", "-p", "--prefix", "--cwd"], floor: 2 },
  mamba: { sub: "run", values: ["-n", "--name", "-p", "--prefix", "--cwd"], floor: 2 },
  micromamba: { sub: "run", values: ["-n", "--name", "-p", "--prefix", "--cwd"], floor: 2 },
};

/** `uv run CMD …`, `poetry run …`, `bundle exec …`: the command is judged like any other. */
function runner(name: string, spec: Runner, args: Word[]): Unwrap | null {
  const values = new Set(spec.values);
  const at = firstOperand(args, values);
  if (args[at]?.text !== spec.sub) return null;
  const start = firstOperand(args, values, at + 1);
  const cmd = args.slice(start);
  if (cmd.length === 0) return null;
  const head = cmd[0] as Word;
  const program = spec.envPrefix && /^[\w.-]+:/.test(head.text) ? { ...head, text: head.text.replace(/^[\w.-]+:/, "") } : head;
  // `uv run script.py`: a Python file runs as a script.
  const argv =
    /\.py$/.test(program.text) && name !== "bundle" ? [literalWord("\u0000script"), program, ...cmd.slice(1)] : [program, ...cmd.slice(1)];
  return unwrap(`delegate:${name}-${spec.sub}`, spec.floor, `${name} ${spec.sub} runs a command in the project environment`, {
    inner: [argv],
  });
}

/** `bun x …` is bunx; `bun exec 'code'` runs code with Bun's shell. */
function bun(args: Word[]): Unwrap | null {
  const sub = args[0]?.text;
  if (sub === "x") return npx("bun-x", args.slice(1));
  if (sub !== "exec") return null;
  const code = args.slice(1);
  if (code.length === 0) return null;
  const runs = new Runs();
  runs.add(joinWords(code), 0, "bun exec runs shell code");
  return runs.result("delegate:bun-exec");
}

/** `rg --pre CMD`: ripgrep runs CMD on every file it searches (the path appended). */
function rg(args: Word[]): Unwrap | null {
  const { values, rest } = pullOptions(args, { longs: ["--pre"], not: ["--pre-glob"] });
  if (values.length === 0) return null;
  const runs = new Runs();
  for (const v of values) {
    if (v.text === "") continue;
    runs.inner.push([v, dynamicWord("$FILE")]);
    runs.raise(2, "ripgrep runs a preprocessor command on every file");
  }
  return runs.result("delegate:rg", [[literalWord("rg"), ...rest]]);
}

/** `sort --compress-program=PROG`: sort runs PROG (and `PROG -d`) to compress its temporary files. */
function sortCompress(args: Word[]): Unwrap | null {
  const { values, rest } = pullOptions(args, { longs: ["--compress-program"] });
  if (values.length === 0) return null;
  const runs = new Runs();
  for (const v of values) {
    if (v.text === "") continue;
    runs.inner.push([v], [v, literalWord("-d")]);
    runs.raise(2, "sort runs a compression program on its temporary files");
  }
  return runs.result("delegate:sort", [[literalWord("sort"), ...rest]]);
}

const FD_VALUES = new Set([
  "-e",
  "--extension",
  "-t",
  "--type",
  "-E",
  "--exclude",
  "-d",
  "--max-depth",
  "--min-depth",
  "--exact-depth",
  "-S",
  "--size",
  "--changed-within",
  "--changed-before",
  "-o",
  "--owner",
  "-j",
  "--threads",
  "--max-results",
  "--base-directory",
  "--path-separator",
  "--search-path",
  "-c",
  "--color",
  "--ignore-file",
  "--format",
  "--batch-size",
]);

/** `fd -x CMD …` / `-X` / `--exec` / `--exec-batch`: fd runs CMD per match (up to a `;`), with `{}` the match. */
function fd(args: Word[]): Unwrap | null {
  const inner: Word[][] = [];
  const kept: Word[] = [literalWord("fd")];
  for (let i = 0; i < args.length; i++) {
    const w = args[i] as Word;
    if (FD_VALUES.has(w.text)) {
      kept.push(w, ...args.slice(i + 1, i + 2));
      i++;
      continue;
    }
    if (!/^(-x|-X|--exec|--exec-batch)$/.test(w.text)) {
      kept.push(w);
      continue;
    }
    const cmd: Word[] = [];
    let j = i + 1;
    while (j < args.length && (args[j] as Word).text !== ";") cmd.push(args[j++] as Word);
    const hasSlot = cmd.some((c) => /\{[/.]*\}|\{\/\.\}/.test(c.text) || c.text.includes("{}"));
    // Each match is a path under the search root (the operand after the pattern, else the cwd), like find's `{}`.
    const root = (
      args.filter((a, k) => k < i && !a.text.startsWith("-") && !FD_VALUES.has(args[k - 1]?.text ?? ""))[1]?.text ?? "."
    ).replace(/\/+$/, "");
    const match: Word = { ...literalWord(`${root}/{}`), glob: true };
    const argv = cmd.map((c) =>
      /\{[^}\s]*\}/.test(c.text) ? { ...c, text: c.text.replace(/\{[^}\s]*\}/g, `${root}/{}`), glob: true } : c,
    );
    if (argv.length) inner.push(hasSlot ? argv : [...argv, match]);
    i = j;
  }
  if (inner.length === 0) return null;
  return unwrap("delegate:fd-exec", 2, "fd runs a command per match", { inner: [...inner, kept] });
}

/** Editors' start-up commands (`vim -c CMD`, `+CMD`, `--cmd CMD`, `-S script`): `!cmd` runs shell code, others run editor script. */
function editor(name: string, args: Word[]): Unwrap | null {
  const runs = new Runs();
  const kept: Word[] = [literalWord(name)];
  for (let i = 0; i < args.length; i++) {
    const w = args[i] as Word;
    let cmd: Word | undefined;
    if (w.text === "-c" || w.text === "--cmd") cmd = args[++i];
    else if (/^\+./.test(w.text)) cmd = { ...w, text: w.text.slice(1) };
    else if (w.text === "-S" || w.text === "-u" || w.text === "-i") {
      runs.opaque.push(args[++i]?.text ?? "");
      runs.raise(2, `${name} sources a script file`);
      continue;
    } else {
      kept.push(w);
      continue;
    }
    if (!cmd) break;
    const t = cmd.text.replace(/^\s*:+\s*/, "");
    // `+10`, `+/pattern`, `+set ft=x` open a file somewhere or set an option.
    if (!cmd.dynamic && /^(\d+|\/.*|\?.*|set?\s+[\w=,.+-]*|setl(ocal)?\s+[\w=,.+-]*|\$|syntax\s+\w+|colo(rscheme)?\s+\w+)$/.test(t))
      continue;
    const shell = /^(?:(?:r(?:ead)?|w(?:rite)?|\d*,?\d*)\s*)?!(.*)$/s.exec(t);
    if (shell) runs.add({ ...cmd, text: shell[1] ?? "" }, 2, `${name} runs a shell command on start-up`);
    else {
      runs.opaque.push(cmd.text);
      runs.raise(2, `${name} runs editor commands on start-up`);
    }
  }
  return runs.result(`delegate:${name}`, [kept]);
}

/** `less '+!cmd'`, `less '+|mcmd'`: less's initial commands run shell code. */
function less(name: string, args: Word[]): Unwrap | null {
  const runs = new Runs();
  const kept: Word[] = [literalWord(name)];
  for (const w of args) {
    const m = /^\+\+?(.*)$/s.exec(w.text);
    if (!m || (!/[!|#]/.test(m[1] ?? "") && !w.dynamic)) {
      kept.push(w);
      continue;
    }
    const shell = /!(.*)$/s.exec(m[1] ?? "")?.[1];
    if (shell !== undefined) runs.add({ ...w, text: shell }, 2, `${name} runs a shell command`);
    else {
      runs.opaque.push(w.text);
      runs.raise(2, `${name} pipes text into a command`);
    }
  }
  return runs.result(`delegate:${name}`, [kept]);
}

/** man's pager and browser: `-P CMD`/`--pager`, `-H[CMD]`/`--html[=CMD]` run CMD through a shell. */
function man(args: Word[]): Unwrap | null {
  const runs = new Runs();
  const pager = pullOptions(args, { longs: ["--pager"], shorts: "P" });
  const html = pullOptions(pager.rest, { longs: ["--html"], shorts: "H", optional: true });
  for (const v of [...pager.values, ...html.values]) runs.add(v, 2, "man runs a pager or browser command");
  return runs.result("delegate:man", [[literalWord("man"), ...html.rest]]);
}

/** zip's test command: `-TT CMD` / `--unzip-command CMD` runs CMD on the archive. */
function zip(args: Word[]): Unwrap | null {
  const runs = new Runs();
  const kept: Word[] = [literalWord("zip")];
  const archive = args.find((w) => !w.text.startsWith("-"));
  for (let i = 0; i < args.length; i++) {
    const w = args[i] as Word;
    const m = /^(?:-TT|--unzip-command|--unzip-co|--unzip-com)(?:=(.*))?$/s.exec(w.text) ?? /^-TT(.+)$/s.exec(w.text);
    if (!m) {
      kept.push(w);
      continue;
    }
    const v = m[1] !== undefined ? { ...w, text: m[1] } : args[++i];
    if (!v) continue;
    const withArchive = v.text.includes("{}") ? { ...v, text: v.text.replaceAll("{}", shQuote(archive?.text ?? "")) } : v;
    runs.add(withArchive, 2, "zip runs a command to test the archive", v.text.includes("{}") ? "" : shQuote(archive?.text ?? ""));
  }
  return runs.result("delegate:zip", [kept]);
}

/** `split --filter=CMD`: each piece is written through CMD (a shell command, $FILE set). */
function split(args: Word[]): Unwrap | null {
  const { values, rest } = pullOptions(args, { longs: ["--filter"] });
  if (values.length === 0) return null;
  const runs = new Runs();
  for (const v of values) runs.add(v, 2, "split pipes each piece through a shell command");
  return runs.result("delegate:split", [[literalWord("split"), ...rest]]);
}

/** Perl rename: its first operand (and -e values) is a Perl expression run per file. */
function rename(name: string, args: Word[]): Unwrap | null {
  const exprs: Word[] = [];
  let i = 0;
  for (; i < args.length; i++) {
    const t = (args[i] as Word).text;
    if (t === "-e" || t === "-E") {
      if (args[i + 1]) exprs.push(args[++i] as Word);
      continue;
    }
    if (t === "--") {
      i++;
      break;
    }
    if (!t.startsWith("-")) break;
  }
  if (exprs.length === 0 && args[i]) exprs.push(args[i] as Word);
  // A plain s/// or y/// substitution only renames; anything else is Perl code.
  const plain = (w: Word) => {
    const m = /^\s*(?:s|y|tr)([^\w\s])/.exec(w.text);
    if (w.dynamic || !m) return false;
    const d = (m[1] as string).replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
    return (
      !/[`;{}]|\b(system|exec|qx|open|unlink|eval|require|do|readpipe)\b|[$@]\{/.test(w.text) &&
      !new RegExp(`${d}[a-z]*e[a-z]*\\s*$`).test(w.text)
    );
  };
  const code = exprs.filter((w) => !plain(w) && (!/^[\w.*?-]+$/.test(w.text) || w.dynamic));
  if (code.length === 0) return null;
  return unwrap(`delegate:${name}`, 2, `${name} runs a Perl expression per file`, {
    opaque: code.map((w) => w.text),
    inner: [[literalWord(name), ...args.filter((w) => !code.includes(w))]],
  });
}

/** pnpm's shell mode (`pnpm -c exec 'CMD'`, `pnpm exec --shell-mode CMD`): the command line runs through a shell. */
function pnpm(args: Word[]): Unwrap | null {
  const at = firstOperand(args, new Set(["-C", "--dir", "--filter", "-F", "--workspace-dir", "--reporter", "--loglevel"]));
  const sub = args[at]?.text;
  if (sub === "dlx") return npx("pnpm-dlx", args.slice(at + 1));
  if (sub !== "exec") return null;
  const after = args.slice(at + 1);
  const shellMode = [...args.slice(0, at), ...after].some((w) => w.text === "-c" || w.text === "--shell-mode");
  if (!shellMode) return npx("pnpm-exec", after);
  const cmd = after.filter((w) => w.text !== "-c" && w.text !== "--shell-mode");
  const runs = new Runs();
  if (cmd.length) runs.add(joinWords(cmd), 1, "pnpm runs a command line through a shell");
  else runs.raise(2, "pnpm exec without a command");
  return runs.result("delegate:pnpm-exec");
}

/** `helm … --post-renderer PATH`: helm runs PATH on the rendered manifests. */
function helm(args: Word[]): Unwrap | null {
  const { values, rest } = pullOptions(args, { longs: ["--post-renderer"], not: ["--post-renderer-args"] });
  if (values.length === 0) return null;
  const runs = new Runs();
  for (const v of values) {
    runs.inner.push([literalWord("\u0000script"), v]);
    runs.raise(2, "helm runs a post-renderer program");
  }
  return runs.result("delegate:helm", [[literalWord("helm"), ...rest]]);
}

/** `kustomize build --enable-exec` / `--enable-alpha-plugins`: the kustomization's exec plugins run. */
function kustomize(name: string, args: Word[]): Unwrap | null {
  const on = (w: Word) => /^--(enable-exec|enable-alpha-plugins|enable-star|enable-helm)(=true)?$/.test(w.text);
  if (!args.some(on)) return null;
  return unwrap(`delegate:${name}`, 2, `${name} runs plugins or programs named in the kustomization`, {
    inner: [[literalWord(name), ...args.filter((w) => !on(w))]],
  });
}

/** A delegating command's unwrapping, or null when `name args` delegates nothing. */
export function delegate(name: string, args: Word[], stdin: StdinSource | null = null): Unwrap | null {
  const sub = args[0]?.text ?? "";
  switch (name) {
    case "find":
      return find(args);
    case "xargs":
      return xargs(args, stdin);
    case "parallel":
      return parallel(args);
    case "watch":
      return watch(args);
    case "ssh":
      return ssh(args);
    case "incus":
    case "lxc":
      return sub === "exec" ? dashExec(name, args.slice(1)) : null;
    case "npx":
    case "bunx":
      return npx(name, args);
    case "pnpm":
      return pnpm(args);
    case "yarn":
      return sub === "dlx" ? npx(`${name}-dlx`, args.slice(1)) : sub === "exec" ? npx(`${name}-exec`, args.slice(1)) : null;
    case "npm":
      return sub === "exec" || sub === "x" ? npx("npm-exec", args.slice(1)) : null;
    case "docker-compose":
      return compose(sub, args.slice(1));
    case "git":
      return git(args);
    case "tar":
    case "gtar":
      return tar(args);
    case "make":
    case "gmake":
      return make(name, args);
    case "cmake":
      return cmake(args);
    case "gdb":
      return gdb(args);
    case "nodemon":
      return nodemon(args);
    case "bun":
      return bun(args);
    case "rg":
      return rg(args);
    case "sort":
      return sortCompress(args);
    case "fd":
    case "fdfind":
      return fd(args);
    case "vim":
    case "vi":
    case "nvim":
    case "view":
    case "gvim":
    case "vimdiff":
    case "ex":
      return editor(name, args);
    case "less":
    case "more":
      return less(name, args);
    case "man":
      return man(args);
    case "zip":
      return zip(args);
    case "split":
      return split(args);
    case "rename":
    case "prename":
    case "file-rename":
    case "perl-rename":
      return rename(name, args);
    case "helm":
      return helm(args);
    case "kustomize":
      return kustomize(name, args);
    case "kubectl":
      return sub === "exec" ? kubectlExec(args.slice(1)) : sub === "kustomize" ? kustomize("kubectl", args) : null;
    case "uv":
    case "poetry":
    case "pipenv":
    case "pdm":
    case "hatch":
    case "rye":
    case "bundle":
    case "conda":
    case "mamba":
    case "micromamba":
      return runner(name, RUNNERS[name] as Runner, args);
    case "docker":
    case "podman":
    case "nerdctl": {
      if (sub === "run" || sub === "exec") return container(sub, name, args.slice(1));
      if (sub === "container" && (args[1]?.text === "run" || args[1]?.text === "exec"))
        return container(args[1].text as "run" | "exec", name, args.slice(2));
      if (sub === "compose") {
        const at = firstOperand(args, COMPOSE_VALUES, 1);
        return compose(args[at]?.text ?? "", args.slice(at + 1));
      }
      return null;
    }
    default:
      return null;
  }
}
