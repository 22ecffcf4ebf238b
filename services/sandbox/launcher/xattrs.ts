// Extended attributes of many entries at once: Node has no xattr calls, so
// the envelope program's perl (perl-base, Essential on Debian and Ubuntu)
// calls llistxattr/lgetxattr for each path and writes a length-prefixed
// answer — in the warm envelope server itself (no process per manifest), or
// in a one-shot `perl -e … --xattrs`. The `l` calls never follow the
// entry's own symlink.
import { spawnSync } from "node:child_process";
import { isUtf8 } from "node:buffer";
import { ENVELOPE_PROGRAM } from "../../shared/envelope/program.js";
import type { EnvelopeServer } from "../../shared/envelope/server.js";
import { envelopeArch, PERL } from "../../shared/envelope/spec.js";

const ENOTSUP = 95;
const ENODATA = 61;

export interface XattrEntry {
  /** name → value; names are raw bytes here (the caller decides what it accepts). */
  xattrs: Array<{ name: Buffer; value: Buffer }>;
  /** Set when the entry's xattrs could not be read. */
  error?: string;
}

/** What reads the xattrs of many paths at once: the warm server (no process per call), or a one-shot perl. */
export type XattrReader = (paths: readonly string[]) => XattrEntry[] | Promise<XattrEntry[]>;

function checked(paths: readonly string[]): void {
  if (!envelopeArch()) throw new Error(`no xattr system calls known for ${process.arch}`);
  if (paths.some((p) => p.includes("\0"))) throw new Error("a path with a NUL byte");
}

/** The xattrs of every path (absolute), in order, by a one-shot perl; throws when it cannot run or answers out of shape. */
export function readXattrsOf(paths: readonly string[]): XattrEntry[] {
  if (paths.length === 0) return [];
  checked(paths);
  const r = spawnSync(PERL, ["-e", ENVELOPE_PROGRAM, "--", "--xattrs", `arch=${envelopeArch()}`], {
    input: Buffer.from(paths.map((p) => `${p}\0`).join(""), "utf8"),
    maxBuffer: 256 * 1024 * 1024,
    env: { PATH: "/usr/bin:/bin" },
  });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`the xattr reader exited ${r.status}: ${r.stderr.toString("utf8").trim().slice(0, 200)}`);
  return parseXattrs(r.stdout, paths.length);
}

/** The same, read by a warm envelope server. */
export function warmXattrReader(server: EnvelopeServer): XattrReader {
  return async (paths) => {
    if (paths.length === 0) return [];
    checked(paths);
    return parseXattrs(await server.xattrs(paths), paths.length);
  };
}

/** The reader's answer (program.ts `xattrs`) for `count` paths. */
function parseXattrs(out: Buffer, count: number): XattrEntry[] {
  let off = 0;
  const u32 = () => {
    if (off + 4 > out.length) throw new Error("the xattr reader's answer is cut short");
    const v = out.readUInt32BE(off);
    off += 4;
    return v;
  };
  const bytes = (n: number) => {
    if (off + n > out.length) throw new Error("the xattr reader's answer is cut short");
    const b = out.subarray(off, off + n);
    off += n;
    return Buffer.from(b);
  };
  const entries: XattrEntry[] = [];
  for (let i = 0; i < count; i++) {
    const tag = String.fromCharCode(out[off++] ?? 0);
    if (tag === "E") {
      const errno = u32();
      // ENOTSUP: the file system holds no xattrs at all, so this entry has none (no capability, no ACL) to carry.
      entries.push(errno === ENOTSUP ? { xattrs: [] } : { xattrs: [], error: `llistxattr: errno ${errno}` });
      continue;
    }
    if (tag !== "L") throw new Error("the xattr reader answered out of shape");
    const count = u32();
    const entry: XattrEntry = { xattrs: [] };
    for (let k = 0; k < count; k++) {
      const t = String.fromCharCode(out[off++] ?? 0);
      if (t === "n") {
        const name = bytes(u32());
        entry.xattrs.push({ name, value: bytes(u32()) });
      } else if (t === "e") {
        const errno = u32();
        const name = bytes(u32());
        // Removed between the list and the read: it is gone; anything else is an error.
        if (errno !== ENODATA) entry.error = `lgetxattr ${printableName(name)}: errno ${errno}`;
      } else throw new Error("the xattr reader answered out of shape");
    }
    entries.push(entry);
  }
  if (off !== out.length) throw new Error("the xattr reader answered more than it was asked");
  return entries;
}

function printableName(b: Buffer): string {
  return isUtf8(b) ? b.toString("utf8") : b.toString("hex");
}
