// Drivers the user's own git configuration defines that run programs: a
// diff driver's textconv (`sops -d`, `gpg -d`), a filter's clean, smudge or
// process, a merge driver. A `.gitattributes` the agent writes chooses
// them for any file, and the next tier-0 `git log -p` or `git show` runs
// them — printing what they decrypt (round 21). Read from the home's
// ~/.gitconfig and ~/.config/git/config and from /etc/gitconfig.
import { posix } from "node:path";
import { readScript } from "./host-paths.js";

const DRIVER_SECTION = /^\[\s*(diff|filter|merge)\s+"[^"]*"\s*\]/i;
const RUNS = /^\s*(textconv|command|clean|smudge|process|driver)\s*=\s*\S/i;

/** Whether a git config text defines a driver that runs a program. */
function definesDriver(text: string): boolean {
  let inDriver = false;
  for (const line of text.split("\n")) {
    if (/^\s*\[/.test(line)) inDriver = DRIVER_SECTION.test(line.trim());
    else if (inDriver && RUNS.test(line)) return true;
  }
  return false;
}

/** The user's git configuration files that define drivers running programs (none: an empty list). */
export function userGitDrivers(home: string | null): string[] {
  const files = ["/etc/gitconfig", ...(home ? [posix.join(home, ".gitconfig"), posix.join(home, ".config/git/config")] : [])];
  return files.filter((f) => {
    const text = readScript(f);
    return text !== null && /textconv|clean|smudge|process|driver|command/i.test(text) && definesDriver(text);
  });
}
