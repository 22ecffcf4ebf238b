// Proves the throwaway root contains what runs in it, with CANARIES ONLY:
// every "destructive" command here targets a file this spec created under a
// random name (or a tmpfs it mounted inside), so a harness bug can at worst
// touch those, never the machine.
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer, connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "./stack.js";
import { planLayers, runInThrowawayRoot, seccompFilter, startThrowawayRoot, type ThrowawayRoot } from "./throwaway-root.js";

const hasTools = ["/usr/bin/unshare", "/usr/bin/nsenter", "/usr/bin/perl"].every((p) => existsSync(p));
const isRoot = process.getuid?.() === 0;
const skipReason = !isRoot
  ? "needs root (it builds mount, pid and network namespaces)"
  : !hasTools
    ? "needs unshare, nsenter and perl"
    : "";
if (skipReason) console.warn(`throwaway-root.spec: containment tests skipped: ${skipReason}`);

// ---------------------------------------------------------------- pure parts

/** A tiny classic-BPF interpreter, enough for the seccomp filter. */
function runFilter(hex: string, data: { nr: number; arch: number; args?: number[] }): number {
  const prog = Buffer.from(hex, "hex");
  const word = (off: number): number => {
    if (off === 0) return data.nr >>> 0;
    if (off === 4) return data.arch >>> 0;
    const i = (off - 16) / 8;
    if (!Number.isInteger(i) || i < 0 || i > 5) throw new Error(`load at ${off}`);
    return (data.args?.[i] ?? 0) >>> 0;
  };
  let acc = 0;
  for (let pc = 0; pc < prog.length / 8; ) {
    const code = prog.readUInt16LE(pc * 8);
    const jt = prog.readUInt8(pc * 8 + 2);
    const jf = prog.readUInt8(pc * 8 + 3);
    const k = prog.readUInt32LE(pc * 8 + 4);
    pc++;
    switch (code) {
      case 0x20:
        acc = word(k);
        break;
      case 0x54:
        acc = (acc & k) >>> 0;
        break;
      case 0x05:
        pc += k;
        break;
      case 0x15:
        pc += acc === k ? jt : jf;
        break;
      case 0x35:
        pc += acc >= k ? jt : jf;
        break;
      case 0x45:
        pc += (acc & k) !== 0 ? jt : jf;
        break;
      case 0x06:
        return k;
      default:
        throw new Error(`opcode ${code.toString(16)}`);
    }
  }
  throw new Error("fell off the end");
}

describe("throwaway root: plan and filter", () => {
  it("overlays each top-level directory and each visible deeper data mount, nothing else", () => {
    const mountinfo = [
      "1 0 8:1 / / rw - ext4 /dev/sda1 rw",
      "2 1 0:5 / /proc rw - proc proc rw",
      "3 1 8:2 / /home rw - ext4 /dev/sda2 rw",
      "4 1 8:3 / /boot rw - ext4 /dev/sda3 rw",
      "5 4 8:4 / /boot/efi rw - vfat /dev/sda4 rw",
      "6 1 0:40 / /var/lib/nfs rw - nfs srv:/x rw",
      "7 1 0:41 / /data rw - fuse.sshfs x rw",
      "8 1 8:5 / /srv/a rw - ext4 /dev/sda5 rw",
      "9 1 0:42 / /srv rw - tmpfs tmpfs rw",
      "10 1 8:6 / /tmp/with,comma rw - ext4 /dev/sda6 rw",
      "11 2 0:43 / /proc/sys/fs/binfmt_misc rw - binfmt_misc binfmt_misc rw",
      "12 1 0:44 / /run/user/0 rw - tmpfs tmpfs rw",
      "13 1 0:45 / /sys rw - sysfs sysfs rw",
      "14 1 0:46 / /var/tmp rw - tmpfs tmpfs rw",
      "15 1 0:47 / /media/my\\040disk rw - ext4 /dev/sda7 rw",
    ].join("\n");
    const { layers, skipped } = planLayers(mountinfo, [
      "boot",
      "data",
      "etc",
      "home",
      "media",
      "proc",
      "run",
      "srv",
      "sys",
      "tmp",
      "usr",
      "var",
    ]);
    expect(layers).toEqual([
      { lower: "/boot", target: "/boot", required: true },
      { lower: "/etc", target: "/etc", required: true },
      { lower: "/home", target: "/home", required: true },
      { lower: "/media", target: "/media", required: true },
      { lower: "/srv", target: "/srv", required: true },
      { lower: "/tmp", target: "/tmp", required: true },
      { lower: "/usr", target: "/usr", required: true },
      { lower: "/var", target: "/var", required: true },
      { lower: "/var/tmp", target: "/var/tmp", required: false },
      { lower: "/boot/efi", target: "/boot/efi", required: false },
      { lower: "/media/my disk", target: "/media/my disk", required: false },
    ]);
    // /srv/a is hidden under the later /srv tmpfs; nfs and fuse are not mirrored; a comma cannot go into lowerdir=.
    expect(skipped.sort()).toEqual(["/data", "/srv/a", "/tmp/with,comma", "/var/lib/nfs"]);
  });

  for (const [arch, audit, nr] of [
    [
      "x64",
      0xc000003e,
      { mount: 165, mknod: 133, mknodat: 259, ioctl: 16, fspick: 433, swapoff: 168, read: 0, init_module: 175, clock_settime: 227 },
    ],
    ["arm64", 0xc00000b7, { mount: 40, mknodat: 33, ioctl: 29, fspick: 433, swapoff: 225, read: 63, init_module: 105, clock_settime: 112 }],
  ] as const) {
    it(`seccomp (${arch}): refuses superblock remounts, device nodes, freezes, swap, modules, foreign ABIs; allows the rest`, () => {
      const f = seccompFilter(arch);
      const ALLOW = 0x7fff0000;
      const EPERM = 0x50001;
      const call = (n: number, args: number[] = [], a: number = audit) => runFilter(f, { nr: n, arch: a, args });
      expect(call(nr.read)).toBe(ALLOW);
      expect(call(nr.mount, [0, 0, 0, 0xc0ed0000 | 32 | 1])).toBe(EPERM); // mount -o remount,ro /
      expect(call(nr.mount, [0, 0, 0, 32 | 4096 | 1])).toBe(ALLOW); // bind remount
      expect(call(nr.mount, [0, 0, 0, 0])).toBe(ALLOW); // new mount
      expect(call(nr.fspick)).toBe(EPERM);
      expect(call(nr.swapoff)).toBe(EPERM);
      expect(call(nr.init_module)).toBe(EPERM);
      expect(call(nr.clock_settime)).toBe(EPERM);
      expect(call(nr.mknodat, [0, 0, 0o060600, 0x800])).toBe(EPERM); // block device
      expect(call(nr.mknodat, [0, 0, 0o020666, 0x103])).toBe(ALLOW); // /dev/null
      expect(call(nr.mknodat, [0, 0, 0o020000, 0])).toBe(ALLOW); // whiteout
      expect(call(nr.mknodat, [0, 0, 0o020600, 0x101])).toBe(EPERM); // /dev/mem
      expect(call(nr.mknodat, [0, 0, 0o100644, 0])).toBe(ALLOW); // regular file
      expect(call(nr.mknodat, [0, 0, 0o010644, 0])).toBe(ALLOW); // fifo
      if ("mknod" in nr) {
        expect(call(nr.mknod, [0, 0o060600, 0x800])).toBe(EPERM);
        expect(call(nr.mknod, [0, 0o010644, 0])).toBe(ALLOW);
        expect(call(nr.mknod + 0x40000000)).toBe(EPERM); // x32
      }
      expect(call(nr.ioctl, [3, 0xc0045877])).toBe(EPERM); // FIFREEZE
      expect(call(nr.ioctl, [3, 0x5401])).toBe(ALLOW); // TCGETS
      expect(call(nr.read, [], 0x40000003)).toBe(EPERM); // i386
    });
  }
});

// ---------------------------------------------------------------- containment

describe.skipIf(Boolean(skipReason))("throwaway root: containment (canaries only)", () => {
  const tag = `agent-sudo-canary-${randomBytes(6).toString("hex")}`;
  const c = {
    dir: `/var/tmp/${tag}`,
    dirFile: `/var/tmp/${tag}/f`,
    etc: `/etc/${tag}`,
    mode: `/var/tmp/${tag}-mode`,
    renameDir: `/var/tmp/${tag}-dir`,
    // Created inside only; must never exist on the host.
    usrLocal: `/usr/local/bin/${tag}`,
    rootHome: `/root/${tag}`,
    repo: `${repoRoot}/${tag}`,
    tmp: `/tmp/${tag}`,
  };
  const neverOnHost = [c.usrLocal, c.rootHome, c.repo, c.tmp, `${c.renameDir}2`];
  let root: ThrowawayRoot;

  const hostUntouched = () => {
    expect(readFileSync(c.dirFile, "utf8")).toBe("canary\n");
    expect(readFileSync(c.etc, "utf8")).toBe("etc canary\n");
    expect(statSync(c.mode).mode & 0o7777).toBe(0o600);
    expect(readFileSync(`${c.renameDir}/f`, "utf8")).toBe("in dir\n");
    for (const p of neverOnHost) expect(existsSync(p), p).toBe(false);
    // None of the root's mounts ever shows up in the host's mount table.
    expect(readFileSync("/proc/self/mountinfo", "utf8")).not.toMatch(/throwaway-/);
  };

  beforeAll(async () => {
    for (const p of neverOnHost) if (existsSync(p)) throw new Error(`${p} exists before the test`);
    mkdirSync(c.dir);
    writeFileSync(c.dirFile, "canary\n");
    writeFileSync(c.etc, "etc canary\n", { mode: 0o644 });
    writeFileSync(c.mode, "mode canary\n", { mode: 0o600 });
    mkdirSync(c.renameDir);
    writeFileSync(`${c.renameDir}/f`, "in dir\n");
    root = await startThrowawayRoot();
    console.log(
      `throwaway root: entered in ${root.setupMs} ms (${root.layers.length} overlays${root.skipped.length ? `; not mirrored: ${root.skipped.join(" ")}` : ""})`,
    );
  });

  afterAll(async () => {
    await root?.close();
    // Only the exact paths this spec created (random names).
    rmSync(c.dir, { recursive: true, force: true });
    rmSync(c.etc, { force: true });
    rmSync(c.mode, { force: true });
    rmSync(c.renameDir, { recursive: true, force: true });
    for (const p of neverOnHost) rmSync(p, { force: true });
  });

  it("pid 1 is the harness's init, in namespaces of its own; a command costs milliseconds", async () => {
    for (const ns of ["mnt", "pid", "net", "ipc", "uts", "cgroup"]) {
      expect(readFileSync(`/proc/${root.pid}/cmdline`, "utf8")).toMatch(/^throwaway-root-init/);
      expect(statSync(`/proc/${root.pid}/ns/${ns}`).ino, ns).not.toBe(statSync(`/proc/self/ns/${ns}`).ino);
    }
    const r = await root.exec(["sh", "-c", "tr '\\0' ' ' < /proc/1/cmdline; echo; ls /proc | grep -c '^[0-9]'"]);
    expect(r.code).toBe(0);
    const [cmdline, count] = r.stdout.split("\n");
    expect(cmdline).toMatch(/^throwaway-root-init/);
    expect(Number(count)).toBeLessThan(10); // only the root's own processes, none of the host's
    const t0 = Date.now();
    for (let i = 0; i < 5; i++) expect((await root.exec(["true"])).code).toBe(0);
    console.log(`throwaway root: exec round trip ${((Date.now() - t0) / 5).toFixed(1)} ms`);
  });

  it("deletes, overwrites, creates and chmods canaries inside; a second command sees it; the host does not", async () => {
    hostUntouched();
    const w = await root.exec([
      "sh",
      "-c",
      'set -e; rm -rf -- "$1"; echo overwritten > "$2"; echo created > "$3"; chmod 0755 "$3"; chmod 0777 "$4"; echo root > "$5"; echo repo > "$6"; echo tmp > "$7"',
      "sh",
      c.dir,
      c.etc,
      c.usrLocal,
      c.mode,
      c.rootHome,
      c.repo,
      c.tmp,
    ]);
    expect(w.stderr).toBe("");
    expect(w.code).toBe(0);
    const r = await root.exec([
      "sh",
      "-c",
      'if [ -e "$1" ]; then echo present; else echo gone; fi; cat "$2" "$3" "$5" "$6" "$7"; stat -c %a "$3" "$4"',
      "sh",
      c.dir,
      c.etc,
      c.usrLocal,
      c.mode,
      c.rootHome,
      c.repo,
      c.tmp,
    ]);
    expect(r.stdout.split("\n")).toEqual(["gone", "overwritten", "created", "root", "repo", "tmp", "755", "777", ""]);
    expect(await root.readFile(c.etc)).toBe("overwritten\n");
    await root.writeFile(`${c.tmp}-2`, "via writeFile\n", 0o600);
    expect(await root.readFile(`${c.tmp}-2`)).toBe("via writeFile\n");
    expect(existsSync(`${c.tmp}-2`)).toBe(false);
    hostUntouched();
  });

  it("looks like one file system per top-level directory: one st_dev, directories rename in place", async () => {
    const r = await root.exec([
      "sh",
      "-c",
      "set -e; echo new > /etc/$1-dev; stat -c %d /etc /etc/passwd /etc/$1-dev /var /var/tmp/$1-mode",
      "sh",
      tag,
    ]);
    const devs = r.stdout.trim().split("\n");
    expect(new Set(devs.slice(0, 3)).size, r.stdout).toBe(1);
    expect(new Set(devs.slice(3)).size, r.stdout).toBe(1);
    expect(devs[0]).not.toBe(devs[3]);
    // rename(2) of a directory of the host (no copy fallback, as mv would do), then a look from a second command.
    const mv = await root.exec(["perl", "-e", 'rename($ARGV[0], "$ARGV[0]2") or die "rename: $!\\n"', c.renameDir]);
    expect(mv.stderr).toBe("");
    expect((await root.exec(["sh", "-c", 'cat "$1"2/f; test ! -e "$1" && echo moved', "sh", c.renameDir])).stdout).toBe("in dir\nmoved\n");
    hostUntouched();
  });

  it("mounts no host disk read-write, no cgroup tree, no host device; /proc/sys and /sys are read-only", async () => {
    const r = await root.exec(["cat", "/proc/self/mountinfo"]);
    const mounts = r.stdout
      .trim()
      .split("\n")
      .map((line) => {
        const [left, right] = line.split(" - ");
        const f = left!.split(" ");
        const [fsType, source] = right!.split(" ");
        return { point: f[4]!, opts: f[5]!.split(","), fsType: fsType!, source: source! };
      });
    const disks = mounts.filter(
      (m) => m.source.startsWith("/dev/") || ["ext2", "ext3", "ext4", "xfs", "btrfs", "vfat", "f2fs", "zfs"].includes(m.fsType),
    );
    expect(disks.length).toBeGreaterThan(0);
    for (const m of disks) expect(m.opts, `${m.point} (${m.fsType} ${m.source})`).toContain("ro");
    expect(mounts.find((m) => m.point === "/")).toMatchObject({ opts: expect.arrayContaining(["ro"]) });
    expect(mounts.filter((m) => /^cgroup|devtmpfs|debugfs|securityfs|efivarfs|bpf|tracefs/.test(m.fsType))).toEqual([]);
    expect(mounts.find((m) => m.point === "/sys")?.opts).toContain("ro");

    // Opened for writing but never written: EROFS (30) on each that exists.
    const probe = `for (grep { -e } @ARGV) { if (sysopen(my $f, $_, 1)) { print "$_ writable\\n"; close $f } else { print "$_ " . (0 + $!) . "\\n" } }`;
    const w = await root.exec([
      "perl",
      "-e",
      probe,
      "/proc/sys/vm/swappiness",
      "/proc/sys/kernel/hostname",
      "/sys/kernel/uevent_helper",
      "/sys/power/state",
      "/sys/kernel/mm/transparent_hugepage/enabled",
      "/sys/class/net/lo/mtu",
    ]);
    const lines = w.stdout.trim().split("\n");
    expect(lines.length).toBeGreaterThanOrEqual(3);
    for (const line of lines) expect(line).toMatch(/ 30$/);
    const d = await root.exec([
      "sh",
      "-c",
      "find /dev -type b | wc -l; ls /sys/fs/cgroup | wc -l; if [ -e /proc/sysrq-trigger ]; then stat -c %t:%T /proc/sysrq-trigger; else echo absent; fi",
    ]);
    const [blockDevs, cgroupEntries, sysrq] = d.stdout.trim().split("\n");
    expect(blockDevs).toBe("0");
    expect(cgroupEntries).toBe("0");
    expect(["absent", "1:3"]).toContain(sysrq); // masked with /dev/null where the kernel has one
  });

  it("refuses the clock, modules, superblock remounts, freezes and device nodes; keeps bind remounts", async () => {
    // Guarded: date -s only runs if CAP_SYS_TIME is gone, and only sets the current second.
    const date = await root.exec([
      "sh",
      "-c",
      'b=$(awk \'/^CapBnd/ {print $2}\' /proc/self/status); [ $(( 0x$b >> 25 & 1 )) = 0 ] || { echo "CAP_SYS_TIME still there"; exit 99; }; date -s "@$(date +%s)" >/dev/null',
    ]);
    expect(date.code).toBe(1);
    expect(date.stderr).toMatch(/not permitted/i);
    const bnd = BigInt(`0x${/CapBnd:\s*([0-9a-f]+)/.exec(await root.readFile("/proc/self/status"))![1]}`);
    for (const cap of [16, 17, 22, 24, 25, 30, 34, 35]) expect((bnd >> BigInt(cap)) & 1n, `cap ${cap}`).toBe(0n);
    // init_module with an empty image: EPERM without the capability, EINVAL/ENOEXEC with it; nothing loads either way.
    const mod = await root.exec(["perl", "-e", 'my ($b, $p) = ("", ""); syscall(175, $b, 0, $p); print 0 + $!']);
    expect(mod.stdout).toBe("1");
    // On a tmpfs of its own: a superblock remount, fsfreeze and device nodes are refused; a bind remount is not.
    const t = await root.exec([
      "sh",
      "-c",
      [
        "set -u; d=/mnt/" + tag + "; mkdir $d; mount -t tmpfs -o size=1m canary $d",
        "mount -o remount,size=2m $d 2>/dev/null; echo remount=$?",
        "mknod $d/blk b 7 0 2>/dev/null; echo blk=$?",
        "mknod $d/mem c 1 1 2>/dev/null; echo mem=$?",
        "mknod $d/null c 1 3; echo null=$?",
        "mkfifo $d/fifo; echo fifo=$?",
        "fsfreeze -f $d 2>&1; echo freeze=$?",
        "mount -o remount,bind,ro $d; echo bindremount=$?",
        "umount $d; rmdir $d",
      ].join("\n"),
    ]);
    expect(t.stdout).toContain("remount=32\n");
    expect(t.stdout).toContain("blk=1\n");
    expect(t.stdout).toContain("mem=1\n");
    expect(t.stdout).toContain("null=0\n");
    expect(t.stdout).toContain("fifo=0\n");
    expect(t.stdout).toMatch(/Operation not permitted\nfreeze=1\n/); // a tmpfs cannot freeze anyway: EOPNOTSUPP without the filter
    expect(t.stdout).toContain("bindremount=0\n");
    expect((await root.exec(["grep", "^Seccomp:", "/proc/self/status"])).stdout).toBe("Seccomp:\t2\n");
  });

  it("has only loopback: a listener inside is reachable inside (and through forward()), not from the host", async () => {
    const ifs = await root.exec(["ls", "/sys/class/net"]);
    expect(ifs.stdout.trim().split("\n")).toEqual(["lo"]);
    const port = await new Promise<number>((done) => {
      const s = createServer().listen(0, "127.0.0.1", () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => done(p));
      });
    });
    const server = root.spawn([
      "node",
      "-e",
      `require("http").createServer((q, s) => s.end("inside " + q.url)).listen(${port}, "127.0.0.1", () => console.log("listening"))`,
    ]);
    try {
      await new Promise<void>((ok, fail) => {
        let out = "";
        server.stdout!.on("data", (d: Buffer) => {
          out += d.toString();
          if (out.includes("listening")) ok();
        });
        server.once("exit", (code) => fail(new Error(`server exited ${code}`)));
      });
      const inside = await root.exec(["node", "-e", `fetch("http://127.0.0.1:${port}/a").then((r) => r.text()).then(console.log)`]);
      expect(inside.stdout).toBe("inside /a\n");
      const fromHost = await new Promise<string>((done) => {
        const s = connect(port, "127.0.0.1");
        s.once("connect", () => {
          s.destroy();
          done("connected");
        });
        s.once("error", (e: NodeJS.ErrnoException) => done(e.code ?? "error"));
      });
      expect(fromHost).toBe("ECONNREFUSED");
      const fwd = await root.forward(port);
      try {
        const res = await fetch(`${fwd.url}/b`);
        expect(await res.text()).toBe("inside /b");
        const res2 = await fetch(`${fwd.url}/c`, { method: "POST", body: "x".repeat(200_000) });
        expect(await res2.text()).toBe("inside /c");
      } finally {
        await fwd.close();
      }
    } finally {
      server.kill("SIGKILL");
    }
  });

  it("runs node, nested user/pid/mount namespaces, bubblewrap, nested overlays, other uids", async () => {
    expect((await root.exec(["node", "-e", "console.log(1)"])).stdout).toBe("1\n");
    expect((await root.exec(["unshare", "--user", "--map-root-user", "true"])).code).toBe(0);
    // --mount-proc in a user namespace needs the spare, fully visible procfs.
    const pidns = await root.exec(["unshare", "--user", "--map-root-user", "--pid", "--fork", "--mount-proc", "sh", "-c", "echo $$"]);
    expect(pidns.stdout).toBe("1\n");
    if (existsSync("/usr/bin/bwrap")) {
      const b = await root.exec([
        "bwrap",
        "--unshare-user",
        "--unshare-pid",
        "--unshare-net",
        "--ro-bind",
        "/",
        "/",
        "--dev",
        "/dev",
        "--proc",
        "/proc",
        "--tmpfs",
        "/run",
        "sh",
        "-c",
        "echo $$",
      ]);
      expect(b.stderr).toBe("");
      expect(b.stdout).toMatch(/^\d\n$/);
    }
    // The sandbox's move: a user namespace of its own caps nested ones (user.max_user_namespaces there);
    // run only if the shell is really in a new user namespace, so the write cannot be the root's.
    const userns = await root.exec([
      "unshare",
      "--user",
      "--map-root-user",
      "sh",
      "-c",
      '[ "$(readlink /proc/self/ns/user)" != "$(readlink /proc/1/ns/user)" ] || exit 99; echo 0 > /proc/sys/user/max_user_namespaces && ! unshare --user true 2>/dev/null && echo capped',
    ]);
    expect(userns.stdout).toBe("capped\n");
    expect(Number((await root.readFile("/proc/sys/user/max_user_namespaces")).trim())).toBeGreaterThan(0);
    // An overlay on the root's overlays (the overlay driver's stacking), with a whiteout; and on the host root bind.
    const o = await root.exec([
      "sh",
      "-c",
      [
        "set -e; d=/tmp/" + tag + "-ovl; mkdir $d; mount -t tmpfs t $d; mkdir $d/u $d/w $d/m $d/u2 $d/w2 $d/m2",
        "mount -t overlay -o lowerdir=/etc,upperdir=$d/u,workdir=$d/w o $d/m",
        "rm $d/m/" + tag + "; echo new > $d/m/new",
        "stat -c %F:%t:%T $d/u/" + tag + "; cat $d/m/new; test ! -e $d/m/" + tag,
        "mount -t overlay -o lowerdir=/,upperdir=$d/u2,workdir=$d/w2 o $d/m2; test -d $d/m2/usr; echo ok",
      ].join("\n"),
    ]);
    expect(o.stderr).toBe("");
    expect(o.stdout).toBe("character special file:0:0\nnew\nok\n");
    const nobody = await root.exec([
      "setpriv",
      "--reuid=65534",
      "--regid=65534",
      "--clear-groups",
      "sh",
      "-c",
      `id -u; echo x > /tmp/${tag}-nobody && echo tmp-ok; echo x > /etc/${tag}-nobody 2>/dev/null || echo etc-denied`,
    ]);
    expect(nobody.stdout).toBe("65534\ntmp-ok\netc-denied\n");
    hostUntouched();
  });

  it("kills a command at its timeout, and everything at close(); the host is still untouched", async () => {
    const t = await root.exec(["sleep", "30"], { timeoutMs: 300 });
    expect(t.timedOut).toBe(true);
    expect(t.ms).toBeLessThan(5000);
    const bg = root.spawn(["sh", "-c", "setsid sleep 1000 & echo $!; wait"]);
    await new Promise((r) => bg.stdout!.once("data", r));
    const pid1 = root.pid;
    await root.close();
    expect(existsSync(`/proc/${pid1}`)).toBe(false);
    await expect(root.exec(["true"])).rejects.toThrow(/closed/);
    hostUntouched();
  });

  it("runInThrowawayRoot: a one-shot fresh root each time", async () => {
    const a = await runInThrowawayRoot(["sh", "-c", 'echo one > "$1"; cat "$1"', "sh", c.tmp]);
    expect(a).toMatchObject({ code: 0, stdout: "one\n", timedOut: false });
    const b = await runInThrowawayRoot(["sh", "-c", 'test -e "$1" && echo leaked || echo fresh; cat; exit 3', "sh", c.tmp], {
      stdin: "in\n",
      env: { X: "1" },
    });
    expect(b).toMatchObject({ code: 3, stdout: "fresh\nin\n" });
    hostUntouched();
  });
});
