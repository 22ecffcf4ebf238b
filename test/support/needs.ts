// Tests that need a program the base system may lack skip with the reason in
// their name (vitest prints it with the skipped test), never fail.
import { basename, dirname } from "node:path";
import { findProgram, pathDirs } from "../../services/shared/programs.js";

/**
 * Why a test cannot run here (the first missing program), or undefined when
 * all are present. Present means an executable file, not a path that merely
 * exists (a program hidden by binding /dev/null over it): findProgram.
 */
export function missing(...programs: string[]): string | undefined {
  const dirs = pathDirs(["/usr/bin", "/bin"]);
  const absent = programs.find((p) => (p.startsWith("/") ? findProgram(basename(p), [dirname(p)]) : findProgram(p, dirs)) === undefined);
  return absent ? `skipped: ${absent} is not installed (apt-get install ${PACKAGE[absent] ?? absent}; .ci/run installs it)` : undefined;
}

const PACKAGE: Record<string, string> = {
  shellcheck: "shellcheck",
  bwrap: "bubblewrap",
  "/usr/bin/bwrap": "bubblewrap",
  apparmor_parser: "apparmor",
  "systemd-analyze": "systemd",
  setfattr: "attr",
  ip: "iproute2",
  jq: "jq",
  curl: "curl",
  python3: "python3",
  git: "git",
  xxd: "xxd",
  less: "less",
  strings: "binutils",
  blkid: "util-linux",
  mkswap: "util-linux",
  setpriv: "util-linux",
  nsenter: "util-linux",
  unshare: "util-linux",
  perl: "perl-base",
};

/** A test name with the reason it is skipped, when it is. */
export function named(name: string, reason: string | undefined): string {
  return reason ? `${name} — ${reason}` : name;
}
