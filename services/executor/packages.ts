// Package state for scoped undo: before an apt/apt-get/dpkg command that
// installs, removes or upgrades packages, record every installed package's
// version (dependencies change too: `apt-get install cowsay` pulls in
// libtext-charwidth-perl); the rollback plan reinstates exactly that —
// remove what was absent, reinstall the recorded version (from apt's cache)
// — and reports what it could not do.
import { execFileSync } from "node:child_process";

export interface PackageState {
  name: string;
  version: string | null;
}

const CHANGING = /\b(?:apt-get|apt|aptitude)\s+(?:-\S+\s+)*(?:install|reinstall|remove|purge|upgrade|full-upgrade|dist-upgrade|autoremove)\b|\bdpkg\s+(?:-\S+\s+)*(?:-i|--install|-r|--remove|-P|--purge)\b/;
const NAME = /^[a-z0-9][a-z0-9+.-]{1,100}(?=$|[=:/])/;

/** Package names a command names (words after the verb that look like packages). */
export function namedPackages(command: string): string[] {
  if (!CHANGING.test(command)) return [];
  const words = command.split(/[\s;&|()]+/);
  const verbAt = words.findIndex((w) => /^(install|reinstall|remove|purge|upgrade|full-upgrade|dist-upgrade|autoremove|-i|--install|-r|--remove|-P|--purge)$/.test(w));
  const names = words.slice(verbAt + 1).filter((w) => !w.startsWith("-")).map((w) => NAME.exec(w)?.[0]).filter((n): n is string => n !== undefined);
  return [...new Set(names)].slice(0, 200);
}

export function packageStates(names: readonly string[]): PackageState[] {
  return names.map((name) => {
    try {
      const out = execFileSync("dpkg-query", ["-W", "-f=${db:Status-Abbrev}\t${Version}", name], { stdio: ["ignore", "pipe", "ignore"] }).toString();
      const [status, version] = out.split("\t");
      return { name, version: status?.startsWith("ii") && version ? version : null };
    } catch {
      return { name, version: null };
    }
  });
}

/** Every installed package and its version (multi-arch names as dpkg prints them). */
export function installedPackages(): PackageState[] {
  const out = execFileSync("dpkg-query", ["-W", "-f=${binary:Package}\t${db:Status-Abbrev}\t${Version}\n"], { stdio: ["ignore", "pipe", "ignore"], maxBuffer: 64 * 1024 * 1024 }).toString();
  return out.split("\n").flatMap((line) => {
    const [name, status, version] = line.split("\t");
    return name && status?.startsWith("ii") && version ? [{ name, version }] : [];
  });
}

/**
 * The commands that put the recorded states back, given the states now.
 * `complete`: `before` lists every installed package, so one installed now
 * and missing from it was added by the command and is removed.
 */
export function packagePlan(before: readonly PackageState[], now: readonly PackageState[], complete = false): string[][] {
  const plan: string[][] = [];
  const current = new Map(now.map((n) => [n.name, n.version]));
  const recorded = new Set(before.map((b) => b.name));
  const added = complete ? now.filter((n) => n.version !== null && !recorded.has(n.name)).map((n) => n.name) : [];
  for (const b of before) {
    if ((current.get(b.name) ?? null) === b.version) continue;
    if (b.version === null) added.push(b.name);
    else plan.push(["apt-get", "install", "-y", "--no-download", "--allow-downgrades", `${b.name}=${b.version}`]);
  }
  for (const name of added) plan.unshift(["apt-get", "remove", "-y", name]);
  return plan;
}
