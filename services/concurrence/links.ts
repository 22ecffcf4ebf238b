// Where a symlink of a diff leads, and what the diff put there. A target is
// resolved against the link's own directory (which has no link in it: the
// manifest's promise), then through every link the same diff creates, so a
// chain of new links cannot carry a place whose files run later to content
// the judge never saw as such. `..` after a real name can only be resolved
// with the host's own links, so such a target is not resolved (undefined);
// neither is a chain longer than 16 links.
import { posix } from "node:path";
import { type Change, EntryKind } from "../../proto/gen/agent_sudo/v1/manifest_pb.js";

const MAX_HOPS = 16;

/** `..` only before the first real name: lexical resolution is then the kernel's. */
function lexicallySafe(target: string): boolean {
  let named = false;
  for (const seg of target.split("/")) {
    if (seg === "..") {
      if (named) return false;
    } else if (seg !== "" && seg !== ".") named = true;
  }
  return true;
}

/** The path a link at `from` with `target` reaches, through the diff's own links. */
export function linkEnd(from: string, target: string, index: ReadonlyMap<string, Change>): string | undefined {
  if (!lexicallySafe(target)) return undefined;
  let path = posix.resolve(posix.dirname(from), target);
  for (let hop = 0; hop < MAX_HOPS; hop++) {
    const parts = path.split("/").filter(Boolean);
    let next: string | undefined;
    for (let i = 1; i <= parts.length && next === undefined; i++) {
      const prefix = `/${parts.slice(0, i).join("/")}`;
      const after = index.get(prefix)?.after;
      if (after?.kind !== EntryKind.ENTRY_KIND_SYMLINK) continue;
      if (!lexicallySafe(after.target)) return undefined;
      next = posix.resolve(posix.dirname(prefix), after.target, ...parts.slice(i));
    }
    if (next === undefined) return path;
    path = next;
  }
  return undefined;
}

/** The diff's paths, sorted: everything below a directory is one run of them. */
export class SortedPaths {
  private readonly paths: string[];

  constructor(paths: Iterable<string>) {
    this.paths = [...paths].sort();
  }

  /** Paths strictly below `dir`. */
  below(dir: string): string[] {
    const prefix = dir === "/" ? "/" : `${dir}/`;
    let lo = 0;
    let hi = this.paths.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.paths[mid] as string) < prefix) lo = mid + 1;
      else hi = mid;
    }
    const out: string[] = [];
    for (let i = lo; i < this.paths.length && (this.paths[i] as string).startsWith(prefix); i++) out.push(this.paths[i] as string);
    return out.filter((p) => p !== dir);
  }
}
