// A file written in root's trees where no runs-later entry names the place
// (`/etc/foo/p`, `/opt/x/job`, a distribution's hook directory or a daemon's
// configuration the table lacks: review 47 found /etc/rc.d, /etc/periodic,
// tuned, lvm, autofs, kdump, rkhunter, mdev … each running root's code from
// a file committed at tier 3 as "a system path"), or staged there to be
// linked, included or run from a judged place. Its format is unknown, so a
// sh script is judged whole as root's later code and any other text only for
// what is code in every format: `$(…)`, `sh -c '…'`, strings handed to
// system()/popen()/os.execute(), a pipe into a shell, a listener handing out
// a shell, a program or module in scratch space, loader variables, package
// signatures or NFS root squashing turned off. Only a tier 4 counts: the
// place's own tier (3) stands, and what is unknown is not refused, for the
// file is not known to run. Backquotes are read under /etc only: prose
// quotes commands in them (a README's `make install`).
import { posix } from "node:path";
import { type ContentJudge, type Mark, mark } from "./runs-later-content.js";

/** Root's trees, less scratch space and the places users write inside them. */
const ROOT_TREE = /^\/(?:etc|usr|var|opt|srv|boot|efi|bin|sbin|lib|lib32|lib64|libx32|run|snap|root)\//;
const USERS_INSIDE = /^\/(?:var\/tmp|var\/crash|var\/mail|run\/user|run\/lock|var\/lock)(?:\/|$)/;
/** Trees of documentation, media, logs, caches and mail: never configuration or a script root runs. */
const NOT_CONFIG_TREE =
  /^\/(?:usr\/(?:local\/)?share\/(?:doc|man|info|locale|icons|fonts|zoneinfo|mime|help|gtk-doc|pixmaps|backgrounds|sounds|themes|wallpapers)\/|var\/(?:log|cache|backups|mail|spool\/(?:postfix|exim4|mail))\/|root\/\.(?:cache|npm|cargo\/registry|rustup|m2\/repository|gradle\/caches)\/)/;
/** Documents, media, archives, keys and other languages' sources (read by their own runtimes, not as configuration). */
const NOT_CONFIG_NAME =
  /\.(?:js|mjs|cjs|ts|tsx|jsx|map|css|scss|less|html?|xhtml|md|markdown|rst|adoc|txt|py|pyc|pyi|rb|pl|pm|go|rs|c|h|cc|cpp|hpp|java|kt|scala|class|jar|war|php|lua|el|elc|vim|svg|png|jpe?g|gif|ico|webp|woff2?|ttf|otf|pdf|gz|xz|zst|bz2|zip|whl|egg|so(?:\.\d+)*|a|o|mo|po|pot|csv|tsv|log|sum|pem|crt|cer|der|key|lock)$/i;
/** A project's documents by name (README, LICENSE …): prose, unless made executable. */
const DOCUMENT = /^(?:README|LICEN[CS]E|COPYING|CHANGELOG|CHANGES|NEWS|AUTHORS|CONTRIBUTING|NOTICE|INSTALL|TODO)(?:[._-].*)?$/i;

/**
 * Whether a file written at `path` (no runs-later entry there) is read here for code. An executable or a `#!` file is
 * read whatever its name or tree, and directly in / (review 49: `job.txt` or a script in /var/log, run later by a
 * cron line naming it, was never read).
 */
export function unlistedPlace(path: string, mode: number, content?: Buffer): boolean {
  const script = (mode & 0o111) !== 0 || content?.subarray(0, 2).toString("latin1") === "#!";
  if (script && /^\/[^/]+$/.test(path)) return true;
  if (!ROOT_TREE.test(path) || USERS_INSIDE.test(path)) return false;
  if (script) return true;
  const name = posix.basename(path);
  return !NOT_CONFIG_TREE.test(path) && !NOT_CONFIG_NAME.test(name) && !DOCUMENT.test(name);
}

const SH = /^(?:sh|bash|rbash|dash|ash|ksh|mksh|posh|yash|busybox)$/;
/** Programs a `#!` line may run its interpreter through (`#!/usr/bin/nice sh`, `#!/usr/bin/env -S setsid sh`). */
const SHEBANG_WRAPPER = /^(?:env|nice|setsid|nohup|ionice|chrt|taskset|timeout|stdbuf|unshare|flock|runuser)$/;

/**
 * The shebang's program, looking through env and the wrappers that run their operand (review 49: `#!/usr/bin/nice sh`
 * was taken for a nice program, not sh), or null when there is none. Options, NAME=VALUE and numbers are skipped.
 */
function shebang(text: string): string | null {
  if (!text.startsWith("#!")) return null;
  const words = (text.slice(2).split("\n")[0] ?? "").trim().split(/\s+/).filter(Boolean);
  const skip = (w: string) => SHEBANG_WRAPPER.test(posix.basename(w)) || w.startsWith("-") || w.includes("=") || /^\d/.test(w);
  const named = words.find((w, i) => i === words.length - 1 || !skip(w));
  return posix.basename(named ?? "");
}

/** What in a file of unknown format at `path` is root's code, as tier-4 marks only. */
export function unlistedMarks(path: string, text: string, mode: number, j: ContentJudge): Mark[] {
  const interp = shebang(text);
  const sh = interp === null ? (mode & 0o111) !== 0 || path.endsWith(".sh") : SH.test(interp);
  const found = sh ? [j.code(text, `${interp ?? "sh"} script`)] : codeInText(text, j, path);
  found.push(...settingsOff(text));
  return found.filter((m) => m.tier === 4).map((m) => mark(4, `a file root's programs may read or run: ${m.text}`));
}

/** `$(…)`, `sh -c '…'`, shell-outs and listeners, each judged as root's later code; pipes into a shell; programs in scratch space. */
function codeInText(text: string, j: ContentJudge, path: string): Mark[] {
  const out: Mark[] = [];
  for (const [code, where] of substitutions(text)) out.push(j.code(code, `$(…) on line ${where}`));
  // Backquotes in /etc only, where a file is sourced as shell by a service (review 49: `X=\`wget …\``); elsewhere
  // prose quotes commands in them (a README's `make install`).
  if (path.startsWith("/etc/"))
    text.split("\n").forEach((line, i) => {
      if (!COMMENT.test(line)) for (const m of line.matchAll(/`([^`]+)`/g)) out.push(j.code(m[1] ?? "", `\`…\` on line ${i + 1}`));
    });
  for (const m of text.matchAll(SHELL_C)) out.push(j.code(unbackslash(m[2] ?? ""), `sh -c on line ${lineAt(text, m.index)}`));
  for (const m of text.matchAll(SHELL_OUT)) out.push(j.code(unbackslash(m[2] ?? ""), `a shell-out on line ${lineAt(text, m.index)}`));
  text.split("\n").forEach((line, i) => {
    if (COMMENT.test(line)) return;
    const piped = PIPED_INTO.exec(line);
    if (piped) out.push(mark(4, `line ${i + 1} pipes into ${piped[1]}: code root would run`));
    const listener = LISTENER.exec(line);
    if (listener) out.push(j.code(line.slice(listener.index + (listener[1]?.length ?? 0)), `line ${i + 1}`));
    for (const m of line.matchAll(SCRATCH_PATH)) {
      const path = m[2] as string;
      if (!SCRATCH_DATA.test(path) && namesProgram(line, m.index + (m[1]?.length ?? 0), path))
        out.push(mark(4, `line ${i + 1} names ${path}, in scratch space anyone may write, as a program or module`));
    }
  });
  return out;
}

const COMMENT = /^\s*(?:#|;|\/\/|$)/;
const unbackslash = (s: string): string => s.replace(/\\(["'\\])/g, "$1");
const lineAt = (text: string, index: number): number => text.slice(0, index).split("\n").length;

/** Each `$(…)` (not `$((…))` arithmetic) with its line; one left open runs to the end of the text. */
function substitutions(text: string): [string, number][] {
  const out: [string, number][] = [];
  for (let i = text.indexOf("$("); i !== -1; i = text.indexOf("$(", i + 2)) {
    if (text[i + 2] === "(") continue;
    let depth = 0;
    let end = text.length;
    for (let k = i + 1; k < text.length; k++) {
      const c = text[k];
      if (c === "\\") k++;
      else if (c === "(") depth++;
      else if (c === ")" && --depth === 0) {
        end = k;
        break;
      }
    }
    out.push([text.slice(i + 2, end), lineAt(text, i)]);
  }
  return out;
}

/** `sh -c 'ARG'`, any shell by any path, ARG quoted. */
const SHELL_C =
  /(?:^|[\s'"=:([{,;|&@!])(?:[^\s'"]*\/)?(?:sh|bash|dash|ash|ksh|mksh|zsh|busybox\s+sh)\s+(?:-[a-zA-Z]+\s+)*-[a-zA-Z]*c[a-zA-Z]*\s+(['"])((?:(?!\1)[^\\]|\\.)*)\1/g;
/** A string handed to a language's way of running a command (C's system, Lua's os.execute, Python's subprocess, PHP's, Ruby's, node's). */
const SHELL_OUT =
  /\b(?:system|popen|execute|exec|execl|execlp|execv|execvp|spawn|spawnSync|execSync|check_output|check_call|call|run|Popen|getoutput|getstatusoutput|shell_exec|passthru|proc_open|popen3|capture2e?)\s*\(\s*\[?\s*(['"])((?:(?!\1)[^\\]|\\.)*)\1/g;
/** A pipe into a shell or an interpreter (`… | sh`, `| sudo bash`, `| busybox sh`). */
const PIPED_INTO =
  /\|\s*(?:(?:sudo|exec|env|command|nohup|busybox)\s+)*(?:[^\s|'"]*\/)?(sh|bash|dash|ash|ksh|mksh|zsh|fish|python[0-9.]*|perl|ruby|node|nodejs|php[0-9.]*|lua[0-9.]*|tclsh|pwsh|source)(?=[\s;&|)'"`]|$)/;
/** netcat's or socat's command on a line: judged as a command (a listener handing out a shell is refused there). */
const LISTENER = /(^|[\s;&|'"=:@!]|^[^\s]*\/)(?:nc|ncat|netcat|nc\.traditional|nc\.openbsd|socat)\s/;

/** A path in scratch space (or a user's runtime directory, or crash dumps). */
const SCRATCH_PATH = /(^|[\s=:'"`(,;|&@![{])((?:\/tmp|\/var\/tmp|\/dev\/shm|\/run\/user|\/var\/crash)\/[^\s'"`;|&)<>,\]}]+)/g;
/** What services keep in scratch space as data: sockets, pid and lock files, logs, dumps, databases. */
const SCRATCH_DATA = /\.(?:sock|socket|pid|lock|lck|log|err|out|tmp|txt|json|db|sqlite3?|csv|dump)$|\/\.(?:X11|ICE)-unix(?:\/|$)/;
/** A key's words that make its value a program, a script, a hook or a module (`thin_check_executable`, `kdump_pre`, `post-build-hook`). */
const PROGRAM_WORD =
  /^(?:exec\w*|cmd\w*|command\w*|program\w*|prog|script\w*|hooks?|helpers?|binary|bin|modules?|plugins?|librar\w*|lib|preload|callouts?|mailer|viewer|pager|editor|shell|interpreter|handlers?|actions?|notify\w*|check\w*|run|start|stop|up|down|updown|pre|post|event|filters?|wrappers?|tools?|agent|providers?|so|(?!prefix|prefer|preset|present|postfix|postgres|postmaster|posix)(?:pre|post)[a-z]+)$/;

/** The words of a key: split at punctuation and where camelCase turns, lower-cased. */
function keyWords(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/**
 * A scratch path at `at` on `line` names a program: it is the line's first word, the value of a key whose words name a
 * program (the nearest key before it, or the line's first), after `program:`, `exec:`, `system:`, `@`, `|` or `!`, or
 * a shared object.
 */
function namesProgram(line: string, at: number, path: string): boolean {
  if (/\.so(?:\.\d+)*$/.test(path)) return true;
  const before = line.slice(0, at);
  if (/^\s*['"]?$/.test(before) || /(?:program|exec|system):\/?$|[@|!]$/.test(before.trimEnd())) return true;
  const nearest = /([A-Za-z_][\w.-]*)['"]?\s*(?:=|:|\s)\s*[\s"'[(]*$/.exec(before)?.[1] ?? "";
  const first = /^\s*[{"'[]*([A-Za-z_][\w.-]*)/.exec(line)?.[1] ?? "";
  return [nearest, first].some((k) => keyWords(k).some((w) => PROGRAM_WORD.test(w)));
}

/** A loader or start-up variable set, in any file a unit, a service's script or a login may load as its environment. */
const LOADER_SET =
  /^\s*(?:export\s+|env\s+)?["']?(LD_PRELOAD|LD_AUDIT|BASH_ENV|PYTHONSTARTUP|PERL5OPT|PERL5DB|RUBYOPT)["']?\s*[=:]\s*["']?[^\s"']/;
/** Package signatures off (yum, dnf, zypper, pacman, apt's trusted=yes), NFS's root squashing off, an rpm macro running Lua. */
const TRUST_OFF =
  /^\s*(?:(?:repo_|localpkg_|pkg_)?gpgcheck\s*=\s*["']?(?:0|false|no|off)\b|SigLevel\s*=.*\bNever\b|.*\btrusted\s*=\s*["']?yes\b|.*\bno_root_squash\b|.*%\{lua:)/i;

/** Lines that set a loader or start-up variable (also read in a unit's environment file on the host, host-references.ts). */
export function loaderSettings(text: string): Mark[] {
  return settingLines(text).flatMap(([line, n]) => {
    const loader = LOADER_SET.exec(line);
    return loader ? [mark(4, `line ${n} sets ${loader[1]}, which chooses code root's programs load`)] : [];
  });
}

/** Settings that hand root's later runs to others whatever the format: loader variables, signatures or root squashing off. */
function settingsOff(text: string): Mark[] {
  const off = settingLines(text).filter(([line]) => TRUST_OFF.test(line));
  return [
    ...loaderSettings(text),
    ...off.map(([line, n]) => mark(4, `line ${n} turns a signature check or NFS root squashing off (${line.trim().slice(0, 60)})`)),
  ];
}

/** The lines that are not comments, with their numbers. */
function settingLines(text: string): [string, number][] {
  return text
    .split("\n")
    .map((line, i): [string, number] => [line, i + 1])
    .filter(([line]) => !/^\s*(?:#|;|\/\/)/.test(line));
}
