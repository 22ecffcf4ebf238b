// The concurrence's judgment of a transactional run's diff (tiers 1-2),
// from first principles and its own tables only. Per change: what writing
// or deleting that path does (effect-path.ts: identity, boot, the loader,
// agent-sudo's own files, whole system entries; scratch 1, system 3,
// elsewhere 2); what its new mode, owner and extended attributes grant
// (grants.ts); for a file whose content runs later, the commands it will
// run (later-paths.ts, later.ts); and for a new link, everything this run
// put where it leads, judged again as seen through it (links.ts). The tier
// is the worst change's; each change that set or raised it gives one line
// of reasons. What it cannot see — content it was not given or cannot
// read, a link it cannot resolve, a device, a state of unknown kind, a path
// listed twice — is tier 4.
import { posix } from "node:path";
import { type Change, EntryKind, EntryState, type Manifest } from "../../proto/gen/agent_sudo/v1/manifest_pb.js";
import type { TierNumber } from "../shared/tier.js";
import { judgePathEffect } from "./effect-path.js";
import { judgeGrants } from "./grants.js";
import { judgeSecretContent } from "./secret-content.js";
import { type DiffView, judgeDirectoryLink, judgeLaterEntry, judgeUnitLink, judgeUnlistedContent, systemdLines } from "./later.js";
import { binaryBytes, scriptText } from "./host-target.js";
import { unlistedInScope } from "./unlisted.js";
import { laterKind, laterKindInside } from "./later-paths.js";
import { linkEnd, SortedPaths } from "./links.js";
import { isRootOnlyTree, judgeMention, literalPath, placeOf } from "./paths.js";
import { type Finding, finding, type JudgeContext, worst } from "./types.js";
import { DEFAULT_ENV_FILE, environmentFileFindings, instanceUserPlace, unitEnvironmentFiles } from "./unit-file.js";

export interface ManifestVerdict {
  tier: TierNumber;
  reasons: string[];
}

const MAX_REASONS = 50;
/** Changes judged again as seen through links, at most (a link to a big tree, many links to one). */
const THROUGH_LINK_BUDGET = 20_000;
const {
  ENTRY_KIND_ABSENT: ABSENT,
  ENTRY_KIND_FILE: FILE,
  ENTRY_KIND_DIR: DIR,
  ENTRY_KIND_SYMLINK: SYMLINK,
  ENTRY_KIND_SPECIAL: SPECIAL,
} = EntryKind;
const KNOWN_KINDS = new Set<EntryKind>([ABSENT, FILE, DIR, SYMLINK, SPECIAL]);

function pathProblem(p: string): string | undefined {
  if (!p.startsWith("/")) return "is not absolute";
  if (p.length > 4096 || p.includes("\0")) return "is too long or has a NUL byte";
  // A carriage return, a line separator (U+2028/9) or another control character hides the name from every pattern
  // here (`.` stops there), not from the programs that read such directories (sudo's includedir, logrotate,
  // /etc/profile's *.sh …); scratch space aside. The sandbox refuses only a newline.
  if (/[\u0001-\u001f\u007f\u0085\u2028\u2029]/.test(p) && !/^\/(tmp|var\/tmp|dev\/shm)\//.test(p))
    return "has a control character or a line separator in a name";
  if (
    p !== "/" &&
    (p.endsWith("/") ||
      p
        .slice(1)
        .split("/")
        .some((s) => s === "" || s === "." || s === ".."))
  )
    return "is not normalised";
  return undefined;
}

/** Control characters shown, not sent: a reason goes to logs and callers. */
function printable(text: string): string {
  const shown = text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`);
  return shown.length > 500 ? `${shown.slice(0, 500)}…` : shown;
}

/** A firewall, audit, confinement or update service's unit or its enablement link. */
const SECURITY_UNIT =
  /\/systemd\/(system|user)\/(.+\.(wants|requires)\/)?(nftables|ufw|firewalld|netfilter-persistent|iptables|ip6tables|apparmor|auditd|fail2ban|unattended-upgrades|apt-daily-upgrade|agent-sudo[^/]*)\.(service|timer)$/;

/** Drop-ins of those services: `ExecStart=` emptied or a Condition that never holds stops them as surely as masking. */
const SECURITY_DROPIN =
  /\/systemd\/(system|user)\/(nftables|ufw|firewalld|netfilter-persistent|iptables|ip6tables|apparmor|auditd|fail2ban|unattended-upgrades|apt-daily-upgrade|agent-sudo[^/]*)\.(service|timer)\.d\/./;

/** A link to the vendor's own unit file of the same name (what `systemctl enable` or `reenable` makes). */
function vendorLink(at: string, after: EntryState): boolean {
  return (
    after.kind === SYMLINK &&
    /^\/(usr\/)?lib\/systemd\/(system|user)\/[^/]+$/.test(after.target) &&
    posix.basename(after.target) === posix.basename(at)
  );
}

function judgeDelete(at: string, before: EntryState, ctx: JudgeContext): Finding {
  if (SECURITY_UNIT.test(at)) return finding(4, "disables a security service");
  const tree = before.kind === DIR;
  let f = judgePathEffect(at, tree ? "delete-tree" : "delete", ctx);
  const later = laterKind(at)?.kind;
  if (later === "foreign-code") f = worst(f, finding(4, "removes code or trust that runs later in a form the concurrence cannot judge"));
  if (later === "unit") {
    if (tree && /\.(wants|requires|upholds)$/.test(at)) f = worst(f, finding(4, `disables every unit ${posix.basename(at)} lists`));
    f = worst(f, judgeUnitLink(at, before, EntryState.create({ kind: ABSENT }), ctx) ?? finding(0, ""));
  }
  return f;
}

/** A new link: where it leads must not be a secret, scratch space under root's trees, or elsewhere for a runs-later directory. */
function judgeLink(at: string, real: string, after: EntryState, view: DiffView): Finding {
  const lexical = posix.resolve(posix.dirname(real), after.target);
  let f = judgeMention(literalPath(lexical), view.ctx);
  const end = linkEnd(real, after.target, view.index) ?? lexical;
  if (placeOf(end) === "scratch" && placeOf(at) !== "scratch" && (isRootOnlyTree(at) || placeOf(at) === "system")) {
    f = worst(f, finding(4, `makes ${at} lead into scratch space anyone can write (${end})`));
  }
  // Root's home is read as root's own configuration: a name there leading into a user's home or elsewhere hands it to them.
  if (/^\/root\/./.test(at) && placeOf(end) !== "system") {
    f = worst(f, finding(4, `makes ${at}, in root's home, lead to ${end}, which a user other than root may write`));
  }
  // The other way: what root writes at a name in scratch space would land in the system or a home.
  if (placeOf(at) === "scratch" && placeOf(end) !== "scratch" && end !== "/dev/null") {
    f = worst(f, finding(4, `makes ${at}, in scratch space, lead to ${end}: what root writes there would land there`));
  }
  const inside = laterKind(at) ? undefined : laterKindInside(at);
  return inside ? worst(f, judgeDirectoryLink(at, real, after, inside, view)) : f;
}

/** One change, judged as if at `at` (its own path, or where a link shows it); its content is read at its own path. */
/** A file with no line but blanks and `#` comments (systemd ends a line at CR, LF or NUL); unknown content is not. */
function ruleless(after: EntryState, buf: Buffer | undefined): boolean {
  if (after.size === 0) return true;
  return (
    buf !== undefined &&
    buf.length <= 65536 &&
    buf
      .toString("latin1")
      .split(/\r\n|[\r\n\0]/)
      .every((l) => /^\s*(#.*)?$/.test(l))
  );
}

function judgeChange(change: Change, at: string, view: DiffView): Finding {
  const problem = pathProblem(change.path) ?? pathProblem(at);
  if (problem) return finding(4, `the path ${problem}`);
  const before = change.before ?? EntryState.create({ kind: ABSENT });
  const after = change.after;
  if (!after || !KNOWN_KINDS.has(after.kind) || !KNOWN_KINDS.has(before.kind)) return finding(4, "a state of unknown kind");
  if (after.kind === SPECIAL) return finding(4, "creates a device node, fifo or socket");
  if (after.kind === SYMLINK && after.target === "/dev/null" && SECURITY_UNIT.test(at)) return finding(4, "masks a security service");
  if (after.kind !== ABSENT && SECURITY_DROPIN.test(at))
    return finding(4, "a drop-in of a security service: it changes how, or whether, it runs");
  if (
    (after.kind === FILE || after.kind === SYMLINK) &&
    SECURITY_UNIT.test(at) &&
    !/\.(wants|requires)\//.test(at) &&
    !vendorLink(at, after)
  )
    return finding(4, "replaces a security service's unit with another (a unit in /etc or /run shadows the vendor's)");
  // Kernel settings are where protections live (fs.protected_*, ptrace_scope): removing, emptying or masking a sysctl
  // file (the same name in /etc hides the vendor's) undoes what it set at the next boot; its old content is not known.
  if (
    laterKind(at)?.kind === "sysctl" &&
    (after.kind === ABSENT || (after.kind === SYMLINK && after.target === "/dev/null") || (after.kind === FILE && after.size === 0))
  )
    return finding(4, "removes, empties or masks kernel settings: a protection set there would come undone at the next boot");
  // A udev rules or tmpfiles file of a vendor's name in /etc or /run hides the vendor's (device modes, /tmp's sticky bit,
  // /run/sudo): masking it with /dev/null or a file with no rule undoes those at the next boot or event.
  const kind = laterKind(at)?.kind;
  if (
    (kind === "udev" || kind === "tmpfiles") &&
    ((after.kind === SYMLINK && after.target === "/dev/null") || (after.kind === FILE && ruleless(after, view.contents.get(change.path))))
  )
    return finding(4, "masks the udev rules or tmpfiles of that name: what a vendor's file there set would no longer apply");
  if (after.kind === ABSENT) return judgeDelete(at, before, view.ctx);
  let f = judgePathEffect(at, "write", view.ctx);
  if (before.kind === DIR && after.kind !== DIR) f = worst(f, judgePathEffect(at, "delete-tree", view.ctx));
  const later = laterKind(at);
  // A template instance named after a place users write (a link in a .wants directory, an instance's own file).
  const instance = later?.kind === "unit" ? instanceUserPlace(at) : undefined;
  if (instance) f = worst(f, finding(4, `a unit instance whose name stands for ${instance}, a place users write`));
  f = worst(f, judgeGrants(at, before, after, later));
  f = worst(f, judgeSecretContent(at, after, view.contents.get(change.path), view.ctx.cwd));
  if (later && (after.kind === FILE || after.kind === SYMLINK)) f = worst(f, judgeLaterEntry(at, change.path, before, after, later, view));
  if (
    !later &&
    after.kind === FILE &&
    (placeOf(at) === "system" || /^\/[^/]+$/.test(at)) &&
    unlistedInScope(at, after.mode, view.contents.get(change.path))
  )
    f = worst(f, judgeUnlisted(at, change.path, after.mode, view));
  if (after.kind === SYMLINK) f = worst(f, judgeLink(at, change.path, after, view));
  // Review 51: automount runs a map file that is executable as a program, as root, for every key looked up.
  if (after.kind === FILE && (after.mode & 0o111) !== 0 && /^\/etc\/auto\.(?!master$)[^/]+$/.test(at))
    f = worst(f, finding(4, "an executable automounter map: automount runs it as root as a program map"));
  return f;
}

/**
 * A file of unknown format in root's configuration or an executable in the system's trees (unlisted.ts): only code
 * in any format counts, and only what is refused (a tier 3 there is the place's own). Content not given (over the
 * gateway's size limit) is left to where it is linked, included or run from (later.ts reads it there).
 */
function judgeUnlisted(at: string, real: string, mode: number, view: DiffView): Finding {
  const buf = view.contents.get(real);
  if (!buf || binaryBytes(buf)) return finding(0, "");
  // Not known to run: what is unknown is not refused here (as on server-01); what is known to be dangerous is.
  const ctx: JudgeContext = { ...view.ctx, host: "server-01" };
  const f = judgeUnlistedContent(at, scriptText(buf), ctx, { ...view, ctx }, (mode & 0o111) !== 0);
  return f.tier === 4 ? finding(4, `a file root's programs may read or run: ${f.reason}`) : finding(0, "");
}

/** Everything this run put where a new link leads, judged as seen through the link. */
function judgeThroughLink(link: Change, view: DiffView, budget: { left: number }): Finding {
  const end = link.after ? linkEnd(link.path, link.after.target, view.index) : undefined;
  let f = finding(0, "");
  if (end === undefined || end === link.path) return f;
  for (const path of view.sorted.below(end)) {
    const inner = view.index.get(path);
    if (!inner) continue;
    if (--budget.left < 0) return finding(4, "too many changes seen through links to judge them all");
    const at = `${link.path}${end === "/" ? path : path.slice(end.length)}`;
    const r = judgeChange(inner, at, view);
    if (r.tier > f.tier) f = finding(r.tier, `seen through the link as ${at}: ${r.reason}`);
  }
  return f;
}

/** The files units in this diff load their environment from. */
function environmentFilesNamed(manifest: Manifest, contents: ReadonlyMap<string, Buffer>): RegExp[] {
  const out: RegExp[] = [];
  for (const change of manifest.changes) {
    const buf = contents.get(change.path);
    if (change.after?.kind !== FILE || !buf || laterKind(change.path)?.kind !== "unit") continue;
    out.push(...unitEnvironmentFiles(systemdLines(buf.toString("utf8")), change.path));
  }
  return out;
}

/** An environment file a root unit loads: its values go into the unit's commands. */
function judgeEnvironmentFile(change: Change, named: readonly RegExp[], contents: ReadonlyMap<string, Buffer>): Finding {
  if (change.after?.kind !== FILE || !(named.some((f) => f.test(change.path)) || DEFAULT_ENV_FILE.test(change.path))) return finding(0, "");
  const buf = contents.get(change.path);
  if (!buf) return finding(4, "an environment file a root unit loads, content not given");
  return environmentFileFindings(systemdLines(buf.toString("utf8"))).findings.reduce(worst, finding(0, ""));
}

function verbOf(change: Change): string {
  if (change.after?.kind === ABSENT) return "delete";
  return !change.before || change.before.kind === ABSENT ? "create" : "change";
}

/** Judges every change of a diff; `contents` holds the changed files' bytes the gateway passed, by path. */
export function judgeManifest(manifest: Manifest, contents: ReadonlyMap<string, Buffer>, ctx: JudgeContext): ManifestVerdict {
  const index = new Map<string, Change>();
  for (const change of manifest.changes) {
    if (index.has(change.path))
      return { tier: 4, reasons: [printable(`tier 4: ${change.path}: listed twice, so what would be committed is ambiguous`)] };
    index.set(change.path, change);
  }
  const view: DiffView = { index, sorted: new SortedPaths(index.keys()), contents, ctx, judged: new Map() };
  const budget = { left: THROUGH_LINK_BUDGET };
  let tier: TierNumber = 0;
  const reasons: string[] = [];
  let unsaid = 0;
  const named = environmentFilesNamed(manifest, contents);
  for (const change of manifest.changes) {
    let f = judgeChange(change, change.path, view);
    f = worst(f, judgeEnvironmentFile(change, named, contents));
    if (change.after?.kind === SYMLINK && f.tier < 4) f = worst(f, judgeThroughLink(change, view, budget));
    if (f.tier === 0 || f.tier < tier) continue;
    tier = f.tier;
    if (reasons.length < MAX_REASONS) reasons.push(printable(`tier ${f.tier}: ${verbOf(change)} ${change.path}: ${f.reason}`));
    else unsaid++;
  }
  if (unsaid > 0) reasons.push(`… and ${unsaid} more changes that set or raised the tier`);
  return { tier, reasons };
}
