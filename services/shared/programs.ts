// Where a program is: the first executable regular file of that name in the
// directories given, in their order. A path that merely exists is not a
// program: a directory, a file without execute bits, or /dev/null bound over
// a binary to hide it (how the tests play a machine without bubblewrap).
// Each caller names its directories: root's own lookups never follow a
// caller's PATH.
import { statSync } from "node:fs";
import { join } from "node:path";

export function findProgram(name: string, dirs: readonly string[]): string | undefined {
  for (const dir of dirs) {
    if (!dir.startsWith("/")) continue;
    const path = join(dir, name);
    try {
      const st = statSync(path);
      if (st.isFile() && (st.mode & 0o111) !== 0) return path;
    } catch {
      // not here, or not searchable by this user
    }
  }
  return undefined;
}

/** The absolute directories of this process's PATH, or `fallback` when it has none. */
export function pathDirs(fallback: readonly string[] = []): string[] {
  const dirs = (process.env.PATH ?? "").split(":").filter((d) => d.startsWith("/"));
  return dirs.length > 0 ? dirs : [...fallback];
}
