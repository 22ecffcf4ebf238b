// Drivers the user's own git configuration defines that run programs: a
// diff driver's textconv (`sops -d`, `gpg -d`), a filter's clean, smudge or
// process, a merge driver. A `.gitattributes` the agent writes chooses
// them for any file, and the next tier-0 `git log -p` or `git show` runs
// them — printing what they decrypt (round 21). Read from the home's
// ~/.gitconfig and ~/.config/git/config and from /etc/gitconfig.
import { posix } from "node:path";
import { gitConfigEntries } from "./git-config-entries.js";
import { readScript } from "./host-paths.js";

const DRIVER_SECTION = /^(diff|filter|merge)$/;
const RUNS = /^(textconv|command|clean|smudge|process|driver)$/;

/** Whether a git config text defines a driver that runs a program. */
function definesDriver(text: string): boolean {
  return gitConfigEntries(text).some((e) => DRIVER_SECTION.test(e.section) && RUNS.test(e.name) && e.value !== "");
}

/** The user's git configuration files that define drivers running programs (none: an empty list). */
export function userGitDrivers(home: string | null): string[] {
  const files = ["/etc/gitconfig", ...(home ? [posix.join(home, ".gitconfig"), posix.join(home, ".config/git/config")] : [])];
  return files.filter((f) => {
    const text = readScript(f);
    return text !== null && /textconv|clean|smudge|process|driver|command/i.test(text) && definesDriver(text);
  });
}
