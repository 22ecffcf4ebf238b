// What the new state of a path grants, whatever its content: set-uid and
// set-gid files, file capabilities, writers other than root on what root
// runs or only root writes (runs-later files, their directories, the
// system's programs, boot, root's home, the top levels), world-writable
// entries in the system's tree, and extended attributes newly set.
import { EntryKind, type EntryState } from "../../proto/gen/agent_sudo/v1/manifest_pb.js";
import { holdsRootRun, type Later } from "./later-paths.js";
import { isRootOnlyTree, isSecretPath, placeOf } from "./paths.js";
import { type Finding, finding, worst } from "./types.js";

const { ENTRY_KIND_ABSENT: ABSENT, ENTRY_KIND_FILE: FILE, ENTRY_KIND_DIR: DIR, ENTRY_KIND_SYMLINK: SYMLINK } = EntryKind;

const HOME_DIR = /^\/(root|home\/[^/]+)(\/\.[^/]+)?$/;
const octal = (mode: number) => `0${(mode & 0o7777).toString(8)}`;
/** The state has a permission bit (links have none). */
const hasBit = (s: EntryState, bits: number) => s.kind !== ABSENT && s.kind !== SYMLINK && (s.mode & bits) !== 0;

export function contentChanged(before: EntryState, after: EntryState): boolean {
  return !(before.kind === FILE && before.sha256.equals(after.sha256));
}

function judgeSetId(before: EntryState, after: EntryState): Finding {
  if (after.kind !== FILE || !(after.mode & 0o6000)) return finding(0, "");
  const same =
    !contentChanged(before, after) &&
    (before.mode & 0o6000) === (after.mode & 0o6000) &&
    before.uid === after.uid &&
    before.gid === after.gid;
  return same
    ? finding(0, "")
    : finding(4, `${after.mode & 0o4000 ? "set-uid" : "set-gid"} file (mode ${octal(after.mode)}, uid ${after.uid}, gid ${after.gid})`);
}

function judgeWriters(p: string, before: EntryState, after: EntryState, later: Later | undefined): Finding {
  if (after.kind === SYMLINK) return finding(0, "");
  const rootRun = (after.kind === FILE && later?.rootRun === true) || (after.kind === DIR && holdsRootRun(p)) || isRootOnlyTree(p);
  const newOwner = after.uid !== 0 && (before.kind === ABSENT || before.kind === SYMLINK || before.uid !== after.uid);
  const groupWrite = (after.mode & 0o020) !== 0 && after.gid !== 0 && !(hasBit(before, 0o020) && before.gid === after.gid);
  const worldWrite = (after.mode & 0o002) !== 0 && !hasBit(before, 0o002);
  // The sticky bit only keeps others from replacing each other's entries: in a directory whose entries root runs
  // (/usr/local/bin, /etc/cron.d) anyone may still add one, and a new `/usr/local/bin/ls` shadows /usr/bin/ls.
  const stickyDir = after.kind === DIR && (after.mode & 0o1000) !== 0 && !holdsRootRun(p);
  const mode = `uid ${after.uid}, gid ${after.gid}, mode ${octal(after.mode)}`;
  if (rootRun && (newOwner || groupWrite || (worldWrite && !stickyDir)))
    return finding(4, `hands what root runs or only root writes to others (${mode})`);
  // A home or its dot-directory opened to others: they may replace what its user runs at every login.
  if (after.kind === DIR && HOME_DIR.test(p) && (newOwner || groupWrite || worldWrite))
    return finding(4, `lets others change a home's start-up files, what its user runs later (${mode})`);
  if (!worldWrite || placeOf(p) !== "system") return finding(0, "");
  if (after.kind === DIR && !stickyDir)
    return finding(4, `world-writable directory without the sticky bit: anyone may replace what is in it (${mode})`);
  // A file anyone may rewrite where root keeps its configuration, programs and data: whatever reads it as root obeys them.
  if (after.kind === FILE && /^\/(etc|usr|opt|boot|root|var\/spool)\//.test(p))
    return finding(4, `a file anyone may rewrite where root keeps configuration, programs and data (${mode})`);
  return finding(3, `world-writable (${mode})`);
}

/** Root's own trees: configuration, programs, libraries, boot files, root's home, spools. */
const ROOT_OWN = /^\/(etc|usr|opt|boot|root|var\/spool|var\/lib|lib[^/]*|bin|sbin)?(\/|$)/;

function judgeXattrs(p: string, before: EntryState, after: EntryState, later: Later | undefined): Finding {
  let f = finding(0, "");
  const old = new Set(before.kind === ABSENT ? [] : before.xattrs);
  for (const x of after.xattrs) {
    if (x === "security.capability" && (!old.has(x) || (after.kind === FILE && contentChanged(before, after))))
      f = worst(f, finding(4, "grants file capabilities (security.capability)"));
    // An ACL's entries are not in the manifest (the mode's group bits show only its mask): on root's trees or a
    // place that runs later it may let the agent write /etc/cron.d, /usr/local/bin, a profile.d script.
    else if (/^system\.posix_acl_(access|default)$/.test(x) && !old.has(x) && (later || ROOT_OWN.test(p)))
      f = worst(f, finding(4, `sets an ACL (${x}) on ${p}: users it names may change what root keeps or runs later`));
    // trusted.* belongs to privileged subsystems (overlayfs' opaque, redirect, metacopy and whiteout markers decide what an
    // overlay built on the directory shows): nothing an admin sets outside scratch space.
    else if (x.startsWith("trusted.") && !old.has(x) && placeOf(p) !== "scratch")
      f = worst(f, finding(4, `sets ${x} on ${p}: metadata of privileged subsystems (overlayfs' redirects and whiteouts)`));
    else if (!old.has(x)) f = worst(f, finding(3, `sets extended attribute ${x}`));
  }
  return f;
}

const SERVICE_TMP = /^\/(tmp|var\/tmp)\/systemd-private-[^/]+(\/|$)/;
const PRIVATE_BY_NATURE = /^\/(swapfile|swap\.img)$|\/krb5cc_[^/]*$/;

/** A service's private temporary directory changed, a sticky directory made non-sticky, a secret made readable. */
function judgeExposure(p: string, before: EntryState, after: EntryState): Finding {
  if (SERVICE_TMP.test(p)) return finding(4, "changes a service's private temporary directory");
  if (before.kind === DIR && after.kind === DIR && before.mode & 0o1000 && !(after.mode & 0o1000))
    return finding(
      4,
      `removes the sticky bit (${octal(before.mode)} → ${octal(after.mode)}): anyone who may write there may replace others' files`,
    );
  const opened = before.kind === FILE && after.kind === FILE ? after.mode & ~before.mode & 0o044 : 0;
  if (opened && (isSecretPath(p) || PRIVATE_BY_NATURE.test(p)))
    return finding(4, `makes a secret readable by others (${octal(after.mode)})`);
  return finding(0, "");
}

export function judgeGrants(p: string, before: EntryState, after: EntryState, later: Later | undefined): Finding {
  return [
    judgeSetId(before, after),
    judgeWriters(p, before, after, later),
    judgeXattrs(p, before, after, later),
    judgeExposure(p, before, after),
  ].reduce(worst);
}
