// Files no runs-later reader takes, read by key (review 50): who may act as root through a service or the console
// (access-settings.ts), the programs root's daemons and tools start (program-settings.ts), and the package managers'
// local state. The manifest judge calls this for a file written or changed, with its text when the manifest's sha256
// matches (null when not given or not text).
import { accessFile, accessMarks } from "./access-settings.js";
import { programFile, programMarks } from "./program-settings.js";
import { type ContentJudge, type Mark, mark } from "./runs-later-content.js";
import { runnerFile, runnerMarks } from "./runner-settings.js";

/**
 * APT's downloaded packages: only apt's package runs (not judged here) write them, and it installs what it finds
 * there without a new signature check. Its indexes are not refused: `apt-get update` is a transactional run whose
 * diff is exactly those files (a forged index beside a planted .deb is the .deb's write, refused here).
 */
const APT_STATE = /^\/var\/cache\/apt\/archives\/[^/]+\.deb$/;
/** A package dpkg is to configure again (its maintainer scripts rerun as root at the next `dpkg --configure -a`). */
const DPKG_PENDING = /^Status:\s*\S+\s+\S+\s+(?:half-installed|half-configured|unpacked|triggers-awaited|triggers-pending)\s*$/m;

export function settingsMarks(path: string, text: string | null, j: ContentJudge): Mark[] {
  if (APT_STATE.test(path))
    return [mark(4, `${path}: APT's local index or package cache — apt installs from it as root without checking a signature again`)];
  if (path === "/var/lib/dpkg/status" && text !== null && DPKG_PENDING.test(text))
    return [mark(4, "a package left half-installed or half-configured: its maintainer scripts run again as root")];
  const access = accessFile(path);
  const program = programFile(path);
  const runner = runnerFile(path);
  if (!access && !program && !runner) return [];
  if (text === null)
    return access?.unseen || program || runner
      ? [mark(4, `${path}: settings that decide who may act as root or what root runs, content not given — cannot judge`)]
      : [];
  return [
    ...(access ? accessMarks(path, text) : []),
    ...(program ? programMarks(path, text, j) : []),
    ...(runner ? runnerMarks(path, text) : []),
  ];
}

/** A file read by key here (review 51: a link put in its place is read as its target's content, manifest-effects.ts). */
export function keyedFile(path: string): boolean {
  return Boolean(accessFile(path)) || programFile(path) || runnerFile(path);
}
