// The envelope's seccomp filter: system calls no command run by agent-sudo
// needs and that reach past its envelope. Installed by the envelope program
// last, just before exec (after no_new_privs); errno EPERM, or ENOSYS for
// clone3 (glibc then falls back to clone, whose flags the filter can read).
//   every envelope: open_by_handle_at / name_to_handle_at (a file handle opens
//     an inode by number, past any mask), the keyrings (add_key, keyctl,
//     request_key: the host's, not namespaced), ptrace and process_vm_* (other
//     processes' memory), io_uring (its operations bypass this filter), bpf,
//     perf_event_open, userfaultfd, file leases (fcntl F_SETLEASE: a lease on
//     a root-owned host file stalls every process that opens it to write, up
//     to lease-break-time, even from tier 0's read-only mounts), new user namespaces (unshare/clone with
//     CLONE_NEWUSER; clone3 → ENOSYS), kexec, modules, the clock, swap, and
//     any other architecture's or x32 calls.
//   tier 0 also: socket() of every family ("none": it has no network
//     namespace of its own, so no socket at all — no inet, no netlink, no
//     abstract or path Unix socket), or, for a command of a rule flagged
//     `network`, socket(AF_UNIX) only ("no-unix": a read-only mount does not
//     stop connect() on a host daemon's socket file). Either way socketpair
//     stays for stream and seqpacket pairs only: a datagram socket, even one
//     of a pair, may sendto() any abstract or path address (review 19), and
//     the kernel makes a SOCK_RAW pair a datagram one (review 21).
// The BPF assembler is shared with the test suite's throwaway root.

export type SeccompArch = "x64" | "arm64";

export const SECCOMP_ARCH: Record<SeccompArch, { audit: number; x32: boolean; nr: Record<string, number | undefined> }> = {
  x64: {
    audit: 0xc000003e,
    x32: true,
    nr: {
      mount: 165,
      mknod: 133,
      mknodat: 259,
      ioctl: 16,
      fspick: 433,
      swapon: 167,
      swapoff: 168,
      kexec_load: 246,
      kexec_file_load: 320,
      init_module: 175,
      finit_module: 313,
      delete_module: 176,
      settimeofday: 164,
      clock_settime: 227,
      open_by_handle_at: 304,
      name_to_handle_at: 303,
      add_key: 248,
      keyctl: 250,
      request_key: 249,
      ptrace: 101,
      process_vm_readv: 310,
      process_vm_writev: 311,
      io_uring_setup: 425,
      io_uring_enter: 426,
      io_uring_register: 427,
      bpf: 321,
      perf_event_open: 298,
      userfaultfd: 323,
      unshare: 272,
      clone: 56,
      clone3: 435,
      socket: 41,
      socketpair: 53,
      fcntl: 72,
      adjtimex: 159,
      clock_adjtime: 305,
    },
  },
  arm64: {
    audit: 0xc00000b7,
    x32: false,
    nr: {
      mount: 40,
      mknodat: 33,
      ioctl: 29,
      fspick: 433,
      swapon: 224,
      swapoff: 225,
      kexec_load: 104,
      kexec_file_load: 294,
      init_module: 105,
      finit_module: 273,
      delete_module: 106,
      settimeofday: 170,
      clock_settime: 112,
      open_by_handle_at: 265,
      name_to_handle_at: 264,
      add_key: 217,
      keyctl: 219,
      request_key: 218,
      ptrace: 117,
      process_vm_readv: 270,
      process_vm_writev: 271,
      io_uring_setup: 425,
      io_uring_enter: 426,
      io_uring_register: 427,
      bpf: 280,
      perf_event_open: 241,
      userfaultfd: 282,
      unshare: 97,
      clone: 220,
      clone3: 435,
      socket: 198,
      socketpair: 199,
      fcntl: 25,
      adjtimex: 171,
      clock_adjtime: 266,
    },
  },
};

export type SeccompOp = { label: string } | { code: number; k: number; jt?: string; jf?: string; ja?: string };

export const BPF = { LD: 0x20, JEQ: 0x15, JSET: 0x45, JGE: 0x35, AND: 0x54, RET: 0x06, JA: 0x05 } as const;
export const RET_ALLOW = 0x7fff0000;
export const RET_EPERM = 0x00050001;
export const RET_ENOSYS = 0x00050026;
/** Offset of the low 32 bits of args[i] in struct seccomp_data (little endian). */
export const arg = (i: number) => 16 + 8 * i;

/** The program's header: the architecture check (foreign and x32 calls deny), then the syscall number in A. */
export function prologue(arch: SeccompArch): SeccompOp[] {
  const a = SECCOMP_ARCH[arch];
  const ops: SeccompOp[] = [
    { code: BPF.LD, k: 4 },
    { code: BPF.JEQ, k: a.audit, jf: "deny" },
    { code: BPF.LD, k: 0 },
  ];
  if (a.x32) ops.push({ code: BPF.JGE, k: 0x40000000, jt: "deny" });
  return ops;
}

/** Resolves labels and encodes struct sock_filter[] as hex. */
export function assemble(ops: readonly SeccompOp[]): string {
  const at = new Map<string, number>();
  const insns: Exclude<SeccompOp, { label: string }>[] = [];
  for (const op of ops) {
    if ("label" in op) at.set(op.label, insns.length);
    else insns.push(op);
  }
  const buf = Buffer.alloc(insns.length * 8);
  insns.forEach((op, i) => {
    const rel = (label: string | undefined, max: number) => {
      if (label === undefined) return 0;
      const to = at.get(label);
      if (to === undefined || to <= i) throw new Error(`seccomp: bad jump to ${label}`);
      const off = to - i - 1;
      if (off > max) throw new Error(`seccomp: jump to ${label} too far`);
      return off;
    };
    buf.writeUInt16LE(op.code, i * 8);
    buf.writeUInt8(rel(op.jt, 255), i * 8 + 2);
    buf.writeUInt8(rel(op.jf, 255), i * 8 + 3);
    buf.writeUInt32LE(op.ja !== undefined ? rel(op.ja, 0xffffffff) : op.k >>> 0, i * 8 + 4);
  });
  return buf.toString("hex");
}

const DENIED = [
  "open_by_handle_at",
  "name_to_handle_at",
  "add_key",
  "keyctl",
  "request_key",
  "ptrace",
  "process_vm_readv",
  "process_vm_writev",
  "io_uring_setup",
  "io_uring_enter",
  "io_uring_register",
  "bpf",
  "perf_event_open",
  "userfaultfd",
  "kexec_load",
  "kexec_file_load",
  "init_module",
  "finit_module",
  "delete_module",
  "settimeofday",
  "clock_settime",
  "adjtimex",
  "clock_adjtime",
  "swapon",
  "swapoff",
  "fspick",
];
const CLONE_NEWUSER = 0x10000000;
/** fcntl's args[1]: a lease on a file the command's uid owns (root: most of the host's) holds every other opener off. */
const F_SETLEASE = 1024;
const AF_UNIX = 1;
const SOCK_STREAM = 1;
const SOCK_SEQPACKET = 5;
/** The socket type's bits in socketpair's args[1] (SOCK_NONBLOCK and SOCK_CLOEXEC above them). */
const SOCK_TYPE_MASK = 0xf;

const cache = new Map<string, string>();

/** Which sockets a command may create: any; none of AF_UNIX; none at all. */
export type SocketRule = "any" | "no-unix" | "none";

/** The filter for one envelope kind, as hex (memoised). */
export function envelopeFilter(arch: SeccompArch, opts: { sockets: SocketRule }): string {
  const key = `${arch}/${opts.sockets}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const nr = (n: string) => {
    const v = SECCOMP_ARCH[arch].nr[n];
    if (v === undefined) throw new Error(`seccomp: no ${n} on ${arch}`);
    return v;
  };
  const ops: SeccompOp[] = prologue(arch);
  for (const n of DENIED) ops.push({ code: BPF.JEQ, k: nr(n), jt: "deny" });
  ops.push({ code: BPF.JEQ, k: nr("clone3"), jt: "nosys" });
  ops.push({ code: BPF.JEQ, k: nr("unshare"), jt: "newuser0" });
  // clone's flags are args[0] on both architectures.
  ops.push({ code: BPF.JEQ, k: nr("clone"), jt: "newuser0" });
  ops.push({ code: BPF.JEQ, k: nr("fcntl"), jt: "fcntl" });
  if (opts.sockets === "none") ops.push({ code: BPF.JEQ, k: nr("socket"), jt: "deny" });
  if (opts.sockets === "no-unix") ops.push({ code: BPF.JEQ, k: nr("socket"), jt: "socket" });
  if (opts.sockets !== "any") ops.push({ code: BPF.JEQ, k: nr("socketpair"), jt: "pair" });
  ops.push({ code: BPF.RET, k: RET_ALLOW });
  ops.push({ label: "newuser0" }, { code: BPF.LD, k: arg(0) }, { code: BPF.JSET, k: CLONE_NEWUSER, jt: "deny", jf: "allow" });
  ops.push({ label: "fcntl" }, { code: BPF.LD, k: arg(1) }, { code: BPF.JEQ, k: F_SETLEASE, jt: "deny", jf: "allow" });
  if (opts.sockets === "no-unix")
    ops.push({ label: "socket" }, { code: BPF.LD, k: arg(0) }, { code: BPF.JEQ, k: AF_UNIX, jt: "deny", jf: "allow" });
  if (opts.sockets !== "any")
    ops.push(
      { label: "pair" },
      { code: BPF.LD, k: arg(1) },
      { code: BPF.AND, k: SOCK_TYPE_MASK },
      { code: BPF.JEQ, k: SOCK_STREAM, jt: "allow" },
      { code: BPF.JEQ, k: SOCK_SEQPACKET, jt: "allow", jf: "deny" },
    );
  ops.push({ label: "nosys" }, { code: BPF.RET, k: RET_ENOSYS });
  ops.push({ label: "allow" }, { code: BPF.RET, k: RET_ALLOW }, { label: "deny" }, { code: BPF.RET, k: RET_EPERM });
  const hex = assemble(ops);
  cache.set(key, hex);
  return hex;
}
