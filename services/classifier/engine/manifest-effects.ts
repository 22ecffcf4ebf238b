// The classifier's judge of a transactional run's diff (tiers 1-2, ARCHITECTURE
// "Envelopes"). Each change of the Manifest is judged by the same path rules
// that judge a literal write, delete or chmod of that path (effects.ts
// judgeTarget over paths.ts); on top of them, what only a diff shows: set-id
// bits, file capabilities and other xattrs, device nodes, a place that runs
// later made writable by a user, and files whose content runs later, judged
// by their content as the commands they will run (runs-later*.ts).
// Trusts: nothing in the manifest but its facts; a content is used only when
// its sha256 is the manifest's. Refuses (tier 4): what it cannot place or
// read where the content matters. No clock; the file system only for the host's units a diff's unit replaces or
// extends (unit-baseline.ts).
import { createHash } from "node:crypto";
import { posix } from "node:path";
import { type Change, EntryKind, EntryState, type Manifest } from "../../../proto/gen/agent_sudo/v1/manifest_pb.js";
import type { HostId } from "../../shared/config.js";
import type { TierNumber } from "../../shared/tier.js";
import type { PartVerdict, Verdict } from "../verdict.js";
import { judgeTarget } from "./effects.js";
import { catastrophicTree, inside, resolvePlace, scratch, secretPath, systemPath } from "./paths.js";
import type { Place } from "./paths.js";
import type { Veto } from "./policy.js";
import { CONFIG_READERS } from "./manifest-effects-configs.js";
import { CONTENT_READERS } from "./runs-later-content.js";
import { type ContentJudge, environmentFileMarks, environmentFiles, instancePlace, type Mark, type Reader } from "./runs-later-content.js";
import { contentFormat, holdsRunsLater, rootOwnedPlace, runsLater } from "./runs-later.js";
import { hostLinkWeakened, hostUnitWeakened } from "../../shared/unit-baseline.js";
import type { Format, RunsLater } from "./runs-later.js";
import type { Context, Finding, Word } from "./types.js";
import { scanCode } from "./veto.js";
import { findCredentials } from "../../shared/credentials.js";
import type { Mode } from "./targets.js";
import { literalWord } from "./unwrap.js";
import { binaryBytes, hostTarget, scriptText } from "./host-target.js";
import { laterFetch, withoutBusybox } from "./later-fetches.js";
import { unlistedMarks, unlistedPlace } from "./unlisted-content.js";
import { daemonOptionMarks } from "./daemon-options.js";
import { keyedFile, settingsMarks } from "./settings-files.js";
import { executableMap } from "./runner-settings.js";
import { DEFAULT_ENV_FILE, hostEnvironmentFiles, hostScript, PACKAGED } from "./host-references.js";

/** What the judge needs from the loaded engine. */
export interface ManifestEngine {
  /** The engine's verdict on shell code root runs later: the sudo policy, this host, cwd "/"; scripts it runs checked by `laterScript`. */
  judgeCode(code: string, host: HostId, laterScript?: Context["laterScript"]): Verdict;
  /** The loaded policies' danger vetoes. */
  readonly vetoes: readonly Veto[];
  /** The context a literal write, delete or chmod by the command is judged in (the sudo policy, its cwd). */
  pathContext(host: HostId, cwd: string): Context;
}

export interface ManifestContext {
  host: HostId;
  runAs: string;
  /** The command's resolved working directory ("" when not known). */
  cwd: string;
  /** agent-sudo's own trees: its code as it runs (a checkout or /opt/agent-sudo), its state, its policies. */
  guarded: readonly string[];
  /** A secret the command reads (effects.ts secretReads over its simple commands), or null: what a file it writes may carry. */
  readsSecret?: string | null;
  /** Where the host's own unit files are read (unit-baseline.ts): "/" unless a test's tree. */
  unitRoot?: string;
}

export interface ManifestJudgement {
  tier: TierNumber;
  /** One line per change that set or raised the tier, worst first. */
  reasons: string[];
}

export const MAX_REASONS = 50;
/** This many entries deleted directly in a system tree or home read as `rm -r DIR/*`. */
export const MASS_DELETE = 10;

const {
  ENTRY_KIND_ABSENT: ABSENT,
  ENTRY_KIND_FILE: FILE,
  ENTRY_KIND_DIR: DIR,
  ENTRY_KIND_SYMLINK: SYMLINK,
  ENTRY_KIND_SPECIAL: SPECIAL,
} = EntryKind;
const LABEL: Record<Mode, string> = { write: "write", delete: "rm", tree: "rm -r", perm: "chmod/chown", "perm-tree": "chmod/chown -R" };

interface Env {
  pathCtx: Context;
  readsSecret: string | null;
  guarded: readonly string[];
  changes: ReadonlyMap<string, Change>;
  contents: ReadonlyMap<string, Buffer>;
  /** Content that runs as root; `userContent`: as the owner of a home, a repository or a user crontab. */
  content: ContentJudge;
  userContent: ContentJudge;
  /** Content in root's trees of no judged place (unlisted-content.ts): as root's later code, unknown programs not refused. */
  unlistedContent: ContentJudge;
  /** Files the units of this diff load their environment from (patterns: a template's instance is any name). */
  envFiles: readonly RegExp[];
  /** Where the host's own unit files are read (unit-baseline.ts). */
  unitRoot: string;
}

const mark = (tier: TierNumber, text: string): Mark => ({ tier, text });
const clip = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n)}…` : s);
const maxTier = (marks: readonly Mark[]): TierNumber => Math.max(0, ...marks.map((m) => m.tier)) as TierNumber;

export function judgeManifest(
  engine: ManifestEngine,
  manifest: Manifest,
  contents: ReadonlyMap<string, Buffer>,
  ctx: ManifestContext,
): ManifestJudgement {
  const changes = new Map<string, Change>();
  for (const c of manifest.changes) if (!changes.has(c.path)) changes.set(c.path, c);
  const guarded = ctx.guarded.filter((g) => g.startsWith("/") && g !== "/");
  const pathCtx = manifestPathContext(engine.pathContext(ctx.host, ctx.cwd), guarded);
  // A script on the host that later code runs (host-references.ts): judged as root's code, unknown programs not refused.
  const hostCode = (depth: number): ContentJudge => contentJudge(engine, "server-01", pathCtx, rootLaterScript(changes, hostCode, depth));
  const env: Env = {
    pathCtx,
    changes,
    contents,
    content: contentJudge(engine, ctx.host, pathCtx, rootLaterScript(changes, hostCode)),
    userContent: contentJudge(engine, ctx.host, pathCtx),
    unlistedContent: contentJudge(engine, "server-01", pathCtx, rootLaterScript(changes, hostCode)),
    guarded,
    readsSecret: ctx.readsSecret ?? null,
    envFiles: unitEnvironmentFiles(changes, contents),
    unitRoot: ctx.unitRoot ?? "/",
  };
  const lines: Mark[] = [];
  const seen = new Set<string>();
  for (const c of manifest.changes) {
    const marks = seen.has(c.path)
      ? [mark(4, `${clip(c.path, 200)}: listed twice in the manifest — which state commits is not clear`)]
      : judgeChange(c, env);
    seen.add(c.path);
    lines.push(mark(maxTier(marks), compose(marks)));
  }
  lines.push(...massDeletes(manifest.changes, env.pathCtx));
  const tier = maxTier(lines);
  const shown = lines.filter((l) => l.tier > 0).sort((a, b) => b.tier - a.tier);
  const reasons = shown.slice(0, MAX_REASONS).map((l) => l.text);
  if (shown.length > MAX_REASONS) reasons.push(`… ${shown.length - MAX_REASONS} more`);
  return { tier, reasons };
}

/**
 * The literal-write context, except that a working directory is no workspace
 * when it is a system tree or a home (`cd /etc`), lies anywhere in one (`cd
 * /etc/systemd/system`, `cd /root/.cargo`), in a home's dot-directory or in
 * agent-sudo's own trees: a diff is never tier 1 for rewriting what root
 * runs because the command ran there.
 */
function manifestPathContext(ctx: Context, guarded: readonly string[]): Context {
  const workspace = ctx.workspace.filter(
    (root) =>
      !catastrophicTree(resolvePlace(literalWord(root), ctx), true) &&
      !systemPath(root) &&
      !/^\/home\/[^/]+\/\./.test(root) &&
      !guarded.some((g) => inside(root, g) || inside(g, root)),
  );
  return { ...ctx, workspace };
}

/** The path mark, then whatever raised it (worst first, at most three). */
function compose(marks: readonly Mark[]): string {
  const [first, ...rest] = marks;
  const extra = rest
    .filter((m) => m.tier > 0)
    .sort((a, b) => b.tier - a.tier)
    .slice(0, 3);
  return clip([first?.text ?? "", ...extra.map((m) => m.text)].join("; "), 600);
}

function kindOf(s: EntryState | undefined): EntryKind | null {
  const k = s?.kind;
  return k === ABSENT || k === FILE || k === DIR || k === SYMLINK || k === SPECIAL ? k : null;
}

/** Absolute, no empty, "." or ".." segment, no trailing slash, no NUL: the only form the executor commits. */
export function canonicalPath(path: string): boolean {
  if (!path.startsWith("/") || path.length > 4096 || path.includes("\0")) return false;
  return path === "/" || (!path.endsWith("/") && !/\/\/|\/\.\.?(\/|$)/.test(path));
}

/** Device and kernel file systems: a diff never legitimately changes them (/dev/shm is scratch). */
function kernelPlace(path: string): boolean {
  return inside(path, "/proc") || inside(path, "/sys") || (inside(path, "/dev") && !/^\/dev\/shm\/./.test(path));
}

function contentChanged(b: EntryState, a: EntryState): boolean {
  return b.size !== a.size || !Buffer.from(b.sha256).equals(Buffer.from(a.sha256));
}

/** Which literal operation this change is: rm, rm -r, a write, or chmod/chown. */
function operation(c: Change, bk: EntryKind | null, ak: EntryKind): Mode {
  const b = c.before as EntryState;
  const a = c.after as EntryState;
  if (ak === ABSENT) return bk === FILE || bk === SYMLINK || bk === SPECIAL || bk === ABSENT ? "delete" : "tree";
  if (bk !== ak) return "write";
  if (ak === FILE && contentChanged(b, a)) return "write";
  if (ak === SYMLINK && b.target !== a.target) return "write";
  const xattrs = b.xattrs.length !== a.xattrs.length || b.xattrs.some((x, i) => a.xattrs[i] !== x);
  if (b.mode !== a.mode || b.uid !== a.uid || b.gid !== a.gid || xattrs) return "perm";
  // Nothing recorded differs (a touch): the executor still commits it.
  return "write";
}

function pathMark(op: Mode, path: string, ctx: Context): Mark {
  const e = judgeTarget({ word: literalWord(path), mode: op }, ctx);
  const prefix = `${op} ${path}`;
  return mark(e.tier, `${LABEL[op]} ${path}${e.reason.startsWith(prefix) ? e.reason.slice(prefix.length) : `: ${e.reason}`}`);
}

/** Content with no line but blanks and comments (udev, tmpfiles: `#`; a lone CR ends a line for systemd). */
function noRules(buf: Buffer | undefined): boolean {
  return (
    buf !== undefined &&
    buf.length <= 65536 &&
    buf
      .toString("latin1")
      .split(/\r\n|[\r\n\0]/)
      .every((l) => /^\s*(#.*)?$/.test(l))
  );
}

function judgeChange(c: Change, env: Env): Mark[] {
  const path = c.path;
  if (!canonicalPath(path)) return [mark(4, `${JSON.stringify(clip(path, 200))}: not a canonical absolute path — never committed`)];
  // A carriage return, a line separator (U+2028/9) or another control character in a name slips past the path
  // patterns (`.` stops there), not past sudo's includedir, logrotate or /etc/profile's *.sh: refused outside scratch
  // space (the sandbox refuses only a newline).
  if (/[\u0001-\u001f\u007f\u0085\u2028\u2029]/.test(path) && !scratch(path))
    return [mark(4, `${JSON.stringify(clip(path, 200))}: a control character or a line separator in a name — never committed`)];
  const bk = kindOf(c.before);
  const ak = kindOf(c.after);
  if (ak === null) return [mark(4, `${path}: an after state the judge does not recognise — never committed`)];
  if (ak === SPECIAL) return [mark(4, `create ${path}: a device node, fifo or socket — never committed`)];
  if (kernelPlace(path)) return [mark(4, `${path}: a device or kernel file system — never committed`)];
  const own = guardedBy(path, c, env.guarded);
  if (own) return [mark(4, `${path}: agent-sudo's own code, state or policies (${clip(own, 200)}) — never changed through itself`)];
  const marks = [pathMark(operation(c, bk, ak), path, env.pathCtx)];
  if (bk === null) marks.push(mark(2, "its state before the run is not recognised"));
  if (SECURITY_UNIT.test(path) && (ak === ABSENT || (ak === SYMLINK && (c.after as EntryState).target === "/dev/null")))
    return [mark(4, `${path}: disables or masks a security service`)];
  const replaced = ak !== ABSENT && replacesSecurityUnit(path, c.after as EntryState);
  if (replaced) return [mark(4, `${path}: ${replaced}`)];
  // Kernel settings and module rules are where protections live (fs.protected_*, ptrace_scope, a blacklisted module):
  // removing such a file, emptying it or masking it with /dev/null (the same name in /etc hides the vendor's) undoes
  // them at the next boot, and the manifest does not say what the old file set.
  const format = runsLater(path)?.format;
  const masked =
    ak === ABSENT ||
    (ak === SYMLINK && (c.after as EntryState).target === "/dev/null") ||
    (ak === FILE && (c.after as EntryState).size === 0);
  if ((format === "sysctl" || format === "modprobe") && masked)
    marks.push(
      mark(4, `${path}: removes, empties or masks kernel settings or module rules (a protection there would come undone at boot)`),
    );
  // A udev rules or tmpfiles file in /etc or /run of a vendor's name hides the vendor's (device modes, /tmp's sticky
  // bit, /run/sudo): a /dev/null link, or a file with no rule, masks it. Removing one shows the vendor's again.
  if ((format === "udev" || format === "tmpfiles") && ak !== ABSENT && (masked || noRules(env.contents.get(path))))
    marks.push(mark(4, `${path}: masks the udev rules or tmpfiles of that name (a vendor's file there would no longer apply)`));
  if (ak === ABSENT) {
    const r = runsLater(path);
    if (r?.format === "refuse") marks.push(mark(4, `${r.what}: removing it is refused too`));
    if (LOGIN_RECORDS.test(path)) marks.push(mark(3, `${path}: the audit trail or the record of logins — deleting it hides what happened`));
    return marks;
  }
  // Emptied, shrunk or replaced (`: > /var/log/wtmp`, a link to /dev/null) hides it as well as deleting it.
  if (LOGIN_RECORDS.test(path) && bk === FILE && (ak !== FILE || (c.after as EntryState).size < (c.before as EntryState).size))
    marks.push(mark(3, `${path}: the audit trail or the record of logins — emptied or replaced, it hides what happened`));
  const before = bk === null || bk === ABSENT ? undefined : c.before;
  const after = c.after as EntryState;
  marks.push(
    ...runtimePlace(path, ak, env.pathCtx, narrows(before, after)),
    ...scratchLink(path, after),
    ...rootHomeLink(path, after),
    ...exposes(path, before, after),
    ...leaks(path, before, after, env),
    ...setId(before, after),
    ...xattrs(path, before, after),
    ...newWriters(path, before, after, env),
    ...laterRuns(path, before, after, env),
    ...unlisted(path, before, after, env),
    ...environmentFile(path, after, env),
    ...settings(path, before, after, env),
    ...keyedLink(path, after, env),
    ...executableMap(path, kindOf(after) === FILE ? after.mode : 0),
  );
  // A template instance named after a place users write (a link in a .wants directory, an instance's own file).
  const instance = runsLater(path)?.format === "systemd" ? instancePlace(path) : null;
  if (instance) marks.push(mark(4, `${path}: a unit instance whose name stands for ${instance}, a place users write`));
  return marks;
}

/** The files the unit files of this diff name in EnvironmentFile=. */
function unitEnvironmentFiles(changes: ReadonlyMap<string, Change>, contents: ReadonlyMap<string, Buffer>): RegExp[] {
  const out: RegExp[] = [];
  for (const [path, c] of changes) {
    const buf = contents.get(path);
    if (kindOf(c.after) !== FILE || !buf || runsLater(path)?.format !== "systemd") continue;
    out.push(...environmentFiles(asLines(buf.toString("utf8")), path));
  }
  return out;
}

/**
 * A file a root unit loads its environment from (one this diff's units name, or /etc/default/*): values naming user
 * places. A service's options file (/etc/default/*, apache2's envvars) is read for the daemon's options as well.
 */
function environmentFile(path: string, after: EntryState, env: Env): Mark[] {
  const unitFile = env.envFiles.some((f) => f.test(path)) || DEFAULT_ENV_FILE.test(path);
  const options = DAEMON_OPTIONS_FILE.test(path);
  if (kindOf(after) !== FILE || !(unitFile || options)) return [];
  const buf = env.contents.get(path);
  if (!buf) return unitFile ? [mark(4, `${path}: an environment file a root unit loads, its content not given`)] : [];
  const text = asLines(buf.toString("utf8"));
  return [...(unitFile ? environmentFileMarks(text) : []), ...(options ? daemonOptionMarks(text) : [])].map((m) =>
    mark(m.tier, `${path} (a unit's environment file): ${m.text}`),
  );
}

/**
 * Review 51: a link put in place of a file read by key (a service's environment or options file, a settings file
 * settings-files.ts reads) made the program read, as that file, content no key check saw (`/etc/default/dnsmasq` →
 * a file with `--dhcp-script=` written elsewhere). What it leads to is judged as if written at the link's own path: a
 * file this diff writes, or the host's text; anything else (a directory, a name not there yet, a link this run made,
 * what cannot be read) is refused.
 */
function keyedLink(path: string, after: EntryState, env: Env): Mark[] {
  if (kindOf(after) !== SYMLINK) return [];
  if (!(DEFAULT_ENV_FILE.test(path) || DAEMON_OPTIONS_FILE.test(path) || env.envFiles.some((f) => f.test(path)) || keyedFile(path)))
    return [];
  if (!after.target) return [mark(4, `${path}: a link without a target in place of settings read by key`)];
  const resolved = posix.normalize(after.target.startsWith("/") ? after.target : posix.join(posix.dirname(path), after.target));
  if (resolved === "/dev/null") return [];
  const changed = env.changes.get(resolved)?.after;
  let buf: Buffer | undefined;
  if (changed && kindOf(changed) === FILE) {
    buf = env.contents.get(resolved);
    if (!buf || !createHash("sha256").update(buf).digest().equals(Buffer.from(changed.sha256)))
      return [mark(4, `${path}: a link to ${clip(resolved, 200)}, whose content was not given — settings read by key, not judged`)];
  } else if (changed && kindOf(changed) !== ABSENT) {
    return [mark(4, `${path}: a link to ${clip(resolved, 200)}, which this run made other than a file — settings read by key, not judged`)];
  } else {
    const host = hostTarget(resolved);
    if (host.kind !== "text")
      return [mark(4, `${path}: a link to ${clip(resolved, 200)} (${host.kind} here) — settings read by key, not judged`)];
    buf = Buffer.from(host.text);
  }
  const seen = EntryState.create({ kind: FILE, mode: 0o644, size: buf.length, sha256: createHash("sha256").update(buf).digest() });
  const through: Env = { ...env, contents: new Map([...env.contents, [path, buf]]) };
  return [...environmentFile(path, seen, through), ...settings(path, undefined, seen, through)].map((m) => ({
    ...m,
    text: `through its link to ${clip(resolved, 200)}: ${m.text}`,
  }));
}

/** Services' option files: their values go on root daemons' command lines (useradd's and grub's are read as what they are). */
const DAEMON_OPTIONS_FILE = /^\/etc\/(?:(?:default|sysconfig|conf\.d)\/(?!useradd$|grub$)[^/]+|apache2\/envvars)$/;

/**
 * A link in scratch space that leads into the system or a home: whatever root
 * later writes at that well-known name (a log, a lock, a temp file) lands
 * where the link points, and protected_symlinks does not stop root following
 * root's own link.
 */
function scratchLink(path: string, after: EntryState): Mark[] {
  if (kindOf(after) !== SYMLINK || !scratch(path)) return [];
  const target = posix.normalize(after.target.startsWith("/") ? after.target : posix.join(posix.dirname(path), after.target));
  if (scratch(target) || target === "/dev/null") return [];
  if (systemPath(target) || inside(target, "/home") || target === "/" || runsLater(target))
    return [mark(4, `a link in scratch space to ${clip(target, 200)}: what root writes at ${clip(path, 200)} would land there`)];
  return [];
}

/**
 * A link in root's home to a place a user may write (a home, scratch space,
 * a relative path that climbs out): root reads its dot-files there as its
 * own configuration (~/.config/git, ~/.npmrc, ~/.local/bin …).
 */
function rootHomeLink(path: string, after: EntryState): Mark[] {
  if (kindOf(after) !== SYMLINK || !inside(path, "/root") || path === "/root") return [];
  const target = posix.normalize(after.target.startsWith("/") ? after.target : posix.join(posix.dirname(path), after.target));
  if (rootOwnedPlace(target) || target === "/dev/null") return [];
  return [mark(4, `a link in root's home to ${clip(target, 200)}, which a user other than root may write: root would read it as its own`)];
}

/** A firewall, audit, confinement or update service's unit or its enablement link. */
export const SECURITY_UNIT =
  /\/systemd\/(system|user)\/(.+\.(wants|requires)\/)?(nftables|ufw|firewalld|netfilter-persistent|iptables|ip6tables|apparmor|auditd|fail2ban|unattended-upgrades|apt-daily-upgrade|agent-sudo[^/]*)\.(service|timer)$/;

/**
 * A security service's unit replaced (a file or a link of the same name in
 * /etc or /run shadows the vendor's) or changed through a drop-in (`ExecStart=`
 * emptied, a Condition that never holds): it no longer runs as it should.
 * Enablement links in .wants/ and a link to the vendor's own file are not.
 */
function replacesSecurityUnit(path: string, after: EntryState): string | null {
  if (SECURITY_DROPIN.test(path)) return "a drop-in of a security service: it changes how (or whether) it runs";
  if (!SECURITY_UNIT.test(path) || /\.(wants|requires)\//.test(path)) return null;
  const vendor =
    kindOf(after) === SYMLINK &&
    /^\/(usr\/)?lib\/systemd\/(system|user)\/[^/]+$/.test(after.target) &&
    posix.basename(after.target) === posix.basename(path);
  return vendor ? null : "replaces a security service's unit with another";
}

/** A drop-in directory's entries of a firewall, audit, confinement or update service (or agent-sudo's). */
const SECURITY_DROPIN =
  /\/systemd\/(system|user)\/(nftables|ufw|firewalld|netfilter-persistent|iptables|ip6tables|apparmor|auditd|fail2ban|unattended-upgrades|apt-daily-upgrade|agent-sudo[^/]*)\.(service|timer)\.d\/./;

/** Homes and the directories that hold keys: closed to others on purpose. */
const PRIVATE_DIR = /^\/(?:root|home\/[^/]+)$|\/\.(?:ssh|gnupg|aws|kube|docker|password-store)$/;
/** The audit log and the records of who logged in. */
const LOGIN_RECORDS = /^\/var\/log\/(?:audit\/.+|journal\/.+\.journal|auth\.log|secure|wtmp|btmp|lastlog|faillog)$/;

/** A service's private temporary directory (systemd's PrivateTmp): no one else's to change. */
const SERVICE_TMP = /^\/(tmp|var\/tmp)\/systemd-private-[^/]+(\/|$)/;
/** Files that hold secrets by what they are, wherever the secret lists stop: swap, Kerberos caches. */
const PRIVATE_BY_NATURE = /^\/(swapfile|swap\.img)$|\/krb5cc_[^/]*$/;

/**
 * What a change opens that was closed: a service's private temporary
 * directory, a sticky directory made non-sticky (anyone may then delete or
 * replace others' files in it), a secret file made readable by its group or
 * everyone.
 */
function exposes(path: string, before: EntryState | undefined, after: EntryState): Mark[] {
  if (SERVICE_TMP.test(path)) return [mark(4, `${path}: a service's private temporary directory`)];
  if (before && kindOf(before) === DIR && kindOf(after) === DIR && before.mode & 0o1000 && !(after.mode & 0o1000))
    return [mark(4, `removes the sticky bit of ${path}: anyone who may write it may then delete or replace others' files there`)];
  const opened = after.mode & ~(before?.mode ?? 0) & 0o044;
  if (before && kindOf(before) === DIR && kindOf(after) === DIR && opened && PRIVATE_DIR.test(path))
    return [mark(3, `opens ${path}, a home or a directory of keys, to ${opened & 0o004 ? "everyone" : "its group"}`)];
  const secret = secretPath(path) || PRIVATE_BY_NATURE.test(path);
  if (before && kindOf(before) === FILE && kindOf(after) === FILE && opened && secret)
    return [mark(4, `makes ${path}, a secret, readable by ${opened & 0o004 ? "everyone" : "its group"}`)];
  // A secret handed to another owner, or to another group that may read it (a key given to a service's user): a quorum's decision.
  if (
    before &&
    kindOf(before) === FILE &&
    kindOf(after) === FILE &&
    secret &&
    (after.uid !== before.uid || (after.gid !== before.gid && after.mode & 0o040))
  )
    return [mark(3, `hands ${path}, a secret, to ${after.uid !== before.uid ? `uid ${after.uid}` : `gid ${after.gid}`}`)];
  return [];
}

/** Only permissions taken away (`chmod 700 ~bob/.ssh`): same kind, content, target, owner and group, no bit added. */
function narrows(before: EntryState | undefined, after: EntryState): boolean {
  if (!before || kindOf(before) !== kindOf(after) || contentChanged(before, after) || before.target !== after.target) return false;
  return before.uid === after.uid && before.gid === after.gid && (after.mode & ~before.mode & 0o7777) === 0 && before.mode !== after.mode;
}

/** Who besides root may read this file: everyone (o+r), its non-root group (g+r), its non-root owner. */
function readers(s: EntryState): "everyone" | "others" | null {
  if (s.mode & 0o004) return "everyone";
  return (s.mode & 0o040 && s.gid !== 0) || s.uid !== 0 ? "others" : null;
}

/** Secret material in a file's text: private keys, password hashes as /etc/shadow holds them, service tokens. */
/**
 * Secret material in a file's text: a private key with its body (a PEM
 * header alone is code or documentation), a PuTTY key, password hashes as
 * /etc/shadow holds them (a locked account's `!` before the hash included).
 */
const KEY_MATERIAL =
  /-----BEGIN ([A-Z0-9 ]*)PRIVATE KEY(?: BLOCK)?-----(?:\r?\n|\\n)(?:[A-Za-z-]+: [^\n]*(?:\r?\n|\\n))*\s*[A-Za-z0-9+/=]{40,}|^PuTTY-User-Key-File-\d+:/m;
/** Password hashes as /etc/shadow holds them (a locked account's `!` before the hash included). */
const PASSWORD_HASHES = /^[A-Za-z0-9._-]+:[!*]*\$(?:1|2[abxy]?|5|6|7|y|gy|sha1|md5)\$[^:\s]{8,}/m;
/** A run of base64 or hex long enough to carry a key or a hash: a count or a report of names has none. */
const ENCODED_RUN = /[A-Za-z0-9+/=$._-]{20,}/;
/** Service tokens by their own prefix (a generic `sk-…` is too common in text to count). */
const TOKEN_KINDS = new Set(["github-token", "gitlab-token", "slack-token", "aws-access-key", "stripe-key", "google-api-key"]);

function secretMaterial(buf: Buffer): string | null {
  // latin1: every byte is one character, so a key inside a binary file is found as well.
  const text = buf.toString("latin1");
  if (PASSWORD_HASHES.test(text)) return "password hashes";
  if (KEY_MATERIAL.test(text)) return "a private key";
  // AWS's documented example ids (AKIAIOSFODNN7EXAMPLE) fill docs and SDKs' tests.
  const token = findCredentials(text).find((h) => TOKEN_KINDS.has(h.kind) && !text.slice(h.start, h.end).endsWith("EXAMPLE"));
  return token ? `a credential (${token.kind})` : null;
}

/**
 * A file this run wrote that others may read, holding secret material (a
 * copy of /etc/shadow or of a private key left world-readable): refused. When
 * the command reads a secret and what it wrote cannot be checked here (no
 * content given, or not text: an archive, a compressed or encoded copy), a
 * quorum decides.
 */
function leaks(path: string, before: EntryState | undefined, after: EntryState, env: Env): Mark[] {
  if (kindOf(after) !== FILE) return [];
  // The command's workspace holds the caller's own files (a test key, a fixture) — unless the command read a secret.
  if (!env.readsSecret && env.pathCtx.workspace.some((w) => inside(path, w))) return [];
  const who = readers(after);
  if (who === null) return [];
  const prev = before && kindOf(before) === FILE ? before : undefined;
  if (prev && !contentChanged(prev, after) && readers(prev) === who && prev.uid === after.uid && prev.gid === after.gid) return [];
  const buf = env.contents.get(path);
  const given = buf !== undefined && createHash("sha256").update(buf).digest().equals(Buffer.from(after.sha256));
  const found = given ? secretMaterial(buf) : null;
  const readable = who === "everyone" ? "everyone" : "a user other than root";
  // Refused when everyone may read what the command read, or password hashes; a key or token that arrived with a
  // tree (a project's test keys, checked out 0644) is a quorum's decision.
  if (found)
    return [
      mark(
        who === "everyone" && (env.readsSecret || found === "password hashes") ? 4 : 3,
        `leaves ${found} in ${clip(path, 200)}, readable by ${readable}`,
      ),
    ];
  // A transform of what it read (base64, cut, an archive, a compressed copy) carries the secret past any pattern;
  // a text with no run long enough to hold a key or a hash (a count, a list of names) does not.
  const text = given ? textOf(buf) : null;
  if (env.readsSecret && (text === null || ENCODED_RUN.test(text)))
    return [
      mark(
        3,
        `the command ${clip(env.readsSecret, 200)} and writes ${clip(path, 200)}, readable by ${readable}: what it read may be in it`,
      ),
    ];
  return [];
}

/**
 * Runtime and spool places outside the workspace (/run, /var/spool, the
 * audit log): what daemons read as root, at least a quorum's decision even
 * where no runs-later entry names the file.
 */
function runtimePlace(path: string, kind: EntryKind | null, ctx: Context, narrowing: boolean): Mark[] {
  if (narrowing || ctx.workspace.some((w) => inside(path, w))) return [];
  // A daemon's own pid file, socket, lock or runtime directory is what starting it leaves.
  if (RUNTIME.test(path) && kind !== DIR && !RUNTIME_OWN.test(path))
    return [mark(3, `${clip(path, 200)}: a runtime, spool or snap place what root runs reads`)];
  if (OTHER_HOME.test(path) && !HOME_CACHE.test(path))
    return [mark(3, `${clip(path, 200)}: a home's start-up or tool configuration: what its user runs later`)];
  return [];
}

const RUNTIME = /^\/(?:run|var\/run|var\/spool|var\/log\/audit|snap)(?:\/|$)/;
const RUNTIME_OWN = /\.(?:pid|sock|socket|lock)$|^\/(?:var\/)?(?:run|lock)\/lock\/|^\/run\/user\/[1-9][0-9]*\//;
/** Download and build caches: data a tool fetches again, no start-up code (pre-commit's cache holds hook repositories). */
const HOME_CACHE =
  /^\/home\/[^/]+\/(?:\.cache\/(?!pre-commit)|\.npm\/_cacache\/|\.m2\/repository\/|\.gradle\/caches\/|\.cargo\/(?:registry|git)\/)/;
/** A home's dot-files and directories, and the program directories tools put on its user's PATH. */
const OTHER_HOME = /^\/home\/[^/]+\/(?:\.[^/]+|go\/bin|bin)(?:\/|$)/;

/** The guarded tree this change is in, or the one it removes, replaces or opens to other writers from above. */
function guardedBy(path: string, c: Change, guarded: readonly string[]): string | undefined {
  const own = guarded.find((g) => inside(path, g));
  if (own) return own;
  const above = guarded.find((g) => inside(g, path));
  if (!above) return undefined;
  const before = kindOf(c.before) === DIR ? c.before : undefined;
  return kindOf(c.after) !== DIR || [...writers(c.after)].some((w) => !writers(before).has(w)) ? above : undefined;
}

/** A new setuid/setgid bit on a regular file, or a set-id program whose content or owner changed. */
function setId(before: EntryState | undefined, after: EntryState): Mark[] {
  const bits = after.mode & 0o6000;
  if (kindOf(after) !== FILE || bits === 0) return [];
  const name = bits & 0o4000 ? "setuid" : "setgid";
  const prev = before && kindOf(before) === FILE ? before : undefined;
  if (bits & ~(prev?.mode ?? 0))
    return [mark(4, `a new ${name} bit (mode ${after.mode.toString(8)}, owner ${after.uid}): a program that runs with its owner's rights`)];
  if (prev && (contentChanged(prev, after) || prev.uid !== after.uid || prev.gid !== after.gid))
    return [mark(4, `changes the content or owner of a ${name} program`)];
  return [];
}

/** File capabilities are privilege; ACLs, trusted.* and security.* labels change who may do what. */
function xattrs(path: string, before: EntryState | undefined, after: EntryState): Mark[] {
  const had = new Set(before?.xattrs ?? []);
  const added = after.xattrs.filter((x) => !had.has(x));
  if (added.includes("security.capability"))
    return [mark(4, "adds file capabilities (security.capability): privilege without a setuid bit")];
  // An ACL names other users who may write (or read) the entry; its content is not in the manifest, and the mode's
  // group bits show only its mask. On root's trees (a place root runs later, its configuration, programs, home) it
  // may hand /etc/cron.d, /usr/local/bin or /etc/profile.d to the agent.
  const acl = added.find((x) => /^system\.posix_acl_(access|default)$/.test(x));
  if (acl && (ROOT_TREES.test(path) || runsLater(path) || (kindOf(after) === DIR && holdsRunsLater(path))))
    return [mark(4, `adds an ACL (${acl}) to ${clip(path, 200)}: other users may then change what root keeps or runs later`)];
  // trusted.* is the namespace of privileged subsystems (overlayfs' opaque, redirect, metacopy and whiteout markers,
  // which decide what a container or mirror built on the directory shows): no admin command sets it outside scratch space.
  const trusted = added.find((x) => x.startsWith("trusted."));
  if (trusted && !scratch(path))
    return [
      mark(4, `adds ${clip(trusted, 100)} to ${clip(path, 200)}: privileged subsystems' metadata (overlayfs' redirects and whiteouts)`),
    ];
  return added.length > 0 ? [mark(3, `adds extended attributes ${clip(added.join(", "), 200)}`)] : [];
}

/** Root's own trees: configuration, programs, libraries, boot files, root's home, spools. */
const ROOT_TREES = /^\/(etc|usr|opt|boot|root|var\/spool|var\/lib|lib[^/]*|bin|sbin)?(\/|$)/;

/** Who besides root may change this entry: a non-root owner (it can chmod), a non-root group with g+w, everyone with o+w. */
function writers(s: EntryState | undefined): Set<string> {
  const out = new Set<string>();
  if (!s || kindOf(s) === ABSENT || kindOf(s) === SYMLINK) return out;
  if (s.uid !== 0) out.add(`uid ${s.uid}`);
  if (s.mode & 0o020 && s.gid !== 0) out.add(`gid ${s.gid}`);
  if (s.mode & 0o002) out.add("everyone");
  return out;
}

/** A file or directory whose content root runs later, or a top-level system tree, newly writable by someone else. */
function newWriters(path: string, before: EntryState | undefined, after: EntryState, env: Env): Mark[] {
  const had = writers(before);
  const who = [...writers(after)].filter((w) => !had.has(w));
  if (who.length === 0) return [];
  const dir = kindOf(after) === DIR;
  const r = dir ? runsLater(`${path === "/" ? "" : path}/x`) : runsLater(path);
  if (r?.asRoot) return [mark(4, `lets ${who.join(", ")} change what root runs later (${r.what})`)];
  // A file anyone may rewrite where root keeps configuration, programs and data: whatever reads it as root obeys them.
  if (!dir && who.includes("everyone") && /^\/(etc|usr|opt|boot|root|var\/spool)\//.test(path))
    return [mark(4, `lets everyone rewrite ${clip(path, 200)}, where root keeps configuration, programs and data`)];
  if (dir && holdsRunsLater(path))
    return [mark(4, `lets ${who.join(", ")} rename or replace a directory below it whose files root runs later`)];
  if (dir && /^\/(root|home\/[^/]+)(\/\.[^/]+)?$/.test(path))
    return [mark(4, `lets ${who.join(", ")} change a home's start-up files: what its user runs later`)];
  if (dir && !inside(path, "/home") && catastrophicTree(resolvePlace(literalWord(path), env.pathCtx), false)) {
    return [mark(4, `lets ${who.join(", ")} change a top-level system tree`)];
  }
  return [];
}

function needsContent(before: EntryState | undefined, after: EntryState): boolean {
  if (!before || kindOf(before) !== FILE) return true;
  return contentChanged(before, after) || (after.mode & ~before.mode & 0o111) !== 0;
}

/** A file whose content runs later: judged by that content (max with its path), a link by what it points at. */
function laterRuns(path: string, before: EntryState | undefined, after: EntryState, env: Env): Mark[] {
  const kind = kindOf(after);
  if (kind === DIR) return [];
  const r = runsLater(path);
  if (!r) {
    // A link in place of a directory whose files run later (`/run/udev/rules.d` → a user's directory): its target is that directory.
    const inner = kind === SYMLINK ? runsLater(`${path}/x`) : null;
    if (!inner) return [];
    return [mark(3, `a link in place of a directory whose files run later (${inner.what})`), ...linkTarget(path, after.target, inner, env)];
  }
  if (r.format === "refuse") return [mark(4, `${r.what}: any change here is refused`)];
  if (kind === SYMLINK) return [mark(3, `a link in a place that runs later (${r.what})`), ...linkTarget(path, after.target, r, env)];
  const format = contentFormat(r, path, after.mode);
  // Python puts a script's own directory first on its module path: a module beside root's python programs
  // (/usr/sbin/argparse.py) is imported by them in place of the standard library's, executable or not.
  if (format === null && r.format === "program" && r.asRoot && /\.(?:py[cw]?|pth)$/.test(path))
    return [mark(4, `${path}: a Python module beside root's programs, imported by them before the standard library's`)];
  if (format === null) return [];
  const floor = mark(3, `a file whose content runs later (${r.what})`);
  return needsContent(before, after) ? [floor, ...readContent(path, after, format, env, r.asRoot)] : [floor];
}

/**
 * A file in root's trees that no runs-later entry names, read for what is code in any format (unlisted-content.ts).
 * Content not given (or not the manifest's) is left to where it is linked, included or run from (host-target.ts).
 */
function unlisted(path: string, before: EntryState | undefined, after: EntryState, env: Env): Mark[] {
  if (kindOf(after) !== FILE || runsLater(path) || !needsContent(before, after)) return [];
  const buf = env.contents.get(path);
  if (!unlistedPlace(path, after.mode, buf)) return [];
  if (!buf || !createHash("sha256").update(buf).digest().equals(Buffer.from(after.sha256))) return [];
  // As sh takes it (review 49): a NUL after the first line, or bytes that are not UTF-8, do not stop a script.
  return binaryBytes(buf) ? [] : unlistedMarks(path, asLines(scriptText(buf)), after.mode, env.unlistedContent);
}

/** A file read by key (settings-files.ts): its text when given and the manifest's, else null. */
function settings(path: string, before: EntryState | undefined, after: EntryState, env: Env): Mark[] {
  if (kindOf(after) !== FILE || !needsContent(before, after)) return [];
  const buf = env.contents.get(path);
  const given = buf !== undefined && createHash("sha256").update(buf).digest().equals(Buffer.from(after.sha256));
  return settingsMarks(path, given ? textOf(buf) : null, env.content);
}

/** The content given for `path`, checked against the manifest's sha256 and read in `format`. */
function readContent(path: string, after: EntryState, format: Format, env: Env, asRoot: boolean, at = path): Mark[] {
  const buf = env.contents.get(path);
  if (!buf || !createHash("sha256").update(buf).digest().equals(Buffer.from(after.sha256))) {
    return [mark(4, "content not given: cannot judge what runs later")];
  }
  const text = textOf(buf);
  if (text === null) return [mark(4, "content is not UTF-8 text: cannot judge what runs later")];
  if (format === "refuse") return [mark(4, "any change here is refused")];
  const judge = asRoot ? env.content : env.userContent;
  const found = READERS[format](text, judge, path);
  // A unit replacing or extending one on the host: what it leaves out of the host's protections.
  if (format === "systemd" && asRoot)
    for (const weak of hostUnitWeakened(at, text, env.unitRoot))
      found.push(mark(4, `${weak} — a protection of the unit on the host, left out or weakened`));
  if (format === "systemd" && asRoot) found.push(...hostEnvironmentFiles(text));
  // A last net under the parsers of data formats: the danger vetoes over the whole text.
  const hit = format === "script" || format === "program" || format === "rc" ? null : judge.veto(text, "content");
  return hit ? [...found, hit] : found;
}

const READERS: Record<Exclude<Format, "refuse">, Reader> = { ...CONTENT_READERS, ...CONFIG_READERS };

/**
 * Lines as systemd reads them: its read_line (units, drop-ins, udev rules, tmpfiles, sysctl, binfmt, sysusers) and its
 * environment-file parser end a line at a lone CR too, so `# note\rExecStart=/tmp/x` is a setting there. Every
 * reader here gets CR as a line end: a parser that keeps CR inside a line (a shell, cron) then only shows the judge more.
 */
function asLines(text: string): string {
  return text.replace(/\r\n?/g, "\n");
}

function textOf(buf: Buffer): string | null {
  try {
    const text = new TextDecoder("utf-8", { fatal: true }).decode(buf);
    return text.includes("\0") ? null : asLines(text);
  } catch {
    return null;
  }
}

/** A link where something runs later runs its target: a file of this run is read as that content; anything else must be root's. */
function linkTarget(path: string, target: string, r: RunsLater, env: Env): Mark[] {
  if (!target) return [mark(4, "a link without a target")];
  const resolved = posix.normalize(target.startsWith("/") ? target : posix.join(posix.dirname(path), target));
  if (resolved === "/dev/null") return [];
  const changed = env.changes.get(resolved);
  const after = changed?.after;
  if (after && kindOf(after) === FILE) {
    const format = contentFormat(r, path, after.mode);
    if (format === null) return [];
    return readContent(resolved, after, format, env, r.asRoot, path).map((m) => ({ ...m, text: `its target ${resolved}: ${m.text}` }));
  }
  if (!rootOwnedPlace(resolved))
    return [mark(4, `links to ${clip(resolved, 200)}, not a place only root can change: what runs later is not judged`)];
  // Review 47: a root-owned file outside the table (`/etc/foo/p`, `/usr/share/foo/job`, written earlier at tier 3
  // where no judge reads content) was trusted as a target, so any content reached cron.d, a unit or profile.d
  // through a link. What the host holds there is judged as this place's content (host-target.ts); a binary, a
  // directory or a name not there yet only in a tree packages own or a place judged as this kind of later code.
  const host = hostTarget(resolved);
  if (host.kind === "text") {
    const format = contentFormat(r, path, 0o755);
    if (format === null) return [];
    const buf = Buffer.from(host.text);
    const seen: EntryState = EntryState.create({
      kind: EntryKind.ENTRY_KIND_FILE,
      mode: 0o755,
      size: buf.length,
      sha256: createHash("sha256").update(buf).digest(),
    });
    const withHost: Env = { ...env, contents: new Map([...env.contents, [resolved, buf]]) };
    return readContent(resolved, seen, format, withHost, r.asRoot, path).map((m) => ({
      ...m,
      text: `its target ${resolved} on this host: ${m.text}`,
    }));
  }
  if (host.kind === "unreadable") return [mark(4, `links to ${clip(resolved, 200)}, which the classifier cannot read here`)];
  const judgedThere = (p: string) => runsLater(p)?.format === r.format;
  const packaged = PACKAGED.test(host.path) && host.kind !== "missing";
  if (!packaged && !judgedThere(resolved) && !judgedThere(`${resolved}/x`))
    return [mark(4, `links to ${clip(resolved, 200)}, which no judge read as what runs here (${host.kind}, not a packaged tree's)`)];
  // A link in place of a unit to another unit file on the host (`demo.service` → a vendor's laxer unit).
  if (r.format === "systemd" && r.asRoot)
    return hostLinkWeakened(path, resolved, env.unitRoot).map((w) =>
      mark(4, `its target ${clip(resolved, 200)}: ${w}, against the host's unit`),
    );
  return [];
}

/** Many entries deleted directly in a system tree or home: `rm -rf /root/*` leaves /root but is as bad as deleting it. */
function massDeletes(changes: readonly Change[], ctx: Context): Mark[] {
  const counts = new Map<string, number>();
  for (const c of changes) {
    if (kindOf(c.after) !== ABSENT || kindOf(c.before) === ABSENT || !canonicalPath(c.path) || c.path === "/") continue;
    const dir = posix.dirname(c.path);
    counts.set(dir, (counts.get(dir) ?? 0) + 1);
  }
  const out: Mark[] = [];
  for (const [dir, n] of counts) {
    const place: Place = resolvePlace(literalWord(dir), ctx);
    if (n >= MASS_DELETE && catastrophicTree(place, false))
      out.push(mark(4, `rm -r ${dir === "/" ? "" : dir}/*: deletes ${n} entries directly in ${dir}, a system tree or home`));
  }
  return out;
}

/** Parts whose code is only known when they run (`curl … | sh`, `eval "$x"`, `$cmd`): a guess is no judgement of what runs unattended later. */
function runTimeCode(p: PartVerdict, root = false): boolean {
  // Inline code (`python3 -c …`, `perl -e …`, an @argfile) is judged in the sandbox when run now; run later by root,
  // unattended, no run of it was ever judged.
  const inline = root
    ? /piped into|computed at run time|runs inline code|reads its options from a file/
    : /piped into|computed at run time/;
  return p.rule === "dynamic-command" || (p.rule.startsWith("interpreter:") && inline.test(p.reason));
}

/**
 * What root runs later runs outside every envelope: a script or sourced file
 * it names must be where only root writes (not /tmp, a home, a path computed
 * when it runs), and not a file this same run writes as data (its text was
 * judged as a file, never as the code root will run). One already on the
 * host outside the packaged trees and the judged places is read and judged
 * as root's code (host-references.ts, `depth` scripts deep).
 */
function rootLaterScript(
  changes: ReadonlyMap<string, Change>,
  hostCode?: (depth: number) => ContentJudge,
  depth = 0,
): NonNullable<Context["laterScript"]> {
  const refuse = (reason: string): Finding => ({ tier: 4, rule: "later-script", reason, text: "", explicit: false });
  return (path) => {
    if (path === null) return refuse("runs a script whose path is only known when it runs: what root runs later is not judged");
    // An entry directly in / is root's alone (only root writes /): cron's and a unit's relative names resolve there.
    if (!rootOwnedPlace(path) && !/^\/[^/]+$/.test(path))
      return refuse(`runs ${clip(path, 200)}, which a user other than root may write: root would run their code later`);
    if (!runsLater(path) && writtenBy(path, changes))
      return refuse(`runs ${clip(path, 200)}, which this same run writes as data: its text is not judged as the code root runs later`);
    const host = hostCode ? hostScript(path, depth, hostCode) : null;
    return host ? refuse(host.text) : null;
  };
}

/**
 * Later code that hands a shell or the file system to whoever connects: a
 * netcat or socat that executes a program per connection, a one-line HTTP
 * or TLS file server, an inetd-style daemon, a second sshd with options. As
 * an /exec command these run in a trial without a network; as a unit's or
 * cron's line they run as root on the host's.
 */
const NETWORK_SHELL =
  /(?:^|[\s/;&|(`'"])(?:socat\s[^\n;&|]*\b(?:EXEC|SYSTEM):|(?:nc|ncat|netcat|nc\.traditional|nc\.openbsd)\s(?:[^\n;&|]*\s)?(?:-[a-zA-Z]*[ec]|--(?:sh-|lua-)?exec)(?=[\s=]|$)|python[0-9.]*\s+-m\s+(?:http\.server|SimpleHTTPServer)\b|php[0-9.]*\s+-S\s|ruby\s+-run\s|openssl\s+s_server\s|(?:in\.)?telnetd\b|busybox\s+(?:httpd|telnetd|nc)\s|sshd\s[^\n;&|]*\s-[of](?=[\s=]|$))/;

/**
 * Later root code whose command runs, builds, installs or copies something it
 * takes from a place users write (/tmp, /var/tmp, /dev/shm, homes, /run/user):
 * `run-parts /tmp/d`, `make -C /tmp/x`, `dpkg -i /tmp/x.deb`, `pip install
 * /tmp/x`, `crontab /tmp/x`, `systemctl link /tmp/x.service`, `install|cp|rsync
 * /tmp/x /usr/local/bin/`, `tar -xf /tmp/x.tar -C /`, `update-alternatives --install
 * /usr/bin/editor editor /var/tmp/x 9`. The path is an operand,
 * not the program, so the later-script check does not see it.
 */
const USER_INPUT =
  /(?:^|[\s;&|(`'"/])(?:run-parts|make|gmake|mount|dd|dpkg|apt|apt-get|pip[0-9.]*|pipx|npm|gem|cargo|crontab|systemctl|install|cp|rsync|mv|ln|tar|unzip|cpio|patch|insmod|modprobe|kexec|ansible-playbook|docker|podman|logrotate|at|batch|openvpn|ssh|scp|sftp|sed|git|zip|busybox|vim?|nvim|ex|runuser|xargs|update-alternatives|alternatives)\s(?:[^\n;&|#]*\s)?(?:-*[A-Za-z][^\s=]*=)?['"]?[!|]?(?:\/tmp|\/var\/tmp|\/dev\/shm|\/run\/user|\/run\/lock|\/var\/lock|\/var\/crash|\/var\/mail|\/home|~[a-z_][^\s/]*)(?:\/|\s|['"]|$)/;

/** USER_INPUT over `text` with `//`, `/./` and `dir/..` folded, and after a `cd` into a user's place (then relative operands are theirs). */
function userInput(text: string): RegExpExecArray | null {
  let t = text.replace(/\/(?:\.?\/)+/g, "/");
  for (let prev = ""; prev !== t; ) {
    prev = t;
    t = t.replace(/\/(?!\.\.\/)[^/\s'"]+\/\.\.(?=\/)/g, "");
  }
  // Above / is / (`/../../tmp` is /tmp). A variable right before an absolute path may be empty (unset, or an
  // UnsetEnvironment=; systemd and the shell put in nothing): `${X}/tmp/x` may be /tmp/x.
  t = t.replace(/\$+\{?[A-Za-z_][A-Za-z0-9_]*\}?(?=\/)/g, "").replace(/(^|[^A-Za-z0-9_.~-])\/(?:\.\.\/)+/g, "$1/");
  const hit = USER_INPUT.exec(t) ?? COMPUTED_INPUT.exec(text) ?? userPlaceAssignment(t);
  if (hit) return hit;
  const cd = /(?:^|[\s;&|(])cd\s+['"]?(?:\/tmp|\/var\/tmp|\/dev\/shm|\/run\/user|\/home|~[a-z_]*)(?:\/|\s|['"]|$)/.exec(t);
  return cd && USER_INPUT_COMMAND.test(t.slice(cd.index)) ? cd : null;
}

/**
 * The same commands with an operand spelled from pieces only known when it runs: a variable glued to a letter, a
 * digit or another variable (`A=/t; B=mp; install $A$B/x /opt/x`, `run-parts ${D}p/d`, `/t$X/x`) or standing for the
 * first directory (`/$T/x`) — the pieces may spell /tmp or a home, which the literal check above never sees.
 * `$(date +%F)` and a variable that is a whole word or a whole directory (`$SRC`, `${DIR}/x`) are not pieces.
 */
const COMPUTED_INPUT =
  /(?:^|[\s;&|(`'"/])(?:run-parts|make|gmake|mount|dd|dpkg|apt|apt-get|pip[0-9.]*|pipx|npm|gem|cargo|crontab|systemctl|install|cp|rsync|mv|ln|tar|unzip|cpio|patch|insmod|modprobe|kexec|ansible-playbook|docker|podman)\s[^\n;&|#]*?(?:[A-Za-z0-9_]\$\{?[A-Za-z_]|\$\{[A-Za-z_]\w*\}[A-Za-z0-9_$]|\$[A-Za-z_]\w*\$|(?<=[\s'"=])\/\$\{?[A-Za-z_])/;

/**
 * A variable set for a command (or the rest of the line) to a value in a user's place: `GIT_SSH=/tmp/x git fetch`,
 * `LESSOPEN='|/tmp/x %s' less f`, `D=/tmp; run-parts $D` — programs take programs, modules and configuration from
 * such variables. Temporary-directory variables aside.
 */
function userPlaceAssignment(t: string): RegExpExecArray | null {
  for (const m of t.matchAll(
    /(?:^|[\s;&|(])([A-Za-z_][A-Za-z0-9_]*)=(['"]?[|]?(?:\/tmp|\/var\/tmp|\/dev\/shm|\/run\/user|\/home|~[a-z_][^\s/]*)(?:[/:\s'"]|$))/g,
  ))
    if (!/^(TMPDIR|TMP|TEMP|TEMPDIR)$/.test(m[1] as string)) return m as RegExpExecArray;
  return null;
}

/** The commands of USER_INPUT, as a word anywhere after a `cd`. */
const USER_INPUT_COMMAND =
  /(?:^|[\s;&|(`'"/])(?:run-parts|make|gmake|mount|dd|dpkg|apt|apt-get|pip[0-9.]*|pipx|npm|gem|cargo|crontab|systemctl|install|cp|rsync|mv|ln|tar|unzip|cpio|patch|insmod|modprobe|kexec|ansible-playbook|docker|podman|logrotate|at|batch|openvpn|ssh|scp|sftp|sed|git|zip|busybox|vim?|nvim|ex|runuser|python[0-9.]*|perl|ruby|node|xargs)(?=[\s;&|)]|$)/;

/** The diff writes `path`, or a link on the way to it. */
function writtenBy(path: string, changes: ReadonlyMap<string, Change>): boolean {
  if (changes.has(path)) return true;
  for (let d = posix.dirname(path); d !== "/"; d = posix.dirname(d)) if (kindOf(changes.get(d)?.after) === SYMLINK) return true;
  return false;
}

/**
 * Later root code that hands the host away, or runs what a user may write, in forms the command judge reads as ordinary:
 * a download piped into a shell or an interpreter, awk's system()/getline/print-to-file and -f programs, a container handed the host (--privileged, host namespaces,
 * dangerous capabilities, devices, the root fs, /etc, the docker socket), tcpdump's -z, script -c, capsh's -- (a shell),
 * tar's checkpoint actions and command options, man's pager or browser from a user's place, interpreters and
 * deployment tools (R, julia, tclsh, expect, kubectl, helm, terraform, ansible …) taking a file from a user's place.
 */
const LATER_HAZARD =
  /(?:^|[\s;&|(`'"/])(?:(?:curl|wget|fetch|aria2c|lynx|links|w3m)\s[^\n;&]*\|\s*(?:\S*\/)?(?:(?:ba|da|z|k|mk|a)?sh|python[0-9.]*|perl|ruby|node|php)\b|(?:g|m|n)?awk\s[^\n]*?(?:\bsystem\s*\(|\|\s*getline|print[f]?\b[^;}\n]*[|>]|"\s*\||\s-f\s)|(?:docker|podman|nerdctl)\s(?:[^\n;&|]*\s)?(?:run|create|exec)(?=\s)[^\n;&|]*?(?:\s--privileged\b|\s--(?:pid|ipc|userns|uts)[=\s]host\b|\s--cap-add[=\s](?:ALL|SYS_ADMIN|SYS_MODULE|SYS_RAWIO|SYS_PTRACE|DAC_READ_SEARCH)\b|\s--device\b|\s(?:-v|--volume|--mount)[=\s]+['"]?(?:[^\s'"]*?(?:source|src)=)?\/+(?:(?:etc|boot|root|usr|dev|proc|sys|var\/lib\/docker|var\/run\/docker\.sock|run\/docker\.sock)(?=[/:,\s'"]|$)|(?=[:,\s'"]|$)))|tcpdump(?=\s)[^\n;&|]*\s-z\s+['"]?(?!(?:gzip|bzip2|xz|zstd|\/usr\/s?bin\/|\/s?bin\/)\S*)|script(?=\s)[^\n;&|]*\s(?:-c|--command)[=\s]|capsh(?=\s)[^\n;&|]*\s--\s|tar(?=\s)[^\n;&|]*--(?:checkpoint-action|to-command|use-compress-program|rsh-command|info-script|new-volume-script)[=\s]|man\s(?:[^\n;&|]*\s)?(?:-P|--pager|-H|--html)[=\s]*['"]?(?:\/tmp|\/var\/tmp|\/dev\/shm|\/run\/user|\/home|~[a-z_][^\s/]*)|(?:R|Rscript|julia|tclsh|wish|expect|guile|octave|gnuplot|pwsh|groovy|jshell)\s(?:[^\n;&|]*\s)?['"]?(?:\/tmp|\/var\/tmp|\/dev\/shm|\/run\/user|\/home|~[a-z_][^\s/]*)|(?:kubectl|helm|terraform|ansible|ansible-playbook|packer|vagrant)\s(?:[^\n;&|]*[\s=])?['"]?(?:\/tmp|\/var\/tmp|\/dev\/shm|\/run\/user|\/home|~[a-z_][^\s/]*))/;

function contentJudge(engine: ManifestEngine, host: HostId, pathCtx: Context, laterScript?: Context["laterScript"]): ContentJudge {
  const shown = (p: PartVerdict | undefined) => (p ? ` — \`${clip(p.text.replace(/\s+/g, " "), 80)}\`` : "");
  const laterCode = (text: string, label: string): Mark => {
    if (text.trim() === "") return mark(0, `${label}: empty`);
    const listener = NETWORK_SHELL.exec(text);
    if (listener) return mark(4, `${label}: opens a shell or the file system to the network, unattended (\`${clip(listener[0], 80)}\`)`);
    const taken = laterScript ? userInput(text) : null;
    if (taken) return mark(4, `${label}: root later runs, installs or copies what a user may write (\`${clip(taken[0], 80)}\`)`);
    const v = engine.judgeCode(text, host, laterScript);
    const later = v.tier < 4 ? v.parts.find((p) => runTimeCode(p, laterScript !== undefined)) : undefined;
    if (later)
      return mark(4, `${label}: code only known when it runs, later and unattended (rule ${later.rule}: ${later.reason}${shown(later)})`);
    const hazard = laterScript && v.tier < 4 ? LATER_HAZARD.exec(text) : null;
    if (hazard)
      return mark(4, `${label}: tier 4 (hands root's later run to others' code or the host away — \`${clip(hazard[0].trim(), 80)}\`)`);
    const fetched = laterScript && v.tier < 4 ? laterFetch(text) : null;
    if (fetched) return mark(4, `${label}: tier 4 (root fetches and runs code, or gives root away — \`${clip(fetched, 80)}\`)`);
    const part = v.parts.find((p) => p.tier === v.tier && p.rule === v.rule) ?? v.parts.find((p) => p.tier === v.tier);
    return mark(v.tier, `${label}: tier ${v.tier} (rule ${v.rule}: ${v.reason}${shown(part)})`);
  };
  return {
    code(text, label) {
      const spelled = laterCode(text, label);
      const applets = withoutBusybox(text);
      if (applets === null || spelled.tier === 4) return spelled;
      const plain = laterCode(applets, `${label} (busybox's applets as themselves)`);
      return plain.tier > spelled.tier ? plain : spelled;
    },
    veto(text, label) {
      const hit = scanCode(engine.vetoes, text);
      return hit ? mark(4, `${label}: danger veto ${hit.id}: ${hit.rationale}`) : null;
    },
    later(mode, path, file) {
      // Specifiers (%h, %t …) are known only then; globs are judged by their fixed prefix.
      const word: Word = { text: path, dynamic: path.includes("%"), glob: /[*?[]/.test(path), confusable: false };
      const e = judgeTarget({ word, mode }, pathCtx);
      const out = [mark(e.tier, `later: ${e.reason}`)];
      const r = word.dynamic ? null : runsLater(path);
      if (r && file && mode === "write")
        out.push(mark(4, `later writes ${path}, whose content runs later (${r.what}), with content not judged here`));
      return out;
    },
  };
}
