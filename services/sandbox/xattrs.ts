// Extended attributes of many entries in one process: Node has no xattr
// calls, so one short perl program (perl-base, Essential on Debian and
// Ubuntu) calls llistxattr/lgetxattr for each path it reads on stdin and
// writes a length-prefixed answer. The `l` calls never follow the entry's
// own symlink. One spawn per layer, where tar needed three or four.
import { spawnSync } from "node:child_process";
import { isUtf8 } from "node:buffer";
import { envelopeArch, PERL } from "../shared/envelope/spec.js";

/** llistxattr and lgetxattr, per architecture. */
const NR = { x64: { list: 195, get: 192 }, arm64: { list: 12, get: 9 } } as const;

const PROGRAM = String.raw`use strict;
my ($LIST, $GET) = @ARGV;
local $/ = "\0";
binmode STDIN; binmode STDOUT;
my $out = "";
while (defined(my $p = <STDIN>)) {
  chop $p;
  my $buf = "\0" x 65536;
  my $n = syscall($LIST, $p, $buf, 65536);
  if ($n < 0) { $out .= "E" . pack("N", $! + 0); next; }
  my @names = grep { length } split /\0/, substr($buf, 0, $n);
  $out .= "L" . pack("N", scalar @names);
  for my $name (@names) {
    my $v = "\0" x 65536;
    my $m = syscall($GET, $p, $name, $v, 65536);
    if ($m < 0) { $out .= "e" . pack("N", $! + 0) . pack("N", length $name) . $name; next; }
    $out .= "n" . pack("N", length $name) . $name . pack("N", $m) . substr($v, 0, $m);
  }
}
print $out;
`;

const ENOTSUP = 95;
const ENODATA = 61;

export interface XattrEntry {
  /** name → value; names are raw bytes here (the caller decides what it accepts). */
  xattrs: Array<{ name: Buffer; value: Buffer }>;
  /** Set when the entry's xattrs could not be read. */
  error?: string;
}

/** The xattrs of every path (absolute), in order; throws when the helper cannot run or answers out of shape. */
export function readXattrsOf(paths: readonly string[]): XattrEntry[] {
  if (paths.length === 0) return [];
  const arch = envelopeArch();
  if (!arch) throw new Error(`no xattr system calls known for ${process.arch}`);
  if (paths.some((p) => p.includes("\0"))) throw new Error("a path with a NUL byte");
  const r = spawnSync(PERL, ["-e", PROGRAM, String(NR[arch].list), String(NR[arch].get)], {
    input: Buffer.from(paths.map((p) => `${p}\0`).join(""), "utf8"),
    maxBuffer: 256 * 1024 * 1024,
    env: { PATH: "/usr/bin:/bin" },
  });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`the xattr reader exited ${r.status}: ${r.stderr.toString("utf8").trim().slice(0, 200)}`);
  const out = r.stdout;
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
  for (let i = 0; i < paths.length; i++) {
    const tag = String.fromCharCode(out[off++] ?? 0);
    if (tag === "E") {
      const errno = u32();
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
