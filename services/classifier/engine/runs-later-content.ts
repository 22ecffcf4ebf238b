// Reading the content of a file that runs later as the commands it will run:
// cron lines, systemd Exec*= values, rc files and their aliases, APT hooks,
// logrotate scripts, udev RUN/PROGRAM, modprobe install/remove, SSH command=
// options, loader paths. Each command found is judged by the engine as shell
// code run as root; what a format names (an interpreter, a library directory,
// a variable like LD_PRELOAD) must come from a place only root can change.
// Pure: text in, findings out. It errs towards reading data as code.
import { posix } from "node:path";
import type { TierNumber } from "../../shared/tier.js";
import { rootOwnedPlace } from "./runs-later.js";
import type { Format } from "./runs-later.js";
import { riskyAssignment } from "./wrappers.js";
import type { Mode } from "./targets.js";

export interface Mark {
  tier: TierNumber;
  text: string;
}

export interface ContentJudge {
  /** Shell code as root runs it later, judged by the engine; `label` names where it was found. */
  code(text: string, label: string): Mark;
  /** A danger veto anywhere in text that is not read as shell. */
  veto(text: string, label: string): Mark | null;
  /** What root does to `path` later (tmpfiles.d at boot): judged like the same change in a diff, a file's content unknown. */
  later(mode: Mode, path: string, file: boolean): Mark[];
}

export type Reader = (text: string, j: ContentJudge) => Mark[];

export const mark = (tier: TierNumber, text: string): Mark => ({ tier, text });
export const lines = (text: string): string[] => text.split("\n").map((l) => l.replace(/\r$/, ""));
export const comment = (line: string): boolean => /^\s*(#|$)/.test(line);

/** Lines ending in a backslash continue on the next (systemd, udev, modprobe). */
export function joined(text: string): string[] {
  return text
    .replace(/\\\r?\n/g, " ")
    .split("\n")
    .map((l) => l.replace(/\r$/, ""));
}

const SHELLS = new Set(["sh", "bash", "dash", "ash", "ksh", "mksh", "zsh"]);

/** A program file: its shebang names what reads it; shell text is judged as code, other languages by the vetoes. */
function script(text: string, j: ContentJudge): Mark[] {
  if (!text.startsWith("#!")) return [j.code(text, "script (no shebang: run by sh)")];
  const words = (text.slice(2).split("\n")[0] ?? "").trim().split(/\s+/);
  const interp = words[0] ?? "";
  if (!rootOwnedPlace(interp)) return [mark(4, `its interpreter ${interp || "(none)"} is not in a place only root can change`)];
  let name = posix.basename(interp);
  if (name === "env") name = posix.basename(words.slice(1).find((w) => !w.startsWith("-") && !w.includes("=")) ?? "");
  if (SHELLS.has(name)) return [j.code(text, `${name} script`)];
  const floor = mark(2, `a ${name || "unknown"} program: its text is not read as shell`);
  const hit = j.veto(text, `${name} program`);
  return hit ? [floor, hit] : [floor];
}

/** Shell start-up files: the whole text as code, and every alias body as the code it runs later. */
function rc(text: string, j: ContentJudge): Mark[] {
  return [j.code(text, "content"), ...aliases(text).map(([name, body]) => j.code(body, `alias ${name}`))];
}

/** `alias NAME=VALUE …` anywhere in shell text (after `;`, `&&`, in a block …), quotes removed. */
export function aliases(text: string): [string, string][] {
  const out: [string, string][] = [];
  for (const m of text.matchAll(/(?:^|[\s;&|({`])alias\s+/g)) {
    for (const w of shellWords(text, (m.index ?? 0) + m[0].length)) {
      const eq = w.indexOf("=");
      if (eq > 0 && !w.startsWith("-")) out.push([w.slice(0, eq), w.slice(eq + 1)]);
    }
  }
  return out;
}

/** Words of one shell command from `start`: quotes and backslashes removed; stops at an unquoted `;&|)` or newline. */
export function shellWords(text: string, start = 0): string[] {
  const out: string[] = [];
  let word: string | null = null;
  for (let i = start; i < text.length; i++) {
    const c = text[i] as string;
    if (c === "'") {
      const end = text.indexOf("'", i + 1);
      word = (word ?? "") + text.slice(i + 1, end < 0 ? undefined : end);
      i = end < 0 ? text.length : end;
    } else if (c === '"') {
      let k = i + 1;
      let s = "";
      for (; k < text.length && text[k] !== '"'; k++) s += text[k] === "\\" && /["\\$`]/.test(text[k + 1] ?? "") ? text[++k] : text[k];
      word = (word ?? "") + s;
      i = k;
    } else if (c === "\\") {
      word = (word ?? "") + (text[i + 1] === "\n" ? "" : (text[i + 1] ?? ""));
      i++;
    } else if (/[;&|)\n]/.test(c)) {
      break;
    } else if (/\s/.test(c)) {
      if (word !== null) out.push(word);
      word = null;
    } else {
      word = (word ?? "") + c;
    }
  }
  if (word !== null) out.push(word);
  return out;
}

// Variables whose value is a command something runs.
const COMMAND_VARS = new Set([
  "PROMPT_COMMAND",
  "PAGER",
  "EDITOR",
  "VISUAL",
  "MANPAGER",
  "GIT_PAGER",
  "GIT_EDITOR",
  "GIT_SSH_COMMAND",
  "GIT_SSH",
  "LESSOPEN",
  "LESSCLOSE",
  "BROWSER",
  "SSH_ASKPASS",
  "SUDO_ASKPASS",
  "GIT_ASKPASS",
  "GIT_EXTERNAL_DIFF",
  "GIT_PROXY_COMMAND",
]);
// Variables that are lists of places code is loaded from: every entry must be a place only root changes.
const PLACE_LIST =
  /^(PATH|LD_[A-Z_]+|BASH_ENV|ENV|PYTHONPATH|PYTHONHOME|PYTHONSTARTUP|NODE_PATH|PERL5LIB|GIT_EXEC_PATH|OPENSSL_CONF|APT_CONFIG)$/;

/** A variable set for what runs later: risky names are judged by the places and code they name. */
export function variable(name: string, value: string, j: ContentJudge, where: string): Mark[] {
  if (!riskyAssignment(name)) return [];
  const out: Mark[] = [mark(3, `${where} sets ${name} for what runs later`)];
  if (PLACE_LIST.test(name)) {
    for (const entry of value.split(/[:\s]+/).filter(Boolean)) {
      if (name === "PATH" && /^\$\{?PATH\}?$/.test(entry)) continue;
      if (!rootOwnedPlace(entry)) out.push(mark(4, `${where} sets ${name} to include ${entry}, not a place only root can change`));
    }
  } else {
    for (const token of value.split(/[\s:=,;'"]+/).filter((t) => t.startsWith("/"))) {
      if (!rootOwnedPlace(token)) out.push(mark(4, `${where} sets ${name} naming ${token}, not a place only root can change`));
    }
  }
  if (COMMAND_VARS.has(name)) out.push(j.code(value.replace(/^\s*\|+/, ""), `${where} ${name}`));
  return out;
}

export const unquote = (v: string): string => v.trim().replace(/^"(.*)"$|^'(.*)'$/s, "$1$2");
const ENV_LINE = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/;

/**
 * Names that, set for every session, choose code, configuration, trust or a
 * route for what root runs (VIMINIT, OPENSSL_CONF, SSL_CERT_FILE,
 * https_proxy, DOTNET_STARTUP_HOOKS, PIP_INDEX_URL, MANPAGER, JAVA_HOME …):
 * refused in the session environment files, whatever their value. PATH and
 * the loader's variables are judged by where they point (`variable`).
 */
export const SESSION_RISKY =
  /(INIT|CONF|CONFIG|RC|PROXY|CERT|_CA|CA_|TLS|SSL|HOOK|EDITOR|PAGER|BROWSER|INDEX|TRUSTED|REGISTRY|HOME|OPT|OPTS|OPTIONS|FLAGS|WRAPPER|PRELOAD|LIBRARY|ALIASES|DB|KEY|SSH|DIFF|SHELL|ENV|STARTUP|PLUGIN|DIR|FILE|_URL|GCONV|LOCPATH|NLSPATH)/i;

function environment(text: string, j: ContentJudge): Mark[] {
  const out: Mark[] = [j.code(text, "content")];
  for (const line of lines(text)) {
    const m = ENV_LINE.exec(line);
    if (!m || comment(line)) continue;
    const name = m[1] as string;
    out.push(...variable(name, unquote(m[2] as string), j, "a line"));
    if (name !== "PATH" && SESSION_RISKY.test(name))
      out.push(mark(4, `a line sets ${name} for every session: it chooses code, configuration, trust or a route for what root runs`));
  }
  return out;
}

/** cron's command field: an unescaped % ends the command and the rest is its stdin — judged as code too. */
const cronCommand = (c: string): string => c.replace(/\\%|%/g, (m) => (m === "%" ? "\n" : "%"));
const FIELD = "[0-9A-Za-z*?,/#-]+";
const TIMES = `(?:@[a-z]+|(?:${FIELD}\\s+){4}${FIELD})`;
const SYSTEM_LINE = new RegExp(`^\\s*${TIMES}\\s+\\S+\\s+(.*)$`);
const USER_LINE = new RegExp(`^\\s*${TIMES}\\s+(.*)$`);
const ANACRON_LINE = /^\s*\S+\s+\S+\s+\S+\s+(.*)$/;
const CRON_SHELLS = /^\/(usr\/)?bin\/(sh|bash|dash)$/;

function cronTable(pattern: RegExp, what: string): Reader {
  return (text, j) => {
    const out: Mark[] = [];
    for (const line of lines(text)) {
      if (comment(line)) continue;
      const env = ENV_LINE.exec(line);
      if (env) {
        const [name, value] = [env[1] as string, unquote(env[2] as string)];
        if (name === "SHELL" && !CRON_SHELLS.test(value)) out.push(mark(4, `${what} runs its commands with ${value}`));
        out.push(...variable(name, value, j, what));
        continue;
      }
      const m = pattern.exec(line);
      if (!m) out.push(mark(2, `a line of ${what} the judge does not read: judged whole`));
      out.push(j.code(cronCommand(m ? (m[1] as string) : line), `${what} command`));
    }
    return out;
  };
}

/**
 * Unit settings that change what the unit's programs see, load or read:
 * another file bound over a program or library, another root, an image,
 * input from a file or inline text.
 */
export const UNIT_VIEW_KEYS =
  /^(Bind(ReadOnly)?Paths|RootDirectory|RootImage|RootImageOptions|RootHash|RootVerity|MountImages|ExtensionImages|ExtensionDirectories|TemporaryFileSystem|StandardInputText|StandardInputData)$/;

/** systemd units: Exec*= values with their -@:+! prefixes stripped; Environment= and EnvironmentFile= by what they name. */
function systemd(text: string, j: ContentJudge): Mark[] {
  const out: Mark[] = [];
  for (const line of joined(text)) {
    if (/^\s*([#;[]|$)/.test(line)) continue;
    const eq = line.indexOf("=");
    if (eq < 0) continue;
    const key = line.slice(0, eq).trim();
    const value = line.slice(eq + 1).trim();
    if (key === "ExecSearchPath") out.push(...variable("PATH", value, j, key));
    else if (UNIT_VIEW_KEYS.test(key) || (key === "StandardInput" && /^(file:|data)/.test(value)))
      out.push(mark(4, `${key}=: changes what the unit's programs see, load or read as input`));
    else if (/^Exec/.test(key) && key !== "ExecPaths") {
      const command = value.replace(/^[-@:+!]+/, "");
      if (command) out.push(j.code(command, key));
    } else if (key === "Environment") {
      for (const w of shellWords(value.replace(/[;&|)]/g, " "))) {
        const i = w.indexOf("=");
        if (i > 0) out.push(...variable(w.slice(0, i), w.slice(i + 1), j, key));
      }
    } else if (key === "EnvironmentFile") {
      const file = value.replace(/^-/, "");
      if (!rootOwnedPlace(file)) out.push(mark(4, `EnvironmentFile=${file}: not a place only root can change`));
    }
  }
  return out;
}

function logrotate(text: string, j: ContentJudge): Mark[] {
  const out: Mark[] = [];
  let script: { kind: string; body: string[] } | null = null;
  for (const line of lines(text)) {
    const t = line.trim();
    if (script) {
      if (t === "endscript") {
        out.push(j.code(script.body.join("\n"), `${script.kind} script`));
        script = null;
      } else script.body.push(line);
      continue;
    }
    const words = t.split(/\s+/);
    if (/^(prerotate|postrotate|firstaction|lastaction|preremove)$/.test(words[0] ?? "")) script = { kind: words[0] as string, body: [] };
    else if (words[0] === "create" && /^[0-7]{3,4}$/.test(words[1] ?? "") && Number.parseInt(words[1] as string, 8) & 0o022)
      out.push(mark(4, `create ${words[1]}: the rotated file is writable by others`));
    else if (/^(compresscmd|uncompresscmd|include)$/.test(words[0] ?? "") && words[1]?.includes("/") && !rootOwnedPlace(words[1])) {
      out.push(mark(4, `${words[0]} ${words[1]}: not a place only root can change`));
    }
  }
  if (script) out.push(j.code(script.body.join("\n"), `${script.kind} script without endscript`));
  return out;
}

function udev(text: string, j: ContentJudge): Mark[] {
  const out: Mark[] = [];
  for (const line of joined(text)) {
    if (comment(line)) continue;
    for (const m of line.matchAll(/\b(RUN|PROGRAM|IMPORT)(?:\{([^}]*)\})?\s*(?:\+=|:=|=)\s*"((?:[^"\\]|\\.)*)"/g)) {
      const [key, type, value] = [m[1] as string, m[2], m[3] as string];
      if (key === "RUN" && type === "builtin") continue;
      // IMPORT{file} reads KEY=value pairs (ENV, and through them RUN's environment) from any file.
      if (key === "IMPORT" && type === "file")
        out.push(mark(4, `IMPORT{file}="${value}": settings read from a file the judge does not see`));
      if (key === "IMPORT" && type !== "program") continue;
      out.push(j.code(value, `${key}${type ? `{${type}}` : ""}`));
    }
    // A group or owner given raw disks or memory can read and write every file.
    if (
      /\b(GROUP|OWNER)\s*:?=/.test(line) &&
      /\b(SUBSYSTEM|KERNEL)=="[^"]*(block|sd|nvme|vd|hd|xvd|mmcblk|dm-|md|loop|mem|kmem|port)/.test(line)
    )
      out.push(mark(4, "gives a group or user raw disks or memory"));
    // SYSCTL{key}= sets a kernel parameter when a device appears (kernel.core_pattern names a program).
    if (/\bSYSCTL\{/.test(line)) out.push(mark(4, "SYSCTL{…}: sets kernel parameters when a device appears"));
  }
  return out;
}

function modprobe(text: string, j: ContentJudge): Mark[] {
  const out: Mark[] = [];
  for (const line of joined(text)) {
    const m = /^\s*(install|remove)\s+\S+\s+(.*)$/.exec(line);
    if (m) out.push(j.code(m[2] as string, `modprobe ${m[1]}`));
  }
  return out;
}

function authorizedKeys(text: string, j: ContentJudge): Mark[] {
  const out: Mark[] = [];
  const unescaped = (s: string) => s.replace(/\\(.)/g, "$1");
  for (const line of lines(text)) {
    if (comment(line)) continue;
    for (const m of line.matchAll(/(?:^|,)\s*command="((?:[^"\\]|\\.)*)"/gi))
      out.push(j.code(unescaped(m[1] as string), "command= option"));
    for (const m of line.matchAll(/(?:^|,)\s*environment="((?:[^"\\]|\\.)*)"/gi)) {
      const v = unescaped(m[1] as string);
      const i = v.indexOf("=");
      if (i > 0) out.push(...variable(v.slice(0, i), v.slice(i + 1), j, "environment= option"));
    }
  }
  return out;
}

function ldSoConf(text: string): Mark[] {
  const out: Mark[] = [];
  for (const raw of lines(text)) {
    const line = raw.replace(/#.*$/, "").trim();
    if (!line) continue;
    const inc = /^include\s+(.*)$/.exec(line);
    for (const entry of inc ? (inc[1] as string).split(/\s+/) : [line]) {
      const place = inc && !entry.startsWith("/") ? posix.join("/etc", entry) : entry;
      const dir = place.replace(/\/[^/]*[*?[][^/]*$/, "");
      if (!rootOwnedPlace(dir))
        out.push(mark(4, `${inc ? "includes" : "loads libraries from"} ${entry}: not a place only root can change`));
    }
  }
  return out;
}

/** The readers of the formats named in runs-later.ts but for the system configuration ones (manifest-effects-configs.ts). */
export const CONTENT_READERS = {
  script,
  program: script,
  rc,
  environment,
  cron: cronTable(SYSTEM_LINE, "the crontab"),
  "user-crontab": cronTable(USER_LINE, "the crontab"),
  anacrontab: cronTable(ANACRON_LINE, "anacrontab"),
  systemd,
  logrotate,
  udev,
  modprobe,
  "authorized-keys": authorizedKeys,
  "ld-so-conf": ldSoConf,
} satisfies Partial<Record<Format, Reader>>;
