// Files in root's trees whose place no table here names: `/etc/foo/p`,
// `/opt/x/job`, a distribution's hook directory or a daemon's configuration
// the tables lack (review 47: /etc/rc.d, /etc/periodic, pacman's and dnf's
// hooks, tuned, lvm, autofs, kdump, rkhunter … each ran root code from a
// file committed as "a system path"), or a file staged to be linked,
// included or run from a place that is judged. Their format is unknown, so
// only what is code in any format is read out: `$(…)` substitutions,
// `sh -c` arguments, strings handed to system()/popen()/os.execute(),
// values piped into a shell, programs in scratch space, and settings that
// turn package signatures or NFS root squashing off. Each command is judged
// as root's later code (later.ts); the rest of the file is left as it is.
import { posix } from "node:path";
import { type Extracted, extracted, finding } from "./types.js";

/** Where the format of a file is never config or a script root runs: docs, media, logs, caches, other languages' sources. */
const NOT_CONFIG_TREE =
  /^\/(usr\/(local\/)?share\/(doc|man|info|locale|icons|fonts|zoneinfo|mime|help|gtk-doc|pixmaps|backgrounds|sounds|themes)\/|var\/(log|cache|backups|mail|spool\/(postfix|exim4|mail))\/|root\/\.(cache|npm|cargo\/registry|rustup|m2\/repository|gradle\/caches)\/)/;
const NOT_CONFIG_NAME =
  /\.(js|mjs|cjs|ts|tsx|jsx|map|css|scss|less|html?|xhtml|md|markdown|rst|adoc|txt|py|pyc|pyi|rb|pl|pm|go|rs|c|h|cc|cpp|hpp|java|kt|scala|class|jar|war|php|lua|el|elc|vim|svg|png|jpe?g|gif|ico|webp|woff2?|ttf|otf|pdf|gz|xz|zst|bz2|zip|whl|egg|so(\.\d+)*|a|o|mo|po|pot|csv|tsv|log|sum|pem|crt|cer|der|key|lock)$/;

/**
 * Whether `path` is read here: a text that root's programs may read as configuration or run. An executable or a
 * `#!` script is read wherever it is and whatever its name (review 49: `job.txt` with `#!/bin/sh`, a script in
 * /var/log, run from a cron line written before it).
 */
export function unlistedInScope(path: string, mode = 0, content?: Buffer): boolean {
  if ((mode & 0o111) !== 0 || content?.subarray(0, 2).toString("latin1") === "#!") return true;
  return !NOT_CONFIG_TREE.test(path) && !NOT_CONFIG_NAME.test(posix.basename(path));
}

/** A pipe into a shell or an interpreter: whatever comes before it is code root runs. */
const PIPED_TO_SHELL =
  /\|\s*(?:(?:sudo|exec|env|command|nohup|busybox)\s+)*(?:\S*\/)?(?:sh|bash|dash|zsh|ksh|mksh|ash|yash|fish|python[0-9.]*|perl|ruby|node|nodejs|php[0-9.]*|lua[0-9.]*|tclsh|osascript|pwsh|source)(?=[\s;&|)'"`]|$)/;
/** `sh -c ARG` (any shell, any path), with ARG quoted. */
const SHELL_C =
  /(?:^|[\s'"`=:([{,;|&])(?:\S*\/)?(?:sh|bash|dash|zsh|ksh|mksh|ash)\s+(?:-[a-z]*\s+)*-[a-z]*c[a-z]*\s+(['"])((?:(?!\1)[^\\]|\\.)*)\1/g;
/** A string handed to a language's shell-out (system, popen, os.execute, exec, spawn, subprocess.run …). */
const SHELL_OUT =
  /\b(?:system|popen|execute|exec|execl|execlp|execv|spawn|spawnSync|execSync|check_output|check_call|call|run|Popen|getoutput|getstatusoutput|shell_exec|passthru|proc_open|IO\.popen|Open3\.\w+)\s*\(\s*\[?\s*(['"])((?:(?!\1)[^\\]|\\.)*)\1/g;
/** A program or script named by path in scratch space (not a socket, pid, lock or log file there). */
const SCRATCH_PROGRAM = /(?:^|[\s=:'"`(,;|&@!])((?:\/tmp|\/var\/tmp|\/dev\/shm|\/run\/user|\/var\/crash)\/[^\s'"`;|&)<>,]+)/g;
const SCRATCH_DATA = /\.(sock|socket|pid|lock|lck|log|err|out|tmp|txt|json|db|sqlite3?|csv)$|\/\.X11-unix(\/|$)|\/\.ICE-unix(\/|$)/;
/** Signatures of packages turned off (yum/dnf/zypper, pacman, apt's trusted=yes), NFS's root squash off, an `%{lua:}` macro. */
/** A loader or start-up variable set in a file a unit, a service's script or a login may load as its environment. */
const LOADER_SET = /^\s*(?:export\s+)?(?:LD_PRELOAD|LD_AUDIT|BASH_ENV|PYTHONSTARTUP|PERL5OPT|PERL5DB|RUBYOPT)\s*=\s*\S/m;
const TRUST_OFF =
  /^\s*(?:(?:repo_|localpkg_|pkg_)?gpgcheck\s*=\s*(?:0|false|no|off)\b|SigLevel\s*=.*\bNever\b|.*\btrusted\s*=\s*yes\b|.*\bno_root_squash\b|.*%\{lua:)/im;

/** The end of a `$(…)` starting at `open` (the index of its `(`), counting nested parentheses; -1 when it does not close. */
function closing(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === "\\") i++;
    else if (c === "(") depth++;
    else if (c === ")" && --depth === 0) return i;
  }
  return -1;
}

function lineOf(text: string, index: number): number {
  let n = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < index; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

/** A line's value: the text after its first `=` or `:` (a key), without the quotes around it. */
function lineValue(line: string): string {
  const m = /^\s*[\w.\-[\]{}@/]+\s*(?:=|:|\s)\s*(.*)$/.exec(line);
  const v = (m?.[1] ?? line).trim();
  return /^(['"]).*\1$/.test(v) ? v.slice(1, -1) : v;
}

/** A key whose value is a program, script, module or hook (`thin_check_executable`, `kdump_pre`, `post-build-hook`, `plugin`). */
const PROGRAM_KEY =
  /exec|cmd|command|program|prog\b|script|hook|helper|binary|bin\b|module|plugin|librar|preload|callout|mailer|viewer|pager|editor|shell|interpreter|handler|action|notify|check|run|start|stop|\bup\b|\bdown\b|pre|post|event|filter|wrapper|tool|agent|provider|\.so\b/i;

/** A path in scratch space on `line` that names a program: the line's first word, a program-like key's value, a `program:`/`@`/`|`/`!` form, a shared object. */
function namesProgram(line: string, path: string, before: string): boolean {
  const key = /^\s*([^\s=:]+)/.exec(line)?.[1] ?? "";
  return (
    key === path || PROGRAM_KEY.test(key) || /(program|exec|system):\/?$|[@|!]\/?$/.test(before.trimEnd()) || /\.so(\.\d+)*$/.test(path)
  );
}

/** What in a file of unknown format is code in every format. */
export function unlistedCommands(text: string, path = ""): Extracted {
  const out = extracted();
  const at = (i: number) => `line ${lineOf(text, i)}`;
  for (let i = text.indexOf("$("); i !== -1; i = text.indexOf("$(", i + 2)) {
    if (text[i + 2] === "(") continue; // $(( … )) arithmetic
    const end = closing(text, i + 1);
    if (end === -1) out.findings.push(finding(4, `${at(i)}: a command substitution that does not close`));
    else out.commands.push({ text: text.slice(i + 2, end), where: `$(…) at ${at(i)}`, runAs: "", cwd: "/" });
  }
  // Backquotes are read in /etc only (review 49: `X=\`wget …\`` in a file a service sources): elsewhere prose quotes
  // commands in them (a README's `rm -rf build`); a sh file is judged whole.
  if (path.startsWith("/etc/"))
    for (const m of text.matchAll(/`([^`\n]+)`/g))
      out.commands.push({ text: m[1] ?? "", where: `\`…\` at ${at(m.index)}`, runAs: "", cwd: "/" });
  for (const m of text.matchAll(SHELL_C)) out.commands.push({ text: m[3] ?? "", where: `sh -c at ${at(m.index)}`, runAs: "", cwd: "/" });
  for (const m of text.matchAll(SHELL_OUT))
    out.commands.push({ text: m[2] ?? "", where: `a shell-out at ${at(m.index)}`, runAs: "", cwd: "/" });
  const lines = text.split("\n");
  lines.forEach((line, n) => {
    if (/^\s*[#;]/.test(line)) return;
    const piped = PIPED_TO_SHELL.exec(line);
    if (piped) out.findings.push(finding(4, `line ${n + 1}: pipes into ${piped[0].replace(/^\|\s*/, "").trim()}: code root would run`));
    // A listener handing out a shell (nc -e, socat EXEC:) is judged as the command it is.
    if (/(?:^|[\s;&|'"=])(?:\S*\/)?(?:nc|ncat|netcat|nc\.traditional|nc\.openbsd|socat)\s/.test(line))
      out.commands.push({ text: lineValue(line), where: `line ${n + 1}`, runAs: "", cwd: "/" });
  });
  for (const m of text.matchAll(SCRATCH_PROGRAM)) {
    const path = posix.normalize(m[1] ?? "");
    const line = lines[lineOf(text, m.index) - 1] ?? "";
    if (
      SCRATCH_DATA.test(path) ||
      /^\s*[#;]/.test(line) ||
      !namesProgram(line, m[1] ?? "", text.slice(Math.max(0, m.index - 12), m.index + 1))
    )
      continue;
    out.findings.push(
      finding(4, `${at(m.index)}: names ${path}, in scratch space anyone may write, as a program or module root's programs run`),
    );
  }
  const loader = LOADER_SET.exec(text);
  if (loader)
    out.findings.push(
      finding(4, `${at(loader.index)}: sets ${loader[0].trim().split("=")[0]}, which changes what code root's programs load`),
    );
  const off = TRUST_OFF.exec(text);
  if (off)
    out.findings.push(finding(4, `${at(off.index)}: turns a signature check or NFS root squashing off (${off[0].trim().slice(0, 60)})`));
  return out;
}
