// A throwaway root for tests whose commands have REAL effects (the broker
// commits diffs as root): a process tree that sees this machine's files and
// can change any of them, while every change lands in memory and vanishes
// when the root is closed. A harness bug must fail an assertion, not wipe
// the machine.
//
// How it is built (one sh script below, util-linux + perl-base only; no
// bubblewrap, no Docker, no systemd; nothing is written to the host's disk):
//   unshare --mount --pid --net --ipc --uts --cgroup --fork --propagation private
//   - a tmpfs (root-only, size-capped) over /run of the new mount namespace
//     holds every upper/work directory: never inside a lower layer;
//   - the new root is a NON-recursive bind of the host's `/`, read-only,
//     nosuid, nodev (so files directly in `/` are visible but not writable);
//   - every top-level directory of the host (etc usr var opt root home srv
//     tmp work boot …, not proc sys dev run) is an overlay: lower = the host
//     directory, upper on the tmpfs (upper root given the lower's owner and
//     mode, so /tmp stays 1777); then every deeper disk or tmpfs mount of the
//     host (/proc/self/mountinfo), parents first, gets its own overlay, since
//     overlayfs does not descend into submounts (all nodev, redirect_dir=on
//     so directories can be renamed, xino=on);
//   - /run: a fresh tmpfs; /dev: a small tmpfs with null zero full random
//     urandom tty (mknod) + fresh devpts, shm, mqueue, never the host's disks;
//   - /proc: a fresh procfs for the new pid namespace; /proc/sys, irq, bus,
//     fs read-only (/proc/sys/user stays writable: user.* sysctls are per
//     user namespace and the broker's sandbox sets one in its own);
//     sysrq-trigger and kcore masked with /dev/null; a spare, unmasked
//     procfs at /run/throwaway-root/proc (parent dir 0700) so that
//     bubblewrap's --proc and `unshare --user --mount-proc` work inside;
//   - /sys: a fresh read-only sysfs (the new network namespace's view); no
//     cgroup tree (empty /sys/fs/cgroup) and a new cgroup namespace;
//   - pivot_root into it, the old root lazily unmounted;
//   - pid 1 is `throwaway-root-init` (perl): brings loopback up, reaps
//     orphans, exits when the harness's pipe closes (the test process died),
//     which kills everything in the pid namespace.
// Every process (pid 1 and each exec) is wrapped by a perl program that first
// REFUSES to run unless `/` is read-only and pid 1 is throwaway-root-init,
// then drops CAP_SYS_MODULE, CAP_SYS_TIME, CAP_SYS_BOOT, CAP_WAKE_ALARM,
// CAP_SYS_RAWIO, CAP_SYSLOG, CAP_AUDIT_CONTROL and CAP_SYS_RESOURCE (without
// it the host's user.* sysctls are read-only to root here, while a user
// namespace created inside still sets its own) from the bounding set and
// installs a seccomp filter returning EPERM for: superblock remounts
// (mount(MS_REMOUNT) without MS_BIND, fspick), swapon/swapoff, block device
// nodes and character devices other than null zero full random urandom tty
// console ptmx (and 0:0 whiteouts), FIFREEZE, module and kexec loading,
// settimeofday/clock_settime, and any syscall of a foreign ABI (i386, x32).
// More commands run in the same root with `exec` (nsenter into its
// namespaces and root + the same wrapper).
//
// Isolated (stays inside): every file write, delete, chmod, chown under any
// top-level directory (in the overlays, on the tmpfs); mounts and umounts;
// processes (kill -9 -1 reaches only the root); network (loopback only:
// iptables -F, ip link … down stay inside); hostname; SysV IPC; sysctls
// (read-only /proc/sys; user.* writable only from a user namespace of one's
// own); the clock, modules, kexec, reboot (capabilities
// dropped); `mount -o remount,ro /` and fsfreeze (seccomp); raw disks (no
// block devices, none can be created).
//
// What still reaches the host:
//   - files directly in `/` are read-only (EROFS), not isolated copies: new
//     top-level entries cannot be created; deeper files are fine;
//   - a procfs, sysfs, cgroup2, debugfs, efivarfs… mounted by hand inside
//     (root keeps CAP_SYS_ADMIN to mount overlays and tmpfs): through it,
//     sysctls, cgroups and device attributes of the host (the cgroup
//     namespace is rooted at the test's own cgroup, which may be the host's
//     root); so does the spare procfs, on purpose;
//   - bind remounts (`mount -o remount,bind,rw /` makes the host's root
//     writable again: seccomp cannot see the mount target);
//   - AppArmor policy loads (CAP_MAC_ADMIN kept), BPF, perf, keyrings, the
//     kernel log (each overlay mount logs an "xino" line), memory and CPU use
//     (only the tmpfs is capped);
//   - changes the host makes to a lower layer while the root is open may or
//     may not be seen inside (overlayfs leaves that undefined): a parallel
//     rebuild of dist/ shows up half-done inside.
//
// Limits:
//   - tier 2 inside: the project's overlay driver (services/sandbox/mounts.ts)
//     mirrors disk file systems only; here every top-level directory is an
//     overlay, so the driver mirrors the read-only `/` alone and refuses to
//     commit ("diff: /tmp: a mount point on the host …"). Mirroring "overlay"
//     mounts as well (adding it to DISK_FS there) makes tier-2 commits work
//     inside (tried on a copy of the compiled driver patched inside a root:
//     `sed -i` and `rm -rf` on canaries committed inside, host untouched).
//     The overlays are mounted xino=on so that, as on a disk, every entry of
//     a top-level directory has the same st_dev (the driver's diff checks it);
//   - on a host whose `/` is itself overlayfs (a container), the driver's
//     overlay on ours would exceed the kernel's stacking depth of 2;
//   - x86-64 and arm64 only (syscall numbers).
// Timings here: entering ~0.1 s (17 overlays), a command ~7 ms, the whole
// agent-sudo stack ready inside ~2.5-4 s.
import { childPids } from "./processes.js";
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, lstatSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { findProgram } from "../../services/shared/programs.js";
import { statFields } from "../../services/shared/process-alive.js";

// ---------------------------------------------------------------- the plan

/** One overlay: the host directory that is its lower layer and where it appears inside. */
export interface Layer {
  lower: string;
  target: string;
  /** A top-level directory (failure is fatal) or a deeper mount (failure leaves it empty, with a warning). */
  required: boolean;
}

interface MountEntry {
  id: number;
  parent: number;
  mountPoint: string;
  fsType: string;
}

/** File systems whose content is mirrored (overlaid); pseudo and network file systems are not. */
const DATA_FS = new Set([
  "ext2",
  "ext3",
  "ext4",
  "xfs",
  "btrfs",
  "f2fs",
  "jfs",
  "reiserfs",
  "zfs",
  "vfat",
  "exfat",
  "bcachefs",
  "tmpfs",
  "overlay",
]);
/** Top-level directories built fresh inside, never mirrored. */
const FRESH_TOP = new Set(["proc", "sys", "dev", "run"]);
/** Characters an overlay `lowerdir=` or mount option cannot carry unescaped. */
const UNSAFE = /[,:\\\n]/;

function parseMountinfo(text: string): MountEntry[] {
  const out: MountEntry[] = [];
  for (const line of text.split("\n")) {
    if (!line) continue;
    const [left, right] = line.split(" - ");
    const f = left?.split(" ") ?? [];
    const fsType = right?.split(" ")[0];
    if (f.length < 5 || !fsType) continue;
    out.push({
      id: Number(f[0]),
      parent: Number(f[1]),
      mountPoint: f[4]!.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8))),
      fsType,
    });
  }
  return out;
}

function topOf(path: string): string {
  return path.split("/")[1] ?? "";
}

/**
 * The overlays for a root mirroring this host: each top-level directory
 * (`topDirs`: names of real directories in `/`, not symlinks), then each
 * deeper data mount that is visible (the topmost at its path, its parent the
 * visible mount above it), parents first.
 */
export function planLayers(mountinfo: string, topDirs: readonly string[]): { layers: Layer[]; skipped: string[] } {
  const entries = parseMountinfo(mountinfo);
  const visible = new Map<string, MountEntry>();
  for (const e of entries) visible.set(e.mountPoint, e); // the last mount at a path is the visible one
  const layers: Layer[] = [];
  const skipped: string[] = [];
  const layered = new Set<string>();
  for (const name of [...topDirs].sort()) {
    const path = `/${name}`;
    if (FRESH_TOP.has(name)) continue;
    const m = visible.get(path);
    if (UNSAFE.test(name) || (m && !DATA_FS.has(m.fsType))) {
      skipped.push(path);
      continue;
    }
    layers.push({ lower: path, target: path, required: true });
    layered.add(path);
  }
  const deeper = [...visible.values()]
    .filter((e) => e.mountPoint.split("/").length > 2)
    .sort((a, b) => a.mountPoint.length - b.mountPoint.length);
  for (const e of deeper) {
    if (FRESH_TOP.has(topOf(e.mountPoint))) continue;
    if (!DATA_FS.has(e.fsType) || UNSAFE.test(e.mountPoint)) {
      skipped.push(e.mountPoint);
      continue;
    }
    // The mount that holds its mount point must be the visible one there, and mirrored (or the root's own file system).
    let holder = e.mountPoint;
    let above: MountEntry | undefined;
    while (holder !== "/") {
      holder = holder.slice(0, holder.lastIndexOf("/")) || "/";
      above = visible.get(holder);
      if (above) break;
    }
    const mirrored = holder === "/" ? layered.has(`/${topOf(e.mountPoint)}`) : layered.has(holder);
    if (!above || above.id !== e.parent || !mirrored) {
      skipped.push(e.mountPoint);
      continue;
    }
    layers.push({ lower: e.mountPoint, target: e.mountPoint, required: false });
    layered.add(e.mountPoint);
  }
  return { layers, skipped };
}

function hostTopDirs(): string[] {
  return readdirSync("/").filter((n) => {
    try {
      return lstatSync(`/${n}`).isDirectory();
    } catch {
      return false;
    }
  });
}

// ---------------------------------------------------------------- seccomp

type Arch = "x64" | "arm64";

const ARCH: Record<Arch, { audit: number; x32: boolean; nr: Record<string, number | undefined> }> = {
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
    },
  },
};

const ALWAYS_DENIED = [
  "fspick",
  "swapon",
  "swapoff",
  "kexec_load",
  "kexec_file_load",
  "init_module",
  "finit_module",
  "delete_module",
  "settimeofday",
  "clock_settime",
];
/** Character devices that may be created: 0:0 (overlay whiteouts), mem null/zero/full/random/urandom, tty, console, ptmx. */
const ALLOWED_CHR = [0, 0x103, 0x105, 0x107, 0x108, 0x109, 0x500, 0x501, 0x502];
const MS_REMOUNT = 32;
const MS_BIND = 4096;
const S_IFMT = 0o170000;
const S_IFCHR = 0o020000;
const S_IFBLK = 0o060000;
const FIFREEZE = 0xc0045877;
const RET_ALLOW = 0x7fff0000;
const RET_EPERM = 0x00050001;

type Op = { label: string } | { code: number; k: number; jt?: string; jf?: string; ja?: string };

/** The seccomp BPF program (hex of struct sock_filter[]) for an architecture. */
export function seccompFilter(arch: Arch): string {
  const a = ARCH[arch];
  const nr = (n: string) => a.nr[n];
  const LD = 0x20,
    JEQ = 0x15,
    JSET = 0x45,
    JGE = 0x35,
    AND = 0x54,
    RET = 0x06,
    JA = 0x05;
  const arg = (i: number) => 16 + 8 * i; // low 32 bits of args[i] (little endian)
  const ops: Op[] = [
    { code: LD, k: 4 },
    { code: JEQ, k: a.audit, jf: "deny" },
    { code: LD, k: 0 },
  ];
  if (a.x32) ops.push({ code: JGE, k: 0x40000000, jt: "deny" });
  ops.push({ code: JEQ, k: nr("mount")!, jt: "mount" });
  if (nr("mknod") !== undefined) ops.push({ code: JEQ, k: nr("mknod")!, jt: "mknod" });
  ops.push({ code: JEQ, k: nr("mknodat")!, jt: "mknodat" });
  ops.push({ code: JEQ, k: nr("ioctl")!, jt: "ioctl" });
  for (const n of ALWAYS_DENIED) ops.push({ code: JEQ, k: nr(n)!, jt: "deny" });
  ops.push({ code: RET, k: RET_ALLOW });
  // mount(src, target, type, flags, data): a remount that is not a bind remount changes the superblock (the host's).
  ops.push(
    { label: "mount" },
    { code: LD, k: arg(3) },
    { code: JSET, k: MS_REMOUNT, jf: "allow" },
    { code: JSET, k: MS_BIND, jt: "allow", jf: "deny" },
  );
  // mknod(path, mode, dev) / mknodat(dirfd, path, mode, dev)
  for (const [label, modeArg] of [
    ["mknod", 1],
    ["mknodat", 2],
  ] as const) {
    if (label === "mknod" && nr("mknod") === undefined) continue;
    ops.push(
      { label },
      { code: LD, k: arg(modeArg) },
      { code: AND, k: S_IFMT },
      { code: JEQ, k: S_IFBLK, jt: "deny" },
      { code: JEQ, k: S_IFCHR, jf: "allow" },
      { code: LD, k: arg(modeArg + 1) },
      { code: JA, k: 0, ja: "chrdev" },
    );
  }
  ops.push({ label: "chrdev" });
  for (const dev of ALLOWED_CHR) ops.push({ code: JEQ, k: dev, jt: "allow" });
  ops.push({ code: RET, k: RET_EPERM });
  ops.push({ label: "ioctl" }, { code: LD, k: arg(1) }, { code: JEQ, k: FIFREEZE, jt: "deny", jf: "allow" });
  ops.push({ label: "allow" }, { code: RET, k: RET_ALLOW }, { label: "deny" }, { code: RET, k: RET_EPERM });

  const at = new Map<string, number>();
  const insns: Exclude<Op, { label: string }>[] = [];
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

// ---------------------------------------------------------------- capabilities

const CAP_NUMBERS: Record<string, number> = {
  sys_module: 16,
  sys_rawio: 17,
  sys_pacct: 20,
  sys_boot: 22,
  sys_resource: 24,
  sys_time: 25,
  audit_control: 30,
  mac_admin: 33,
  syslog: 34,
  wake_alarm: 35,
};
/** Dropped from the bounding set of everything inside: nothing there needs them and they reach the host. */
export const DEFAULT_DROPPED_CAPS = [
  "sys_module",
  "sys_time",
  "sys_boot",
  "wake_alarm",
  "sys_rawio",
  "syslog",
  "audit_control",
  "sys_resource",
];

// ---------------------------------------------------------------- the programs

/**
 * The wrapper every process inside starts through (pid 1 with mode "init",
 * each exec with mode "exec"). Passed to `perl -e`, never written to disk.
 * Args: mode arch dropped-cap-numbers seccomp-hex cwd -- argv.
 */
const WRAPPER = String.raw`use strict;
my ($mode, $arch, $drop, $filter, $cwd) = splice(@ARGV, 0, 5);
my %NR = (x64 => { prctl => 157, faccessat => 269 }, arm64 => { prctl => 167, faccessat => 48 });
sub fail { print STDERR "throwaway-root: @_\n"; exit 125 }
my $S = $NR{$arch} or fail("unsupported architecture $arch");
# Never run anything unless this is the throwaway root: / read-only, pid 1 ours.
my $slash = '/';
if (syscall($S->{faccessat}, -100, $slash, 2, 0) == 0 || $! != 30) { fail("/ is not read-only (errno " . (0 + $!) . "): not inside the throwaway root") }
if ($mode eq 'init') {
  $$ == 1 or fail("init is not pid 1");
} else {
  open(my $c, '<', '/proc/1/cmdline') or fail("/proc/1/cmdline: $!");
  my $cl = <$c> // '';
  $cl =~ /^throwaway-root-init/ or fail("pid 1 is not throwaway-root-init");
}
for my $c (grep { length } split /,/, $drop) {
  syscall($S->{prctl}, 24, 0 + $c, 0, 0, 0) == 0 or fail("PR_CAPBSET_DROP $c: $!");
}
if ($mode eq 'init') {
  # Loopback up (SIOCSIFFLAGS IFF_UP|IFF_LOOPBACK|IFF_RUNNING): no ip(8) needed.
  socket(my $s, 2, 2, 0) or fail("socket: $!");
  my $ifr = pack('a16 s x22', 'lo', 1 | 8 | 0x40);
  ioctl($s, 0x8914, $ifr) or fail("loopback up: $!");
  close($s);
}
{
  my $f = pack('H*', $filter);
  my $prog = pack('S x6 Q', length($f) / 8, unpack('Q', pack('p', $f)));
  syscall($S->{prctl}, 22, 2, $prog, 0, 0) == 0 or fail("seccomp: $!");
}
if ($mode eq 'init') {
  $0 = 'throwaway-root-init';
  $SIG{CHLD} = sub { };
  $SIG{PIPE} = 'IGNORE';
  $| = 1;
  print "throwaway-root-ready\n";
  while (1) {
    1 while waitpid(-1, 1) > 0;
    my $rin = '';
    vec($rin, 0, 1) = 1;
    if (select(my $rout = $rin, undef, undef, 0.5) > 0) {
      # The harness's pipe closed: its process is gone, so is this root.
      my $r = sysread(STDIN, my $buf, 512);
      exit 0 if defined($r) && $r == 0;
    }
  }
}
chdir($cwd) or fail("cd $cwd: $!");
@ARGV or fail("no command");
exec { $ARGV[0] } @ARGV;
print STDERR "throwaway-root: $ARGV[0]: $!\n";
exit 127;
`;

/**
 * The setup script, run by sh right after unshare. Args: tmpfs-size
 * host-mount-ns n (lower target required)×n, then pid 1's argv.
 */
const SETUP = String.raw`set -eu
size=$1 hostns=$2 n=$3
shift 3
say() { echo "throwaway-root: $*" >&2; }
[ "$(readlink /proc/self/ns/mnt)" != "$hostns" ] || { say "not in a new mount namespace"; exit 125; }
S=/run
mount -t tmpfs -o "mode=0700,nosuid,nodev,inode32,size=$size" throwaway-root "$S"
R=$S/root
mkdir -m 0755 "$R" "$S/u" "$S/w"
mount --bind / "$R"
mount -o remount,bind,ro,nosuid,nodev "$R"
i=0
while [ "$i" -lt "$n" ]; do
  lower=$1 target=$2 required=$3
  shift 3
  u=$S/u/$i w=$S/w/$i
  # A mount another test removes between the listing and here (a chaos test's small tmpfs) is left out, unless required.
  if [ ! -e "$lower" ]; then
    [ "$required" = 1 ] && { say "$target is gone"; exit 125; }
    say "warning: $target gone before it was mirrored"
    i=$((i + 1))
    continue
  fi
  mkdir "$u" "$w"
  if ! chown --reference="$lower" "$u" 2>/dev/null || ! chmod --reference="$lower" "$u" 2>/dev/null; then
    [ "$required" = 1 ] && { say "$target is gone"; exit 125; }
    say "warning: $target gone before it was mirrored"
    i=$((i + 1))
    continue
  fi
  if mount -t overlay -o "nodev,redirect_dir=on,xino=on,lowerdir=$lower,upperdir=$u,workdir=$w" throwaway-root "$R$target" 2>/dev/null; then :
  elif mount -t overlay -o "nodev,lowerdir=$lower,upperdir=$u,workdir=$w" throwaway-root "$R$target"; then :
  elif [ "$required" = 1 ]; then say "overlay of $target failed"; exit 125
  else say "warning: $target not mirrored (left as its parent shows it)"
  fi
  i=$((i + 1))
done
mount -t tmpfs -o mode=0755,nosuid,nodev,size=64m throwaway-run "$R/run"
mkdir -m 1777 "$R/run/lock"
mkdir -m 0700 "$R/run/throwaway-root"
mkdir "$R/run/throwaway-root/proc"
mount -t tmpfs -o mode=0755,nosuid,noexec,size=1m throwaway-dev "$R/dev"
mknod -m 0666 "$R/dev/null" c 1 3
mknod -m 0666 "$R/dev/zero" c 1 5
mknod -m 0666 "$R/dev/full" c 1 7
mknod -m 0666 "$R/dev/random" c 1 8
mknod -m 0666 "$R/dev/urandom" c 1 9
mknod -m 0666 "$R/dev/tty" c 5 0
ln -s /proc/self/fd "$R/dev/fd"
ln -s /proc/self/fd/0 "$R/dev/stdin"
ln -s /proc/self/fd/1 "$R/dev/stdout"
ln -s /proc/self/fd/2 "$R/dev/stderr"
ln -s pts/ptmx "$R/dev/ptmx"
mkdir "$R/dev/pts" "$R/dev/shm" "$R/dev/mqueue"
mount -t devpts -o newinstance,ptmxmode=0666,mode=0620,gid=5,nosuid,noexec throwaway-devpts "$R/dev/pts"
mount -t tmpfs -o mode=1777,nosuid,nodev,size=256m throwaway-shm "$R/dev/shm"
mount -t mqueue -o nosuid,nodev,noexec mqueue "$R/dev/mqueue"
mount -t proc -o nosuid,nodev,noexec proc "$R/proc"
mount -t proc -o nosuid,nodev,noexec proc "$R/run/throwaway-root/proc"
for p in bus fs irq sys; do
  if [ -e "$R/proc/$p" ]; then
    mount --bind "$R/proc/$p" "$R/proc/$p"
    mount -o remount,bind,ro,nosuid,nodev,noexec "$R/proc/$p"
  fi
done
mount --bind "$R/proc/sys/user" "$R/proc/sys/user"
mount -o remount,bind,rw,nosuid,nodev,noexec "$R/proc/sys/user"
for f in sysrq-trigger kcore; do
  if [ -e "$R/proc/$f" ]; then mount --bind "$R/dev/null" "$R/proc/$f"; fi
done
mount -t sysfs -o ro,nosuid,nodev,noexec sysfs "$R/sys"
cd "$R"
pivot_root . .
umount -l .
cd /
exec "$@"
`;

/** A relay from stdio to 127.0.0.1:PORT (inside the root's network namespace). */
const RELAY = String.raw`use strict;
my $port = shift;
socket(my $s, 2, 1, 0) or die "socket: $!\n";
connect($s, pack('S n C4 x8', 2, $port, 127, 0, 0, 1)) or die "connect 127.0.0.1:$port: $!\n";
binmode(STDIN); binmode(STDOUT);
my $in = 1;
sub put { my ($fh, $buf) = @_; while (length $buf) { my $w = syswrite($fh, $buf); return 0 unless $w; substr($buf, 0, $w) = '' } 1 }
while (1) {
  my $rin = '';
  vec($rin, fileno($s), 1) = 1;
  vec($rin, 0, 1) = 1 if $in;
  next if select(my $rout = $rin, undef, undef, undef) < 0;
  if ($in && vec($rout, 0, 1)) {
    my $n = sysread(STDIN, my $buf, 65536);
    if (!$n) { $in = 0; shutdown($s, 1) } else { put($s, $buf) or exit 0 }
  }
  if (vec($rout, fileno($s), 1)) {
    my $n = sysread($s, my $buf, 65536);
    exit 0 if !$n;
    put(\*STDOUT, $buf) or exit 0;
  }
}
`;

// ---------------------------------------------------------------- the API

const SAFE_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
const READY = "throwaway-root-ready\n";

export interface ThrowawayRootOptions {
  /** Size of the tmpfs holding every write made inside (tmpfs size= syntax). Default 2g. */
  tmpfsSize?: string;
  /** Environment added to every exec (over PATH, HOME=/root, LANG=C.UTF-8, USER/LOGNAME=root). */
  env?: Record<string, string>;
  /** Capability names dropped from the bounding set inside. Default DEFAULT_DROPPED_CAPS. */
  dropCaps?: string[];
  /** How long building the root may take. Default 30 s. */
  setupTimeoutMs?: number;
}

export interface ExecOptions {
  env?: Record<string, string>;
  /** Working directory inside. Default "/". */
  cwd?: string;
  stdin?: string | Buffer;
  /** SIGKILL the command's process group after this long. Default 60 s. */
  timeoutMs?: number;
}

export interface ExecResult {
  /** Exit code, or 128 + signal number when killed. */
  code: number;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  ms: number;
}

export interface Forward {
  /** Host port that relays to 127.0.0.1:<inside port> in the root. */
  port: number;
  url: string;
  close(): Promise<void>;
}

export interface ThrowawayRoot {
  /** Host pid of the root's pid 1. */
  readonly pid: number;
  readonly layers: readonly Layer[];
  /** Host mounts not mirrored (shown as empty directories inside). */
  readonly skipped: readonly string[];
  /** Milliseconds from spawn to pid 1 ready. */
  readonly setupMs: number;
  /** Runs argv as root inside and waits for it. */
  exec(argv: string[], opts?: ExecOptions): Promise<ExecResult>;
  /**
   * Starts argv as root inside (e.g. the stack); stdio piped; killed at
   * close() at the latest. The ChildProcess is nsenter's; its kill(signal)
   * is redirected to the command inside.
   */
  spawn(argv: string[], opts?: Omit<ExecOptions, "stdin" | "timeoutMs">): ChildProcess;
  /** A file's content inside (through `cat` run inside). */
  readFile(path: string): Promise<string>;
  /** Writes a file inside (through `cat` run inside). */
  writeFile(path: string, data: string | Buffer, mode?: number): Promise<void>;
  /** A host port relaying to a TCP port on 127.0.0.1 inside (each connection runs a relay inside). */
  forward(insidePort: number): Promise<Forward>;
  /** Kills everything inside; every change made inside is gone. */
  close(): Promise<void>;
}

function hostArch(): Arch {
  if (process.arch === "x64") return "x64";
  if (process.arch === "arm64") return "arm64";
  throw new Error(`throwaway root: unsupported architecture ${process.arch}`);
}

function findBin(name: string): string {
  const found = findProgram(name, SAFE_PATH.split(":"));
  if (!found) throw new Error(`throwaway root: ${name} not found`);
  return found;
}

function killGroup(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, "SIGKILL");
  } catch {
    try {
      child.kill("SIGKILL");
    } catch {
      /* gone */
    }
  }
}

/** Host pids in process group `pgid`, except `pgid` itself. */
function groupMembers(pgid: number): number[] {
  const out: number[] = [];
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d) || Number(d) === pgid) continue;
    if (Number(statFields(d)?.[2]) === pgid) out.push(Number(d));
  }
  return out;
}

/**
 * Kills what an nsenter started inside (its process group, nsenter excluded)
 * and lets nsenter reap it and exit by itself. Killing nsenter first would
 * hand the inside process to the HOST's init as a zombie, and the pid
 * namespace could not finish dying until that init reaps it.
 */
function killInside(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const inside = groupMembers(child.pid);
  for (const p of inside) {
    try {
      process.kill(p, "SIGKILL");
    } catch {
      /* gone */
    }
  }
  if (inside.length === 0) killGroup(child); // nsenter has not forked yet, or its command has left the group
}

const SIGNALS: Record<string, number> = {
  SIGHUP: 1,
  SIGINT: 2,
  SIGQUIT: 3,
  SIGABRT: 6,
  SIGKILL: 9,
  SIGSEGV: 11,
  SIGPIPE: 13,
  SIGALRM: 14,
  SIGTERM: 15,
};

/** Builds a throwaway root and returns a handle to run commands in it. Needs root. */
export async function startThrowawayRoot(opts: ThrowawayRootOptions = {}): Promise<ThrowawayRoot> {
  if (process.getuid?.() !== 0) throw new Error("throwaway root: needs root");
  const arch = hostArch();
  const size = opts.tmpfsSize ?? "2g";
  if (!/^\d+[kmgKMG%]?$/.test(size)) throw new Error(`throwaway root: bad tmpfs size ${size}`);
  const drops = (opts.dropCaps ?? DEFAULT_DROPPED_CAPS).map((c) => {
    const n = CAP_NUMBERS[c.replace(/^cap_/i, "").toLowerCase()];
    if (n === undefined) throw new Error(`throwaway root: unknown capability ${c}`);
    return n;
  });
  const filter = seccompFilter(arch);
  const bins = { unshare: findBin("unshare"), nsenter: findBin("nsenter"), perl: findBin("perl"), sh: "/bin/sh" };
  if (!existsSync("/run") || !lstatSync("/run").isDirectory())
    throw new Error("throwaway root: the host has no /run directory to stage in");
  const { layers, skipped } = planLayers(readFileSync("/proc/self/mountinfo", "utf8"), hostTopDirs());
  const hostNs = (t: string) => readlinkSync(`/proc/self/ns/${t}`);

  const layerArgs = layers.flatMap((l) => [l.lower, l.target, l.required ? "1" : "0"]);
  const wrap = (mode: "init" | "exec", cwd: string) => [bins.perl, "-e", WRAPPER, "--", mode, arch, drops.join(","), filter, cwd];
  const t0 = Date.now();
  const init = spawn(
    bins.unshare,
    [
      "--mount",
      "--pid",
      "--net",
      "--ipc",
      "--uts",
      "--cgroup",
      "--fork",
      "--kill-child=SIGKILL",
      "--propagation",
      "private",
      "--",
      bins.sh,
      "-c",
      SETUP,
      "throwaway-root-setup",
      size,
      hostNs("mnt"),
      String(layers.length),
      ...layerArgs,
      ...wrap("init", "/"),
    ],
    { stdio: ["pipe", "pipe", "pipe"], env: { PATH: SAFE_PATH, LANG: "C" }, detached: true },
  );
  let setupOut = "";
  let setupErr = "";
  init.stderr?.on("data", (c: Buffer) => {
    setupErr += c.toString();
  });
  init.stdin?.on("error", () => {});
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      killGroup(init);
      reject(new Error(`throwaway root: not ready in ${opts.setupTimeoutMs ?? 30_000} ms:\n${setupErr}`));
    }, opts.setupTimeoutMs ?? 30_000);
    const onData = (c: Buffer) => {
      setupOut += c.toString();
      if (setupOut.includes(READY)) {
        clearTimeout(timer);
        init.stdout?.off("data", onData);
        init.stdout?.resume(); // drain anything later
        resolve();
      }
    };
    init.stdout?.on("data", onData);
    init.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`throwaway root: setup exited (${code ?? signal}):\n${setupErr}${setupOut}`));
    });
    init.once("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
  });
  const setupMs = Date.now() - t0;
  const pid1 = childPids(init.pid!)[0];
  if (pid1 === undefined) {
    killGroup(init);
    throw new Error("throwaway root: cannot find its pid 1");
  }
  // Refuse to go on unless pid 1 really is in namespaces of its own.
  for (const t of ["mnt", "pid", "net", "ipc", "uts"]) {
    if (readlinkSync(`/proc/${pid1}/ns/${t}`) === hostNs(t)) {
      killGroup(init);
      throw new Error(`throwaway root: pid 1 shares the host's ${t} namespace`);
    }
  }

  const children = new Set<ChildProcess>();
  const servers = new Set<Server>();
  const sockets = new Set<Socket>();
  let closed = false;
  const baseEnv = { PATH: SAFE_PATH, HOME: "/root", LANG: "C.UTF-8", USER: "root", LOGNAME: "root", ...opts.env };

  const spawnInside = (argv: string[], o: Omit<ExecOptions, "stdin" | "timeoutMs"> = {}): ChildProcess => {
    if (closed) throw new Error("throwaway root: closed");
    if (argv.length === 0) throw new Error("throwaway root: empty argv");
    const child = spawn(
      bins.nsenter,
      [
        "--target",
        String(pid1),
        "--mount",
        "--uts",
        "--ipc",
        "--net",
        "--pid",
        "--cgroup",
        "--root",
        "--wd",
        "--",
        ...wrap("exec", o.cwd ?? "/"),
        ...argv,
      ],
      { stdio: ["pipe", "pipe", "pipe"], env: { ...baseEnv, ...o.env }, detached: true },
    );
    children.add(child);
    child.once("exit", () => children.delete(child));
    // kill() signals the command inside, not nsenter (which forwards no signal and, killed, would orphan it to the host's init).
    const killNsenter = child.kill.bind(child);
    child.kill = (signal?: NodeJS.Signals | number) => {
      if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return false;
      const cmd = childPids(child.pid)[0];
      if (cmd === undefined) return killNsenter(signal);
      try {
        process.kill(cmd, signal ?? "SIGTERM");
        return true;
      } catch {
        return false;
      }
    };
    child.stdin?.on("error", () => {});
    return child;
  };

  const exec = (argv: string[], o: ExecOptions = {}): Promise<ExecResult> =>
    new Promise((resolve, reject) => {
      const started = Date.now();
      const child = spawnInside(argv, o);
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      child.stdout?.on("data", (c: Buffer) => out.push(c));
      child.stderr?.on("data", (c: Buffer) => err.push(c));
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        killInside(child);
      }, o.timeoutMs ?? 60_000);
      child.once("error", (e) => {
        clearTimeout(timer);
        reject(e);
      });
      child.once("close", (code, signal) => {
        clearTimeout(timer);
        resolve({
          code: code ?? 128 + (SIGNALS[signal ?? ""] ?? 0),
          signal,
          stdout: Buffer.concat(out).toString(),
          stderr: Buffer.concat(err).toString(),
          timedOut,
          ms: Date.now() - started,
        });
      });
      child.stdin?.end(o.stdin ?? "");
    });

  const root: ThrowawayRoot = {
    pid: pid1,
    layers,
    skipped,
    setupMs,
    exec,
    spawn: spawnInside,
    async readFile(path) {
      const r = await exec(["cat", "--", path]);
      if (r.code !== 0) throw new Error(`throwaway root: cannot read ${path}: ${r.stderr.trim()}`);
      return r.stdout;
    },
    async writeFile(path, data, mode) {
      const script = mode === undefined ? 'cat > "$1"' : 'cat > "$1" && chmod "$2" "$1"';
      const r = await exec(["/bin/sh", "-c", script, "sh", path, (mode ?? 0o644).toString(8)], { stdin: data });
      if (r.code !== 0) throw new Error(`throwaway root: cannot write ${path}: ${r.stderr.trim()}`);
    },
    async forward(insidePort) {
      const mine = new Set<Socket>();
      const server = createServer((sock) => {
        sockets.add(sock);
        mine.add(sock);
        sock.once("close", () => {
          sockets.delete(sock);
          mine.delete(sock);
        });
        let relay: ChildProcess;
        try {
          relay = spawnInside([bins.perl, "-e", RELAY, String(insidePort)]);
        } catch {
          sock.destroy();
          return;
        }
        relay.stderr?.resume();
        relay.stdout?.pipe(sock); // ends the socket when the inside end closes
        sock.pipe(relay.stdin!);
        sock.once("error", () => killInside(relay));
        sock.once("close", () => killInside(relay));
      });
      servers.add(server);
      await new Promise<void>((resolve, reject) => {
        server.once("error", reject);
        server.listen(0, "127.0.0.1", () => resolve());
      });
      const port = (server.address() as { port: number }).port;
      return {
        port,
        url: `http://127.0.0.1:${port}`,
        close: () =>
          new Promise<void>((resolve) => {
            servers.delete(server);
            server.close(() => resolve());
            for (const s of mine) s.destroy();
          }),
      };
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const s of servers) s.close();
      servers.clear();
      for (const s of sockets) s.destroy();
      const exited =
        init.exitCode !== null || init.signalCode !== null ? Promise.resolve() : new Promise<void>((r) => init.once("exit", () => r()));
      init.stdin?.end();
      try {
        process.kill(pid1, "SIGKILL"); // the pid namespace, and so everything inside, dies with its pid 1
      } catch {
        /* already gone */
      }
      const waitChildren = [...children].map((c) =>
        c.exitCode !== null || c.signalCode !== null ? Promise.resolve() : new Promise<void>((r) => c.once("exit", () => r())),
      );
      const all = Promise.all([exited, ...waitChildren]);
      const timer = new Promise<"late">((r) => setTimeout(() => r("late"), 5000).unref());
      if ((await Promise.race([all, timer])) === "late") {
        killGroup(init);
        for (const c of children) killGroup(c);
        await Promise.race([all, new Promise((r) => setTimeout(r, 2000).unref())]);
      }
    },
  };
  return root;
}

/** Runs argv as root in a fresh throwaway root and returns when it exits; the root is then gone. */
export async function runInThrowawayRoot(
  argv: string[],
  opts: ExecOptions & Pick<ThrowawayRootOptions, "tmpfsSize" | "dropCaps"> = {},
): Promise<{ code: number; stdout: string; stderr: string; timedOut: boolean }> {
  const root = await startThrowawayRoot({
    ...(opts.tmpfsSize ? { tmpfsSize: opts.tmpfsSize } : {}),
    ...(opts.dropCaps ? { dropCaps: opts.dropCaps } : {}),
  });
  try {
    const r = await root.exec(argv, opts);
    return { code: r.code, stdout: r.stdout, stderr: r.stderr, timedOut: r.timedOut };
  } finally {
    await root.close();
  }
}
