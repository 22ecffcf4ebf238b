// Judges a file of a diff whose content runs later as the commands it will
// run. Its format says which parts are commands (crontab.ts, unit-file.ts,
// apt-conf.ts, config-formats.ts, tmpfiles.ts; for sh files the whole text,
// with each alias's value judged as a command of its own); each is judged
// by the concurrence's own command judge, as the user and in the directory
// it will run as and in. The tier is the worst. Content it needs but was
// not given, or that is not UTF-8 text, is tier 4. A link there is judged
// by the content it leads to (links.ts), a unit link by the systemctl verb
// that makes it, and a link that makes a whole runs-later directory lead
// elsewhere by where it leads.
import { dkmsHookFindings } from "./daemon-hooks-more.js";
import { createHash } from "node:crypto";
import { posix } from "node:path";
import { type Change, EntryKind, type EntryState } from "../../proto/gen/agent_sudo/v1/manifest_pb.js";
import { aptConfCommands, aptLinesFindings, cronAptSettingsFindings } from "./apt-conf.js";
import {
  aptSourcesFindings,
  environmentFindings,
  gitconfigFindings,
  nanorcCommands,
  accountDefaultsFindings,
  supervisorCommands,
  daemonHookCommands,
  logrotateCommands,
  modprobeCommands,
  sysctlFindings,
  udevCommands,
} from "./config-formats.js";
import { crontabCommands } from "./crontab.js";
import { contentChanged } from "./grants.js";
import { laterKind, laterKindInside, type Later } from "./later-paths.js";
import { placeOf } from "./paths.js";
import { lex, LexError } from "./lex.js";
import { linkEnd, type SortedPaths } from "./links.js";
import { readHostTarget } from "./host-target.js";
import { tmpfilesFindings } from "./tmpfiles.js";
import { type Extracted, extracted, type Finding, finding, type JudgeContext, worst } from "./types.js";
import { hostLinkWeakened, hostUnitWeakened } from "../shared/unit-baseline.js";
import { DEFAULT_ENV_FILE, environmentFileFindings, unitFileCommands } from "./unit-file.js";
import { unlistedCommands } from "./unlisted.js";
import { laterRootHazard } from "./later-hazards.js";
import { judgeCommand } from "./verdict.js";

/** The diff being judged, as every part of its judgment sees it. */
export interface DiffView {
  index: ReadonlyMap<string, Change>;
  sorted: SortedPaths;
  /** The changed files' bytes the gateway passed, by path. */
  contents: ReadonlyMap<string, Buffer>;
  ctx: JudgeContext;
  /** Content judgments already made (a file seen through links is judged once per way it runs). */
  judged: Map<string, Finding>;
}

/**
 * Where a link in a runs-later place may lead without its content being in the diff: the trees packages own
 * (not /usr/local), or a place of the same kind, whose content was judged as such when it was written. Review 47:
 * /etc and /opt were trusted, so a file written at tier 3 where nothing judges content (`/etc/foo/p`) and then
 * linked from /etc/cron.d ran as root unread.
 */
const PACKAGED_TARGET = /^\/(?:usr\/(?!local\/)|bin\/|sbin\/|lib\/|lib32\/|lib64\/|libx32\/)/;
function trustedTarget(end: string, kind: Later["kind"]): boolean {
  return PACKAGED_TARGET.test(end) || laterKind(end)?.kind === kind;
}
const EMPTY_SHA256 = createHash("sha256").digest();
const SH = new Set(["sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "posh", "yash", "rbash", "busybox"]);
const UNIT_NAME = /^[A-Za-z0-9:_.\\@-]+\.(service|socket|timer|path|mount|automount|swap|target|slice|scope|device)$/;

/** The interpreter a #! line names (looking through env), if there is one. */
function interpreter(text: string): string | undefined {
  const m = /^#!\s*(\S+)[ \t]*(.*)/.exec(text);
  if (!m?.[1]) return undefined;
  // Through env and the wrappers that run their operand (`#!/usr/bin/nice sh`, `env -S setsid sh`; review 49).
  const words = [posix.basename(m[1]), ...(m[2] ?? "").split(/\s+/).filter(Boolean)];
  const named = words.find(
    (a, i) => i === words.length - 1 || !(SHEBANG_WRAPPERS.has(posix.basename(a)) || a.startsWith("-") || a.includes("=") || /^\d/.test(a)),
  );
  return named ? posix.basename(named) : words[0];
}
const SHEBANG_WRAPPERS = new Set([
  "env",
  "nice",
  "setsid",
  "nohup",
  "ionice",
  "chrt",
  "taskset",
  "timeout",
  "stdbuf",
  "unshare",
  "flock",
  "runuser",
]);

/** `alias a='…' b='…'` lines (and only those): their values, or undefined to leave the line to the script judge. */
function aliasValues(line: string): Array<{ name: string; value: string }> | undefined {
  let lexed;
  try {
    lexed = lex(line);
  } catch (err) {
    if (err instanceof LexError) return undefined;
    throw err;
  }
  if (lexed.nested.length > 0) return undefined;
  const out: Array<{ name: string; value: string }> = [];
  for (const cmd of lexed.commands) {
    if (cmd.words[0]?.text !== "alias" || cmd.redirects.length > 0 || cmd.stdin !== undefined || cmd.pipedIn) return undefined;
    for (const w of cmd.words.slice(1)) {
      const eq = w.text.indexOf("=");
      if (w.dynamic || eq <= 0) return undefined;
      out.push({ name: w.text.slice(0, eq), value: w.text.slice(eq + 1) });
    }
  }
  return out;
}

/** A sh file: the whole text is the command; each alias's value is judged as a command, the alias line itself left out. */
function shellCommands(text: string): Extracted {
  const interp = interpreter(text);
  if (interp !== undefined && !SH.has(interp))
    return extracted([], [finding(4, `runs ${interp} code, which the concurrence cannot judge`)]);
  const out = extracted();
  const lines = text.split("\n");
  lines.forEach((line, i) => {
    if (!/^\s*alias\s/.test(line) || lines[i - 1]?.endsWith("\\")) return;
    const aliases = aliasValues(line);
    if (!aliases) return;
    for (const a of aliases) out.commands.push({ text: a.value, where: `alias ${a.name} (line ${i + 1})` });
    lines[i] = "";
  });
  out.commands.push({ text: lines.join("\n"), where: "script" });
  return out;
}

function extract(later: Later, path: string, text: string, ctx: JudgeContext): Extracted {
  switch (later.kind) {
    case "crontab":
      return crontabCommands(text, "system", "");
    case "user-crontab":
      return crontabCommands(text, "user", later.runAs);
    case "anacrontab":
      return crontabCommands(text, "anacron", "");
    case "shell": {
      const out = shellCommands(text);
      out.findings.push(...dkmsHookFindings(text, path).findings);
      // Review 51: a service's environment file seen at its own path whatever it is (a link to a file written
      // elsewhere, or one on the host) is read for its daemon's options as the file itself is (manifest.ts).
      if (DEFAULT_ENV_FILE.test(path)) out.findings.push(...environmentFileFindings(text).findings);
      if (/^\/etc\/cron-apt\/(config|(config|actionconf)\.d\/.+)$/.test(path)) out.findings.push(...cronAptSettingsFindings(text).findings);
      return out;
    }
    case "foreign-code":
      return extracted(
        [],
        [
          finding(
            4,
            "code or trust that runs later in a form the concurrence cannot judge (csh, fish, Python, Perl, libraries, keys, certificates, service and boot configuration)",
          ),
        ],
      );
    case "unit": {
      const out = unitFileCommands(text, path, later);
      // A unit replacing or extending one on the host: what it leaves out of the host's protections.
      if (later.rootRun)
        for (const loss of hostUnitWeakened(path, text, ctx.unitRoot))
          out.findings.push(finding(4, `${loss} — a protection of the unit on the host, left out or weakened`));
      return out;
    }
    case "environment":
      return environmentFindings(text);
    case "udev":
      return udevCommands(text);
    case "modprobe":
      return modprobeCommands(text);
    case "logrotate":
      return logrotateCommands(text, ctx);
    case "apt-conf":
      return aptConfCommands(text);
    case "apt-lines":
      return aptLinesFindings(text);
    case "apt-sources":
      return aptSourcesFindings(text);
    case "sysctl":
      return sysctlFindings(text);
    case "tmpfiles":
      return tmpfilesFindings(text, ctx);
    case "gitconfig":
      return gitconfigFindings(text, path);
    case "nanorc":
      return nanorcCommands(text);
    case "account-defaults":
      return accountDefaultsFindings(text);
    case "supervisor":
      return supervisorCommands(text);
    case "daemon-hooks":
      return daemonHookCommands(text, path);
  }
}

/**
 * What runs later runs outside every envelope: a program or script it names
 * by path must lie where only its runner (root: the system's trees) may
 * write, be known before it runs, and not be a file this same diff writes
 * as data (its text was judged as a file, never as the code that runs).
 */
function laterProgram(view: DiffView | undefined, depth = 0): JudgeContext["laterProgram"] {
  return (path, runAs) => {
    if (path === undefined) return finding(4, "runs a program or script only known when it runs");
    const home = runAs && runAs !== "root" ? `/home/${runAs}` : undefined;
    const own = home !== undefined && (path === home || path.startsWith(`${home}/`));
    // An entry directly in / is root's alone: cron's and a unit's relative names may resolve there.
    const rootOnly = placeOf(path) === "system" || /^\/[^/]+$/.test(path);
    if (!own && (!rootOnly || /^\/(run\/user|tmp|home)(\/|$)/.test(path)))
      return finding(4, `runs ${path}, which a user other than ${home ? runAs : "root"} may write: their code would run later`);
    if (view && !laterKind(path) && writtenBy(path, view))
      return finding(4, `runs ${path}, which this same diff writes as data: its text is not judged as the code that runs later`);
    return hostProgram(path, view, depth);
  };
}

/**
 * A script on the host that later code runs or sources, outside the packaged trees and every judged place (`/opt/x/job.sh`,
 * `/etc/foo/x.sh`): its text is judged here as root's shell code (review 47: staged at tier 3 as "a system path",
 * then named from cron.d, a unit or profile.d, it ran unread). Binaries, and what cannot be read, are left as before.
 */
function hostProgram(path: string, view: DiffView | undefined, depth: number): Finding | undefined {
  if (PACKAGED_TARGET.test(path) || laterKind(path) || depth >= 3) return undefined;
  // A file not there yet is judged when it is written (unlisted.ts), a binary not at all; a script too large to
  // read here is refused (review 49: padded past the 64 KiB the gateway passes, it was judged nowhere).
  const host = readHostTarget(path);
  if (host.kind === "large-text" && !PACKAGED_TARGET.test(host.path))
    return finding(4, `runs ${path}, a script on the host too large to judge here`);
  if (host.kind !== "text" || PACKAGED_TARGET.test(host.path)) return undefined;
  const ctx = view?.ctx ?? { host: "server-01" as const, cwd: "/", runAs: "", guardPaths: [], depth: 0 };
  const f = judgeUnlistedContent(path, host.text, { ...ctx, laterProgram: laterProgram(view, depth + 1) }, view, true);
  return f.tier === 4 ? finding(4, `runs ${path}, a script on the host outside the judged places: ${f.reason}`) : undefined;
}

/**
 * A listener that runs a program per connection or serves files: netcat's
 * -e/-c/--sh-exec, socat's EXEC:/SYSTEM:, one-line HTTP/TLS file servers,
 * telnetd, a second sshd with its own options. Run later, it runs as root on
 * the host's network.
 */
const OPENS_TO_NETWORK =
  /(^|[\s/;&|(`'"])(socat\s[^\n;&|]*\b(EXEC|SYSTEM):|(nc|ncat|netcat|nc\.traditional|nc\.openbsd)\s(?:[^\n;&|]*\s)?(-[a-zA-Z]*[ec]|--(sh-|lua-)?exec)(?=[\s=]|$)|python[0-9.]*\s+-m\s+(http\.server|SimpleHTTPServer)\b|php[0-9.]*\s+-S\s|ruby\s+-run\s|openssl\s+s_server\s|(in\.)?telnetd\b|busybox\s+(httpd|telnetd|nc)\s|sshd\s[^\n;&|]*\s-[of](?=[\s=]|$))/;

/**
 * Root's later command takes its input from a place users write (/tmp,
 * /var/tmp, /dev/shm, /run/user, homes) as an operand of a command that runs,
 * builds, installs or copies it: `run-parts /tmp/d`, `make -C /tmp/x`, `dpkg -i
 * /tmp/x.deb`, `pip install /tmp/x`, `crontab /tmp/x`, `systemctl link
 * /tmp/x.service`, `install /tmp/x /usr/local/bin/ls`, `tar -xf /tmp/x.tar -C /`.
 * laterProgram sees only programs and script operands.
 */
const TAKES_USER_INPUT =
  /(^|[\s;&|(`'"/])(run-parts|make|gmake|mount|dd|dpkg|apt|apt-get|pip[0-9.]*|pipx|npm|gem|cargo|crontab|systemctl|install|cp|rsync|mv|ln|tar|unzip|cpio|patch|insmod|modprobe|kexec|ansible-playbook|docker|podman|logrotate|at|batch|openvpn|ssh|scp|sftp|sed|git|zip|busybox|vim?|nvim|ex|runuser|xargs|update-alternatives|alternatives)\s([^\n;&|#]*\s)?(-*[A-Za-z][^\s=]*=)?['"]?[!|]?(\/tmp|\/var\/tmp|\/dev\/shm|\/run\/user|\/run\/lock|\/var\/lock|\/var\/crash|\/var\/mail|\/home|~[a-z_][^\s/]*)(\/|\s|['"]|$)/;

/**
 * A taking command whose operand is spelled from pieces only known when it runs — a variable glued to a letter, digit
 * or another variable, or naming the first directory: `A=/t; B=mp; install $A$B/x /opt/x`, `run-parts ${D}p/d`,
 * `/t$X/x`, `/$T/x`. The pieces may spell a user's place. A whole-word or whole-directory variable (`$SRC`,
 * `${DIR}/x`) and `$(date +%F)` are not pieces.
 */
const PIECED_INPUT =
  /(^|[\s;&|(`'"/])(run-parts|make|gmake|mount|dd|dpkg|apt|apt-get|pip[0-9.]*|pipx|npm|gem|cargo|crontab|systemctl|install|cp|rsync|mv|ln|tar|unzip|cpio|patch|insmod|modprobe|kexec|ansible-playbook|docker|podman)\s[^\n;&|#]*?([A-Za-z0-9_]\$\{?[A-Za-z_]|\$\{[A-Za-z_]\w*\}[A-Za-z0-9_$]|\$[A-Za-z_]\w*\$|(?<=[\s'"=])\/\$\{?[A-Za-z_])/;

/**
 * A variable set for a command (or the rest of the line) to a value in a user's place — `GIT_SSH=/tmp/x git fetch`,
 * `LESSOPEN='|/tmp/x %s' less f`, `D=/tmp; run-parts $D`: programs take programs, modules and configuration from it.
 * TMPDIR and the other temporary-directory variables aside.
 */
function userPlaceVariable(t: string): RegExpExecArray | null {
  for (const m of t.matchAll(
    /(^|[\s;&|(])([A-Za-z_][A-Za-z0-9_]*)=(['"]?[|]?(\/tmp|\/var\/tmp|\/dev\/shm|\/run\/user|\/home|~[a-z_][^\s/]*)([/:\s'"]|$))/g,
  ))
    if (!/^(TMPDIR|TMP|TEMP|TEMPDIR)$/.test(m[2] ?? "")) return m as RegExpExecArray;
  return null;
}

const USER_PLACE = /^\/(tmp|var\/tmp|dev\/shm|run\/user|run\/lock|var\/lock|var\/crash|var\/mail|home)(\/|$)/;
const TAKING_COMMAND =
  /(^|[\s;&|(`'"/])(run-parts|make|gmake|mount|dd|dpkg|apt|apt-get|pip[0-9.]*|pipx|npm|gem|cargo|crontab|systemctl|install|cp|rsync|mv|ln|tar|unzip|cpio|patch|insmod|modprobe|kexec|ansible-playbook|docker|podman|logrotate|at|batch|openvpn|ssh|scp|sftp|sed|git|zip|busybox|vim?|nvim|ex|runuser|python[0-9.]*|perl|ruby|node|xargs)(?=[\s;&|)]|$)/;

/**
 * TAKES_USER_INPUT over `text` with `//`, `/./` and `dir/..` folded; and such a
 * command run in a user's place (a `cd` there, a unit's WorkingDirectory=),
 * where its relative operands are theirs.
 */
function takesUserInput(text: string, cwd: string | undefined): RegExpExecArray | null {
  let t = text.replace(/\/(\.?\/)+/g, "/");
  for (let prev = ""; prev !== t; ) {
    prev = t;
    t = t.replace(/\/(?!\.\.\/)[^/\s'"]+\/\.\.(?=\/)/g, "");
  }
  // Above / is / (`/../../tmp` is /tmp). A variable right before an absolute path may be empty (unset, or an
  // UnsetEnvironment=; systemd and the shell put in nothing): `${X}/tmp/x` may be /tmp/x.
  t = t.replace(/\$+\{?[A-Za-z_][A-Za-z0-9_]*\}?(?=\/)/g, "").replace(/(^|[^A-Za-z0-9_.~-])\/(?:\.\.\/)+/g, "$1/");
  const hit = TAKES_USER_INPUT.exec(t) ?? PIECED_INPUT.exec(text) ?? userPlaceVariable(t);
  if (hit) return hit;
  const cd = /(^|[\s;&|(])cd\s+['"]?(\/tmp|\/var\/tmp|\/dev\/shm|\/run\/user|\/home|~[a-z_]*)(\/|\s|['"]|$)/.exec(t);
  if (cd && TAKING_COMMAND.test(t.slice(cd.index))) return cd;
  if (cwd && USER_PLACE.test(posix.normalize(cwd))) return TAKING_COMMAND.exec(t);
  return null;
}

/** The diff writes `path`, or a link on the way to it. */
function writtenBy(path: string, view: DiffView): boolean {
  if (view.index.has(path)) return true;
  for (let d = posix.dirname(path); d !== "/"; d = posix.dirname(d))
    if (view.index.get(d)?.after?.kind === EntryKind.ENTRY_KIND_SYMLINK) return true;
  return false;
}

/**
 * Later root code that hands the host away, or runs what a user may write, in forms the command judge reads as ordinary:
 * awk's system()/getline/print-to-file and -f programs, a container handed the host (--privileged, host namespaces,
 * dangerous capabilities, devices, the root fs, /etc, the docker socket), tcpdump's -z, script -c, capsh's -- (a shell),
 * tar's checkpoint actions and command options, man's pager or browser from a user's place, interpreters and
 * deployment tools (R, julia, tclsh, expect, kubectl, helm, terraform, ansible …) taking a file from a user's place.
 */
const ROOT_LATER_HAZARD =
  /(?:^|[\s;&|(`'"/])(?:(?:g|m|n)?awk\s[^\n]*?(?:\bsystem\s*\(|\|\s*getline|print[f]?\b[^;}\n]*[|>]|"\s*\||\s-f\s)|(?:docker|podman|nerdctl)\s(?:[^\n;&|]*\s)?(?:run|create|exec)(?=\s)[^\n;&|]*?(?:\s--privileged\b|\s--(?:pid|ipc|userns|uts)[=\s]host\b|\s--cap-add[=\s](?:ALL|SYS_ADMIN|SYS_MODULE|SYS_RAWIO|SYS_PTRACE|DAC_READ_SEARCH)\b|\s--device\b|\s(?:-v|--volume|--mount)[=\s]+['"]?(?:[^\s'"]*?(?:source|src)=)?\/+(?:(?:etc|boot|root|usr|dev|proc|sys|var\/lib\/docker|var\/run\/docker\.sock|run\/docker\.sock)(?=[/:,\s'"]|$)|(?=[:,\s'"]|$)))|tcpdump(?=\s)[^\n;&|]*\s-z\s+['"]?(?!(?:gzip|bzip2|xz|zstd|\/usr\/s?bin\/|\/s?bin\/)\S*)|script(?=\s)[^\n;&|]*\s(?:-c|--command)[=\s]|capsh(?=\s)[^\n;&|]*\s--\s|tar(?=\s)[^\n;&|]*--(?:checkpoint-action|to-command|use-compress-program|rsh-command|info-script|new-volume-script)[=\s]|man\s(?:[^\n;&|]*\s)?(?:-P|--pager|-H|--html)[=\s]*['"]?(?:\/tmp|\/var\/tmp|\/dev\/shm|\/run\/user|\/home|~[a-z_][^\s/]*)|(?:R|Rscript|julia|tclsh|wish|expect|guile|octave|gnuplot|pwsh|groovy|jshell)\s(?:[^\n;&|]*\s)?['"]?(?:\/tmp|\/var\/tmp|\/dev\/shm|\/run\/user|\/home|~[a-z_][^\s/]*)|(?:kubectl|helm|terraform|ansible|ansible-playbook|packer|vagrant)\s(?:[^\n;&|]*[\s=])?['"]?(?:\/tmp|\/var\/tmp|\/dev\/shm|\/run\/user|\/home|~[a-z_][^\s/]*))/;

/** An output option naming a file whose content runs later (`openssl enc -in x -out /etc/cron.d/y`): root writes code no one judged. */
function writesLaterFile(text: string): string | undefined {
  for (const m of text.matchAll(/\s(?:-out|-o|--output|--out-file|--outfile|-w)[=\s]+['"]?(\/[^\s'";&|]+)/g))
    if (laterKind(posix.normalize(m[1] ?? "")) !== undefined) return m[1];
  return undefined;
}

/** The content of a file that runs later, judged as what it will run (`view`: the diff it is part of). */
export function judgeLaterContent(later: Later, path: string, text: string, ctx: JudgeContext, view?: DiffView): Finding {
  return judgeExtracted(extract(later, path, text, ctx), later, ctx, view);
}

/** Root's programs may read a file of unknown format at `path` (unlisted.ts): a sh script is judged whole, other text for the code in it. */
export function judgeUnlistedContent(path: string, text: string, ctx: JudgeContext, view?: DiffView, runBySh = false): Finding {
  const interp = interpreter(text);
  const later: Later = { kind: "shell", floor: 0, runAs: "", cwd: "/", rootRun: true };
  const sh = interp === undefined ? runBySh || path.endsWith(".sh") : SH.has(interp);
  return judgeExtracted(sh ? shellCommands(text) : unlistedCommands(text, path), later, ctx, view);
}

function judgeExtracted({ commands, findings }: Extracted, later: Later, ctx: JudgeContext, view?: DiffView): Finding {
  let f = findings.reduce(worst, finding(0, ""));
  const check = ctx.laterProgram ?? laterProgram(view);
  for (const c of commands) {
    const exposed = OPENS_TO_NETWORK.exec(c.text);
    if (exposed) f = worst(f, finding(4, `${c.where}: hands a shell or the file system to whoever connects (${exposed[0].slice(0, 80)})`));
    const runAs = c.runAs ?? later.runAs;
    const taken = runAs === "" || runAs === "root" ? takesUserInput(c.text, c.cwd ?? later.cwd) : null;
    if (taken) f = worst(f, finding(4, `${c.where}: root runs, installs or copies what a user may write (${taken[0].slice(0, 80)})`));
    const hazard = runAs === "" || runAs === "root" ? ROOT_LATER_HAZARD.exec(c.text) : null;
    if (hazard)
      f = worst(f, finding(4, `${c.where}: hands root's later run to others' code or the host away (${hazard[0].trim().slice(0, 80)})`));
    const fetched = runAs === "" || runAs === "root" ? laterRootHazard(c.text) : undefined;
    if (fetched) f = worst(f, finding(4, `${c.where}: root fetches and runs code, or gives root away (${fetched})`));
    const output = runAs === "" || runAs === "root" ? writesLaterFile(c.text) : undefined;
    if (output) f = worst(f, finding(4, `${c.where}: writes ${output}, whose content runs later, with content no one judged`));
    const r = judgeCommand(c.text, { ...ctx, depth: 0, runAs: c.runAs ?? later.runAs, cwd: c.cwd ?? later.cwd, laterProgram: check });
    f = worst(f, finding(r.tier, `${c.where}: ${r.reason}`));
  }
  return f;
}

/**
 * A change of a unit's links read as the systemctl verb that makes it: a
 * link in a .wants/ directory enables, a link to /dev/null masks, removing
 * either (or the unit file) disables or unmasks. Undefined when it is none.
 */
export function judgeUnitLink(path: string, before: EntryState, after: EntryState, ctx: JudgeContext): Finding | undefined {
  const name = posix.basename(path);
  if (!UNIT_NAME.test(name)) return undefined;
  let verb: string;
  if (after.kind === EntryKind.ENTRY_KIND_ABSENT)
    verb = before.kind === EntryKind.ENTRY_KIND_SYMLINK && before.target === "/dev/null" ? "unmask" : "disable";
  else if (after.kind === EntryKind.ENTRY_KIND_SYMLINK && after.target === "/dev/null") verb = "mask";
  else if (after.kind === EntryKind.ENTRY_KIND_SYMLINK && /\.(wants|requires|upholds)\/[^/]+$/.test(path)) verb = "enable";
  else return undefined;
  const r = judgeCommand(`systemctl ${verb} '${name}'`, { ...ctx, depth: 0 });
  return finding(r.tier, `as systemctl ${verb} ${name}: ${r.reason}`);
}

/** The content of a changed file as text, or why it cannot be judged. */
function textOf(path: string, state: EntryState, contents: ReadonlyMap<string, Buffer>): string | Finding {
  const given = contents.get(path) ?? (state.size === 0 && state.sha256.equals(EMPTY_SHA256) ? Buffer.alloc(0) : undefined);
  if (!given) return finding(4, `content not given (${state.size} bytes): what runs later cannot be judged unseen`);
  if (!createHash("sha256").update(given).digest().equals(state.sha256))
    return finding(4, "content given does not match the manifest's digest");
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(given);
  } catch {
    return finding(4, "content is not UTF-8 text: what runs later cannot be judged");
  }
  return text.includes("\0") ? finding(4, "content is binary (NUL bytes): what runs later cannot be judged") : systemdLines(text);
}

/**
 * systemd's line reader (units, drop-ins, udev rules, tmpfiles, sysctl, binfmt, sysusers) and its environment-file
 * parser end a line at a lone CR as well as at LF: `# note\rExecStart=/tmp/x` is a setting to systemd. Read every
 * format with CR as a line end; where CR stays inside a line (sh, cron) that only shows more lines to judge.
 */
export function systemdLines(text: string): string {
  return text.replace(/\r\n?/g, "\n");
}

/** The file at `real`, run later as if at `at`. */
function judgeFileAt(at: string, real: string, state: EntryState, later: Later, view: DiffView): Finding {
  const key = [later.kind, later.runAs, later.cwd ?? "", posix.basename(at), real].join("\0");
  const known = view.judged.get(key);
  if (known) return known;
  const text = textOf(real, state, view.contents);
  const f = typeof text === "string" ? judgeLaterContent(later, at, text, view.ctx, view) : text;
  view.judged.set(key, f);
  return f;
}

/** The diff changed `end` or something below it. */
function changedAt(end: string, view: DiffView): boolean {
  return view.index.has(end) || view.sorted.below(end).length > 0;
}

/** A link where content runs later: judged by the content it leads to. */
function judgeLaterLink(at: string, real: string, before: EntryState, after: EntryState, later: Later, view: DiffView): Finding {
  const f = (later.kind === "unit" ? judgeUnitLink(at, before, after, view.ctx) : undefined) ?? finding(0, "");
  if (after.target === "/dev/null") return f;
  const end = linkEnd(real, after.target, view.index);
  if (end === undefined)
    return finding(4, `links through ${after.target}, which the concurrence cannot resolve without the host's own links`);
  const linked = view.index.get(end)?.after;
  if (linked?.kind === EntryKind.ENTRY_KIND_FILE) return worst(f, judgeFileAt(at, end, linked, later, view));
  if (changedAt(end, view)) return finding(4, `links to ${end}, which this run changed`);
  // What the host holds there runs: its text is judged as this place's content; a binary only in a packaged tree.
  const host = readHostTarget(end);
  if (host.kind === "text") return worst(f, judgeLaterContent(later, at, host.text, view.ctx, view));
  if (host.kind === "unreadable") return finding(4, `links to ${end}, which the concurrence cannot read`);
  if (!trustedTarget(host.kind === "missing" ? end : host.path, later.kind) || (host.kind === "missing" && !laterKind(end)))
    return finding(4, `links to ${end}, whose content the concurrence cannot judge (not a packaged tree's, not judged as ${later.kind})`);
  // A link in place of a unit to another unit file on the host (`demo.service` → a vendor's laxer unit).
  if (later.kind === "unit" && later.rootRun)
    for (const loss of hostLinkWeakened(at, end, view.ctx.unitRoot))
      return worst(f, finding(4, `links to ${end}: ${loss} — a protection of the unit on the host, left out or weakened`));
  return f;
}

/** A changed file or link in a place whose content runs later. */
export function judgeLaterEntry(at: string, real: string, before: EntryState, after: EntryState, later: Later, view: DiffView): Finding {
  const f = later.floor > 0 ? finding(later.floor, `holds what runs later (${later.kind})`) : finding(0, "");
  // What the concurrence cannot read is refused as a file and as a link alike (an alternative re-pointed, a boot target).
  if (later.kind === "foreign-code" && (after.kind === EntryKind.ENTRY_KIND_SYMLINK || contentChanged(before, after)))
    return finding(4, `code or trust that runs later in a form the concurrence cannot judge (${at})`);
  if (after.kind === EntryKind.ENTRY_KIND_SYMLINK) return worst(f, judgeLaterLink(at, real, before, after, later, view));
  const newlyExecutable = (after.mode & 0o111 & ~(before.kind === EntryKind.ENTRY_KIND_FILE ? before.mode : 0)) !== 0;
  if (!contentChanged(before, after) && !newlyExecutable) return f;
  return worst(f, judgeFileAt(at, real, after, later, view));
}

/**
 * A link that makes a whole directory whose entries run later lead
 * elsewhere: what this run put there is judged through the link (manifest.ts);
 * what was there before must be in a tree only root writes.
 */
export function judgeDirectoryLink(at: string, real: string, after: EntryState, inside: Later, view: DiffView): Finding {
  const end = linkEnd(real, after.target, view.index);
  const what = `makes ${at}, whose entries run later (${inside.kind}),`;
  if (end === undefined) return finding(4, `${what} lead through ${after.target}, which the concurrence cannot resolve`);
  // A packaged directory must be there (a name not there yet could be staged later); one of the same kind was judged.
  const packaged = PACKAGED_TARGET.test(end) && readHostTarget(end).kind === "directory";
  if (!packaged && laterKindInside(end)?.kind !== inside.kind)
    return finding(4, `${what} lead to ${end}, outside the packaged trees and no directory of that kind`);
  return finding(3, `${what} lead to ${end}`);
}
