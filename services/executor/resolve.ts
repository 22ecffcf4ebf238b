// Resolve: the canonical form of a cwd, for the gateway to bind. It is
// walked as the gateway's own user could walk it: root looks (lstat,
// readlink) only inside directories that user may search (owner, group or
// other x bit; ACLs are not read). Past one it may not search, the rest is
// handed back as given — the answer says nothing the gateway could not have
// found out itself (root-only paths are no existence oracle, review 36).
// Execute takes only a canonical cwd (execute.ts checkedCwd), so a path
// left unresolved still runs where it was judged, or not at all.
import { lstatSync, readlinkSync, type Stats } from "node:fs";
import { dirname } from "node:path";
import { CodedError } from "../shared/errors.js";

/** Whose view the answer is limited to: the gateway's uid and its one group (privilege.ts dropPrivileges). */
export interface Viewer {
  uid: number;
  gid: number;
}

const MAX_LINKS = 40;

const parts = (p: string) => p.split("/").filter((n) => n !== "" && n !== ".");

function searchable(st: Stats, who: Viewer): boolean {
  if (who.uid === 0) return true;
  const bit = st.uid === who.uid ? 0o100 : st.gid === who.gid ? 0o010 : 0o001;
  return (st.mode & bit) !== 0;
}

/** realpath(3) of the directory `path` as far as `who` could go; BAD_REQUEST only for what `who` could see. */
export function resolveAs(path: string, who: Viewer): string {
  const todo = parts(path);
  let at = "/";
  let st = lstatSync(at);
  let links = 0;
  while (todo.length > 0) {
    if (!st.isDirectory()) throw new CodedError("BAD_REQUEST", "cwd is not a directory");
    if (!searchable(st, who)) return `${at === "/" ? "" : at}/${todo.join("/")}`;
    const name = todo.shift() as string;
    const next = name === ".." ? dirname(at) : at === "/" ? `/${name}` : `${at}/${name}`;
    let found: Stats;
    try {
      found = lstatSync(next);
    } catch {
      throw new CodedError("BAD_REQUEST", "cwd does not exist");
    }
    if (found.isSymbolicLink()) {
      if (++links > MAX_LINKS) throw new CodedError("BAD_REQUEST", "cwd: too many symbolic links");
      const target = readlinkSync(next);
      todo.unshift(...parts(target));
      if (target.startsWith("/")) [at, st] = ["/", lstatSync("/")];
      continue;
    }
    [at, st] = [next, found];
  }
  if (!st.isDirectory()) throw new CodedError("BAD_REQUEST", "cwd is not a directory");
  return at;
}
