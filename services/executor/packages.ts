// Package state for scoped undo: around an apt/apt-get/dpkg command that
// installs, removes or upgrades packages, record every installed package's
// version before and after (dependencies change too: `apt-get install
// cowsay` pulls in libtext-charwidth-perl). Rollback reverts exactly that
// delta — removes what the command added, reinstalls (from apt's cache) what
// it changed or removed — and only for packages nobody has changed since;
// those it reports, untouched.
import { execFileSync } from "node:child_process";

export interface PackageState {
  name: string;
  version: string | null;
}

const CHANGING =
  /\b(?:apt-get|apt|aptitude)\s+(?:-\S+\s+)*(?:install|reinstall|remove|purge|upgrade|full-upgrade|dist-upgrade|autoremove)\b|\bdpkg\s+(?:-\S+\s+)*(?:-i|--install|-r|--remove|-P|--purge)\b/;
/** Whether the command installs, removes or upgrades packages. */
export function changesPackages(command: string): boolean {
  return CHANGING.test(command);
}

/** Every installed package and its version (multi-arch names as dpkg prints them). */
export function installedPackages(): PackageState[] {
  const out = execFileSync("dpkg-query", ["-W", "-f=${binary:Package}\t${db:Status-Abbrev}\t${Version}\n"], {
    stdio: ["ignore", "pipe", "ignore"],
    maxBuffer: 64 * 1024 * 1024,
  }).toString();
  return out.split("\n").flatMap((line) => {
    const [name, status, version] = line.split("\t");
    return name && status?.startsWith("ii") && version ? [{ name, version }] : [];
  });
}

export interface PackageRevert {
  /** Packages the command added: removed with dpkg, which refuses to break a dependent. */
  remove: string[];
  /** name=version to reinstall from apt's cache. */
  reinstall: string[];
  /** Changed by the command and again since: left alone, reported. */
  skipped: string[];
}

/** What reverts before → after, given the state now. */
export function packageRevert(
  before: readonly PackageState[],
  after: readonly PackageState[],
  now: readonly PackageState[],
): PackageRevert {
  const version = (list: readonly PackageState[]) => new Map(list.map((p) => [p.name, p.version]));
  const [b, a, n] = [version(before), version(after), version(now)];
  const out: PackageRevert = { remove: [], reinstall: [], skipped: [] };
  for (const name of new Set([...b.keys(), ...a.keys()])) {
    const was = b.get(name) ?? null;
    const became = a.get(name) ?? null;
    if (was === became) continue;
    if ((n.get(name) ?? null) !== became) out.skipped.push(name);
    else if (was === null) out.remove.push(name);
    else out.reinstall.push(`${name}=${was}`);
  }
  return out;
}
