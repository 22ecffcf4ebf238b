// Dry-run forms. A trial has no network, so a command that downloads before
// it changes anything (apt-get install, upgrade …) cannot be trialled as is:
// it would fail at the download every time. Such a command is trialled as
// its tool's own simulation — `apt-get -s install …` resolves dependencies
// against the host's package lists offline and changes nothing — and the
// report says so. Only a single plain command qualifies (words without
// quotes, expansions or operators), so the form is derived, never guessed;
// anything else is trialled as written. The real run's safety net for
// packages is the executor's package-state undo (packages.ts), not a
// touched-path list.

const PLAIN_WORD = /^[A-Za-z0-9_.:=+/@~,%-]+$/;
/** The only assignments a derived form keeps (APT_CONFIG & co. would steer apt past the simulation). */
const ASSIGNMENT = /^(?:DEBIAN_FRONTEND|NEEDRESTART_MODE|APT_LISTCHANGES_FRONTEND)=[A-Za-z0-9_.-]*$/;
const APT = new Set(["apt", "apt-get", "/usr/bin/apt", "/usr/bin/apt-get"]);
/**
 * Options that leave a simulation a simulation. Anything else (-o, -c,
 * --no-simulate, --simulate=no …: apt turns any boolean off with those)
 * means no derived form: the command is trialled as written.
 */
const SAFE_OPTIONS = new Set([
  "-y",
  "--yes",
  "--assume-yes",
  "-q",
  "-qq",
  "--quiet",
  "--no-install-recommends",
  "--install-recommends",
  "--no-install-suggests",
  "--only-upgrade",
  "--reinstall",
  "-f",
  "--fix-broken",
  "--with-new-pkgs",
  "-V",
  "--verbose-versions",
  "--allow-downgrades",
]);
/** apt verbs that fetch packages before changing the system. */
const DOWNLOADING = new Set(["install", "reinstall", "upgrade", "dist-upgrade", "full-upgrade", "build-dep", "satisfy"]);

/** The simulation to trial instead of `command`, or undefined to trial it as written. */
export function dryRunForm(command: string): string | undefined {
  const words = command.trim().split(/[ \t]+/);
  if (words.length === 0 || words.some((w) => !PLAIN_WORD.test(w))) return undefined;
  let at = 0;
  while (at < words.length && ASSIGNMENT.test(words[at] ?? "")) at++;
  const program = words[at];
  if (program === undefined || !APT.has(program)) return undefined;
  const verb = words.slice(at + 1).find((w) => !w.startsWith("-"));
  if (verb === undefined || !DOWNLOADING.has(verb)) return undefined;
  const rest = words.slice(at + 1);
  if (rest.some((w) => w.startsWith("-") && !SAFE_OPTIONS.has(w))) return undefined;
  // A local .deb (its maintainer scripts never run in a simulation), a path,
  // or `pkg-` (install … pkg- removes pkg): trialled as written.
  if (rest.some((w) => !w.startsWith("-") && (w.includes("/") || w.endsWith(".deb") || /[-+]$/.test(w)))) return undefined;
  return [...words.slice(0, at + 1), "-s", ...words.slice(at + 1)].join(" ");
}
