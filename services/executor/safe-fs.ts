// Host paths the executor writes as root (commits, undo captures, rollbacks)
// are reached one component at a time from `/`: each directory is opened
// O_DIRECTORY|O_NOFOLLOW through its parent's descriptor
// (/proc/self/fd/N/NAME — openat(2) by another name, which Node lacks), so a
// symlink anywhere on the way, planted earlier or swapped in while we work,
// makes the operation fail instead of writing elsewhere. The last component
// is only touched with calls that never follow it: lstat, readlink, rename,
// unlink, rmdir, mkdir, symlink, and open(O_NOFOLLOW) + fchown/fchmod.
// Nothing here follows a link it did not create.
import { createHash, randomBytes } from "node:crypto";
import {
  closeSync,
  constants,
  fchmodSync,
  fchownSync,
  fstatSync,
  fsyncSync,
  lchownSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readlinkSync,
  readSync,
  renameSync,
  rmdirSync,
  symlinkSync,
  unlinkSync,
  writeSync,
  type Stats,
} from "node:fs";
import { posix } from "node:path";

const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW, O_DIRECTORY, O_NONBLOCK } = constants;

export class UnsafePath extends Error {}

/** A directory held open: names inside it are reached through the descriptor, not the path. */
export class Dir {
  constructor(
    readonly fd: number,
    readonly path: string,
  ) {}

  at(name: string): string {
    if (name === "" || name === "." || name === ".." || name.includes("/")) throw new UnsafePath(`bad name ${JSON.stringify(name)}`);
    return `/proc/self/fd/${this.fd}/${name}`;
  }

  close(): void {
    closeSync(this.fd);
  }
}

/** The components of an absolute, normalised path; anything else is refused. */
export function components(path: string): string[] {
  if (!path.startsWith("/") || posix.normalize(path) !== path || path.includes("\0"))
    throw new UnsafePath(`not a normalised absolute path: ${JSON.stringify(path)}`);
  return path.split("/").filter(Boolean);
}

function openDirAt(parent: Dir | undefined, name: string, full: string): Dir {
  try {
    return new Dir(openSync(parent ? parent.at(name) : "/", O_RDONLY | O_DIRECTORY | O_NOFOLLOW), full);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ELOOP" || code === "ENOTDIR") throw new UnsafePath(`${full} is not a directory (a symlink or a file is in the way)`);
    throw err;
  }
}

/** Opens the directory at `path` without following a symlink in any component. */
export function openDir(path: string): Dir {
  let dir = openDirAt(undefined, "/", "/");
  let at = "";
  for (const c of components(path)) {
    at += `/${c}`;
    try {
      const next = openDirAt(dir, c, at);
      dir.close();
      dir = next;
    } catch (err) {
      dir.close();
      throw err;
    }
  }
  return dir;
}

/** `use` on the parent of `path` held open (closed after), with the last component's name. */
export function withParent<T>(path: string, use: (dir: Dir, name: string) => T): T {
  const parts = components(path);
  const name = parts.pop();
  if (!name) throw new UnsafePath("the root itself has no parent");
  const dir = openDir(`/${parts.join("/")}`);
  try {
    return use(dir, name);
  } finally {
    dir.close();
  }
}

/** undefined when nothing is there (without throwing: an exception costs more than the call); other errors throw. */
export function lstatAt(dir: Dir, name: string): Stats | undefined {
  return lstatSync(dir.at(name), { throwIfNoEntry: false });
}

export function readlinkAt(dir: Dir, name: string): string {
  return readlinkSync(dir.at(name));
}

/** Reads a regular file (never a link, fifo or device), at most `max` bytes, with its sha256. */
export function readFileAt(dir: Dir, name: string, max: number): { data: Buffer; sha256: Buffer; st: Stats } {
  const fd = openSync(dir.at(name), O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new UnsafePath(`${dir.path}/${name} is not a regular file`);
    if (st.size > max) throw new UnsafePath(`${dir.path}/${name} is larger than ${max} bytes`);
    const data = Buffer.alloc(st.size);
    let off = 0;
    while (off < data.length) {
      const n = readSync(fd, data, off, data.length - off, off);
      if (n === 0) break;
      off += n;
    }
    const out = data.subarray(0, off);
    return { data: out, sha256: createHash("sha256").update(out).digest(), st };
  } finally {
    closeSync(fd);
  }
}

function tempName(): string {
  return `.agent-sudo-${randomBytes(6).toString("hex")}`;
}

/** Sets owner then mode (chown clears set-id bits) on an open descriptor. */
function own(fd: number, mode: number, uid: number, gid: number): void {
  fchownSync(fd, uid, gid);
  fchmodSync(fd, mode);
}

/** Writes a regular file whole: a fresh temp file, fsynced, owner and mode set, renamed over `name`. */
export function writeFileAt(dir: Dir, name: string, data: Buffer, mode: number, uid: number, gid: number): void {
  const tmp = tempName();
  const fd = openSync(dir.at(tmp), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600);
  try {
    let off = 0;
    while (off < data.length) off += writeSync(fd, data, off, data.length - off);
    own(fd, mode, uid, gid);
    fsyncSync(fd);
  } catch (err) {
    closeSync(fd);
    unlinkSync(dir.at(tmp));
    throw err;
  }
  closeSync(fd);
  renameSync(dir.at(tmp), dir.at(name));
}

/** A symlink, made under a temp name and renamed over `name`. */
export function symlinkAt(dir: Dir, name: string, target: string, uid: number, gid: number): void {
  const tmp = tempName();
  symlinkSync(target, dir.at(tmp));
  lchownSync(dir.at(tmp), uid, gid);
  renameSync(dir.at(tmp), dir.at(name));
}

/** Owner and mode of a file or directory, through a descriptor opened without following it. */
export function setOwnerModeAt(dir: Dir, name: string, mode: number, uid: number, gid: number): void {
  const fd = openSync(dir.at(name), O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  try {
    const st = fstatSync(fd);
    if (!st.isFile() && !st.isDirectory()) throw new UnsafePath(`${dir.path}/${name} is neither a file nor a directory`);
    // A file with other hard links is one inode under several names (a masked secret linked elsewhere, review 21):
    // its owner and mode would change under every name, not the one judged.
    if (st.isFile() && st.nlink > 1)
      throw new UnsafePath(`${dir.path}/${name} has ${st.nlink} hard links: its owner and mode are not changed in place`);
    own(fd, mode, uid, gid);
  } finally {
    closeSync(fd);
  }
}

/** Removes a file, symlink or (recursively) directory, never leaving `dir` through a link. */
export function removeAt(dir: Dir, name: string): void {
  const st = lstatAt(dir, name);
  if (!st) return;
  if (!st.isDirectory()) {
    unlinkSync(dir.at(name));
    return;
  }
  const sub = openDirAt(dir, name, `${dir.path === "/" ? "" : dir.path}/${name}`);
  try {
    for (const child of listAt(sub)) removeAt(sub, child);
  } finally {
    sub.close();
  }
  rmdirSync(dir.at(name));
}

/** The names in a directory held open. */
export function listAt(dir: Dir): string[] {
  return readdirSync(`/proc/self/fd/${dir.fd}`);
}

/** What a commit or a rollback puts at a name: `content` undefined keeps a file's bytes (owner and mode only). */
export type Placed =
  | { kind: "dir"; mode: number; uid: number; gid: number }
  | { kind: "symlink"; target: string; uid: number; gid: number }
  | { kind: "file"; mode: number; uid: number; gid: number; content: (() => Buffer) | undefined };

/** Puts `want` at `name`: a directory kept or made, anything else replacing what is there (a directory included). */
export function placeAt(dir: Dir, name: string, want: Placed): void {
  const st = lstatAt(dir, name);
  if (want.kind === "dir") {
    // Made 0700 (mkdir never follows a link at the name: EEXIST), then its owner and mode.
    if (st && !st.isDirectory()) removeAt(dir, name);
    if (!st?.isDirectory()) mkdirSync(dir.at(name), 0o700);
    setOwnerModeAt(dir, name, want.mode, want.uid, want.gid);
    return;
  }
  const content = want.kind === "file" ? want.content : undefined;
  if (want.kind === "file" && !content) {
    // Bytes kept: only a regular file has them; anything else there now fails before anything is removed.
    if (!st?.isFile()) throw new UnsafePath(`${name}: no longer the file whose bytes are kept`);
    setOwnerModeAt(dir, name, want.mode, want.uid, want.gid);
    return;
  }
  if (st?.isDirectory()) removeAt(dir, name);
  if (want.kind === "symlink") symlinkAt(dir, name, want.target, want.uid, want.gid);
  else if (content) writeFileAt(dir, name, content(), want.mode, want.uid, want.gid);
}

/** The order a commit or rollback applies paths in: removals deepest first, then the rest parents first. */
export function applyOrder<T extends { path: string }>(items: readonly T[], removes: (item: T) => boolean): T[] {
  const depth = (p: string) => p.split("/").length;
  const out = items.filter(removes).sort((a, b) => depth(b.path) - depth(a.path));
  return [...out, ...items.filter((i) => !removes(i)).sort((a, b) => depth(a.path) - depth(b.path))];
}

/** fsync a directory (its entries' names), by path: the executor's own store and journal, never a host path. */
export function syncDir(path: string): void {
  const fd = openSync(path, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
