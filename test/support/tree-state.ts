// The state of real files as the executor's specs compare it: a whole tree
// (to prove a commit, undo or safe-fs call left it byte for byte as it was),
// and one path as the sandbox's manifest describes it (a Change's before or
// after).
import { createHash } from "node:crypto";
import { lstatSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { join } from "node:path";
import { EntryKind, EntryState } from "../../proto/gen/agent_sudo/v1/manifest_pb.js";

/** Every entry under `dir`, by path relative to it: type and mode, owner, (inode,) content digest or link target; mtimes left out. */
export function treeSnapshot(dir: string, withInodes = true): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (p: string, rel: string) => {
    const st = lstatSync(p);
    const head = `${st.mode.toString(8)} ${st.uid}:${st.gid}${withInodes ? ` ino=${st.ino}` : ""}`;
    if (st.isSymbolicLink()) out[rel] = `${head} -> ${readlinkSync(p)}`;
    else if (st.isFile()) out[rel] = `${head} ${createHash("sha256").update(readFileSync(p)).digest("hex")}`;
    else if (st.isDirectory()) {
      out[rel] = `${head} dir`;
      for (const n of readdirSync(p).sort()) walk(join(p, n), `${rel}/${n}`);
    } else out[rel] = `${head} other`;
  };
  walk(dir, ".");
  return out;
}

/** The state of `path` on the host, as the sandbox's manifest would describe it (absent when it or a parent is missing). */
export function entryState(path: string): EntryState {
  let st;
  try {
    st = lstatSync(path);
  } catch (err) {
    // a missing path, or a file where a parent directory would be
    if ((err as NodeJS.ErrnoException).code === "ENOENT" || (err as NodeJS.ErrnoException).code === "ENOTDIR")
      return EntryState.create({ kind: EntryKind.ENTRY_KIND_ABSENT });
    throw err;
  }
  const common = { mode: st.mode & 0o7777, uid: st.uid, gid: st.gid };
  if (st.isSymbolicLink()) return EntryState.create({ kind: EntryKind.ENTRY_KIND_SYMLINK, ...common, target: readlinkSync(path) });
  if (st.isDirectory()) return EntryState.create({ kind: EntryKind.ENTRY_KIND_DIR, ...common });
  if (st.isFile()) {
    const data = readFileSync(path);
    return EntryState.create({
      kind: EntryKind.ENTRY_KIND_FILE,
      ...common,
      size: data.length,
      sha256: createHash("sha256").update(data).digest(),
    });
  }
  return EntryState.create({ kind: EntryKind.ENTRY_KIND_SPECIAL, ...common });
}
