// Wrappers that run another program: strip them to find the program that
// really runs (sudo, env, nice, timeout, xargs …). Some wrappers change how
// the command runs in ways the judge cannot follow (chroot, nsenter, an
// interactive root shell): those are findings of their own.
import type { Word } from "./lex.js";
import { type Finding, finding } from "./types.js";

/** Wrapper → its options that take a value. */
const WRAPPERS: Record<string, readonly string[]> = {
  sudo: [
    "-u",
    "--user",
    "-g",
    "--group",
    "-C",
    "--close-from",
    "-D",
    "--chdir",
    "-h",
    "--host",
    "-p",
    "--prompt",
    "-r",
    "--role",
    "-t",
    "--type",
    "-U",
    "--other-user",
    "-T",
    "--command-timeout",
  ],
  doas: ["-u", "-C"],
  env: ["-u", "--unset", "-C", "--chdir", "-S", "--split-string", "-P"],
  nice: ["-n", "--adjustment"],
  ionice: ["-c", "--class", "-n", "--classdata", "-p", "-P", "-u"],
  timeout: ["-s", "--signal", "-k", "--kill-after"],
  nohup: [],
  stdbuf: ["-i", "-o", "-e", "--input", "--output", "--error"],
  setsid: [],
  command: [],
  builtin: [],
  exec: ["-a"],
  time: ["-f", "--format", "-o", "--output"],
  chrt: [],
  taskset: [],
  unbuffer: [],
  flock: ["-w", "--timeout", "-E", "--conflict-exit-code"],
  runuser: ["-u", "--user", "-g", "--group", "-G", "--supp-group"],
  xargs: [
    "-n",
    "--max-args",
    "-L",
    "--max-lines",
    "-P",
    "--max-procs",
    "-I",
    "--replace",
    "-d",
    "--delimiter",
    "-E",
    "--eof",
    "-s",
    "--max-chars",
    "-a",
    "--arg-file",
  ],
  watch: ["-n", "--interval", "-d", "--differences"],
};

/** Environment variables that change which code a program loads or runs. */
export const LOADER_ENV =
  /^(LD_PRELOAD|LD_LIBRARY_PATH|LD_AUDIT|BASH_ENV|ENV|PROMPT_COMMAND|PATH|IFS|SHELLOPTS|BASHOPTS|NODE_OPTIONS|PYTHONPATH|PYTHONSTARTUP|PERL5OPT|PERL5LIB|RUBYOPT|GCONV_PATH|GIT_SSH_COMMAND|GIT_EXEC_PATH)=/;

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

export interface Unwrapped {
  words: Word[];
  /** The user the command runs as, when a wrapper changed it. */
  runAs?: string;
  /** A command string to judge in full (watch, env -S, flock -c, su -c). */
  script?: string;
  /** The wrapped program gets more arguments at run time (xargs). */
  extraDynamic: boolean;
  /** A finding the wrapping itself causes. */
  finding?: Finding;
  /** Names of the wrappers stripped, outermost first. */
  wrappers: string[];
}

function base(text: string): string {
  return text.slice(text.lastIndexOf("/") + 1);
}

/** Skips a wrapper's options (and any NAME=value for env); returns the index of the wrapped program. */
function skipOptions(words: Word[], from: number, valued: readonly string[], name: string, out: Unwrapped): number {
  let i = from;
  while (i < words.length) {
    const t = words[i]?.text ?? "";
    if (t === "--") return i + 1;
    if ((name === "env" || name === "sudo" || name === "doas") && ASSIGNMENT.test(t)) {
      if (LOADER_ENV.test(t)) out.finding = finding(4, `sets ${t.split("=")[0]}, which changes what code runs`);
      i++;
      continue;
    }
    if (!t.startsWith("-") || t === "-") break;
    const flag = t.includes("=") ? t.slice(0, t.indexOf("=")) : t;
    const takesValue = valued.includes(flag) && !t.includes("=");
    const value = takesValue ? words[i + 1]?.text : t.includes("=") ? t.slice(t.indexOf("=") + 1) : undefined;
    if ((name === "sudo" || name === "runuser" || name === "doas") && (flag === "-u" || flag === "--user")) out.runAs = value;
    if ((name === "sudo" || name === "doas") && ["-i", "-s", "--login", "--shell", "-e", "--edit"].includes(flag)) {
      out.finding = finding(4, `${name} ${flag} opens a root shell or editor whose effects are not visible`);
    }
    if (name === "env" && (flag === "-S" || flag === "--split-string")) out.script = value;
    if (name === "flock" && (flag === "-c" || flag === "--command")) out.script = words[i + 1]?.text;
    i += takesValue ? 2 : 1;
  }
  return i;
}

export function unwrap(input: Word[]): Unwrapped {
  const out: Unwrapped = { words: input, extraDynamic: false, wrappers: [] };
  let words = input;
  for (let guard = 0; guard < 16 && words.length > 0; guard++) {
    const name = base(words[0]?.text ?? "");
    if (
      name === "chroot" ||
      name === "nsenter" ||
      name === "unshare" ||
      name === "systemd-run" ||
      name === "machinectl" ||
      name === "pkexec"
    ) {
      out.finding = finding(4, `${name} runs a command in another root or namespace, where its effects cannot be judged`);
      break;
    }
    if (name === "su") {
      const c = words.findIndex((w) => w.text === "-c" || w.text === "--command");
      out.wrappers.push(name);
      if (c < 0) out.finding = finding(4, "su opens a shell whose effects are not visible");
      else out.script = words[c + 1]?.text;
      words = [];
      break;
    }
    // A wrapper is the system's program of that name: `/srv/x/nice` is whatever that file is (review 49).
    const systemName = !(words[0]?.text ?? "").includes("/") || /^\/(usr\/)?(local\/)?s?bin\/[^/]+$/.test(words[0]?.text ?? "");
    const valued = Object.hasOwn(WRAPPERS, name) && systemName ? WRAPPERS[name] : undefined;
    if (!valued || words[0]?.dynamic) break;
    out.wrappers.push(name);
    if (name === "command" && words.slice(1).some((w) => w.text === "-v" || w.text === "-V")) {
      words = [];
      break;
    }
    let i = skipOptions(words, 1, valued, name, out);
    if (name === "timeout" || name === "chrt" || name === "taskset") i++; // the duration, priority or mask
    if (name === "flock" && out.script === undefined) {
      i++; // the lock file
      const t = words[i]?.text;
      if (t === "-c" || t === "--command") {
        out.script = words[i + 1]?.text;
        words = [];
        break;
      }
    }
    if (name === "flock" && out.script !== undefined) {
      words = [];
      break;
    }
    if (name === "watch") {
      // watch hands its words, joined, to sh -c: judge that text, and the words as a command too.
      out.script = words
        .slice(i)
        .map((w) => w.text)
        .join(" ");
    }
    if (name === "xargs") out.extraDynamic = true;
    words = words.slice(i);
  }
  out.words = words;
  return out;
}
