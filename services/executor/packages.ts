// Package state for scoped undo: before an apt/apt-get/dpkg command that
// installs, removes or upgrades named packages, record each one's installed
// version (or that it was absent); the rollback plan reinstates exactly that
// — remove what was absent, reinstall the recorded version (from apt's cache:
// the executor has no network) — and reports what it could not do.
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

/** The commands that put the recorded states back, given the states now. */
export function packagePlan(before: readonly PackageState[], now: readonly PackageState[]): string[][] {
  const plan: string[][] = [];
  for (const b of before) {
    const current = now.find((n) => n.name === b.name)?.version ?? null;
    if (current === b.version) continue;
    if (b.version === null) plan.push(["apt-get", "remove", "-y", b.name]);
    else plan.push(["apt-get", "install", "-y", "--no-download", "--allow-downgrades", `${b.name}=${b.version}`]);
  }
  return plan;
}
