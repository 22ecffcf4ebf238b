// The REAL envelope program (program.ts through spec.ts's argv), run as root
// against scratch files only. Everything a test tries to write targets a
// fresh directory under /var/lib/agent-sudo-envelope-test-XXXXXX (on the
// root disk: /tmp and /var/tmp are scratch overlays inside a tier-0
// envelope, so a write "not landing" there would prove nothing), a tmpfs
// mounted inside it for the mirror's upper layers, or a canary name
// /etc/agent-sudo-canary-<random> that must never appear. The secrets are a
// fake state dir (keys, tokens, database URL, AppRole secret, journal, spool)
// and a fake secret file, passed as masks; their bytes carry a random marker
// no command line ever contains.
//
// Every "must not write" and "must not leak" spelling is first run bare (no
// envelope) against a copy, to show it really writes / really prints the
// marker there; then in the envelope.
//
// Holes found by this file and closed since: open_by_handle_at(2) with
// CAP_DAC_READ_SEARCH opened the masked state's inodes by number (tier 0 and
// live now hold DAC_OVERRIDE instead, and the seccomp filter refuses file
// handles); tier 0 reached host Unix sockets outside /run (the filter
// refuses socket(AF_UNIX) in tier 0); root's keyring was shared with the
// host (the filter refuses the keyring calls).
// Known holes still open are kept as `it.fails` (the assertion states what
// the envelope promises; it fails today), documented in the README:
//   - live: /proc/PID/root of any host root process whose capabilities are a
//     subset of the live set (no CAP_SYS_PTRACE needed) is the host's
//     unmasked tree;
// Closed since with Landlock (skipped, with the reason, on a kernel without
// it): tier 0 opening a host FIFO for writing (a read-only mount allows it).
import { spawn, spawnSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as net from "node:net";
import * as os from "node:os";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { missing, named } from "../../../test/support/needs.js";
import { hostMasks } from "./masks.js";
import { EnvelopeServer } from "./server.js";
import {
  CAP,
  type EnvelopeSpec,
  type EnvelopeUser,
  envelopeArch,
  envelopeArgv,
  envelopeWords,
  LIVE_CAPS,
  landlockAbi,
  liveSpec,
  MIRROR_CAPS,
  mirrorSpec,
  PERL,
  READ_ONLY_CAPS,
  readOnlySpec,
} from "./spec.js";

function skipReason(): string | undefined {
  if (process.platform !== "linux") return "not Linux";
  if (process.getuid?.() !== 0) return "needs root (it unshares, mounts and mknods for real)";
  if (!envelopeArch()) return `the envelope has no system-call table for ${process.arch}`;
  if (!fs.existsSync(PERL)) return `${PERL} is missing`;
  if (!fs.existsSync("/bin/bash")) return "/bin/bash is missing";
  return undefined;
}
const SKIP = skipReason();
if (SKIP) console.log(`envelope.spec.ts skipped: ${SKIP}`);
const LANDLOCK = SKIP ?? landlockAbi();

// A spelling that needs a program this machine lacks cannot be tried here: it
// skips with the reason in its name (vitest prints it).
const NEED = Object.fromEntries(
  ["python3", "blkid", "mkswap", "curl", "xxd", "setpriv", "git", "nsenter", "unshare", "less", "strings"].map((b) => [b, missing(b)]),
) as Record<string, string | undefined>;
const HAS = Object.fromEntries(Object.entries(NEED).map(([b, why]) => [b, !SKIP && why === undefined])) as Record<string, boolean>;

/** System calls the hand-written exploits need (the envelope's own table has no entry for them). */
const NR =
  process.arch === "arm64"
    ? { getdents64: 61, open_by_handle_at: 265, add_key: 217, keyctl: 219 }
    : { getdents64: 217, open_by_handle_at: 304, add_key: 248, keyctl: 250 };

const ENV = { PATH: "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", HOME: "/root", LC_ALL: "C", TERM: "dumb" };

// ---------------------------------------------------------------- running

interface Result {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** What the program wrote on fd 3: "ok\n" before exec, or "error: …". */
  status: string;
  stdout: string;
  stderr: string;
  ms: number;
}

function runArgv(file: string, args: readonly string[], timeoutMs = 20_000): Promise<Result> {
  const t0 = performance.now();
  const child = spawn(file, [...args], { stdio: ["ignore", "pipe", "pipe", "pipe"], env: ENV, cwd: "/", detached: true });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  const st: Buffer[] = [];
  child.stdout?.on("data", (c: Buffer) => out.push(c));
  child.stderr?.on("data", (c: Buffer) => err.push(c));
  (child.stdio[3] as Readable | null)?.on("data", (c: Buffer) => st.push(c));
  const timer = setTimeout(() => {
    try {
      if (child.pid) process.kill(-child.pid, "SIGKILL");
    } catch {
      /* gone */
    }
  }, timeoutMs);
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      resolve({
        code,
        signal,
        status: Buffer.concat(st).toString(),
        stdout: Buffer.concat(out).toString("latin1"),
        stderr: Buffer.concat(err).toString("latin1"),
        ms: performance.now() - t0,
      });
    });
  });
}

const bare = (cmd: string): Promise<Result> => runArgv("/bin/bash", ["-c", cmd]);

/** The warm server (server.ts), as the executor and the sandbox start every command; started on first use. */
let server: EnvelopeServer | undefined;
let serverLost = "";
async function viaServer(words: string[], timeoutMs = 20_000): Promise<Result> {
  server ??= EnvelopeServer.start((why) => (serverLost = why));
  const t0 = performance.now();
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  const run = server.run({ kind: "envelope", args: words, env: ENV, onStdout: (c) => out.push(c), onStderr: (c) => err.push(c) });
  const timer = setTimeout(() => {
    void run.pid.then((pid) => {
      try {
        process.kill(-pid, "SIGKILL");
      } catch {
        /* gone */
      }
    });
  }, timeoutMs);
  const exit = await run.done.finally(() => clearTimeout(timer));
  const signal =
    exit.signal !== undefined
      ? ((Object.entries(os.constants.signals).find(([, v]) => v === exit.signal)?.[0] ?? null) as NodeJS.Signals | null)
      : null;
  return {
    code: exit.code ?? null,
    signal,
    status: exit.status,
    stdout: Buffer.concat(out).toString("latin1"),
    stderr: Buffer.concat(err).toString("latin1"),
    ms: performance.now() - t0,
  };
}

/** Every case runs through the warm server; ONE_SHOT cases (below) through `perl -e` too. */
function inEnvelope(spec: EnvelopeSpec, cmd: string, oneShot = false): Promise<Result> {
  if (!oneShot) return viaServer(envelopeWords(spec, ["/bin/bash", "-c", cmd]));
  const a = envelopeArgv(spec, ["/bin/bash", "-c", cmd]);
  return runArgv(a.file, a.args);
}

function caps(status: string): { inh: bigint; prm: bigint; eff: bigint; bnd: bigint; amb: bigint } {
  const get = (k: string): bigint => {
    const m = new RegExp(`^${k}:\\s*([0-9a-f]+)$`, "m").exec(status);
    if (!m?.[1]) throw new Error(`no ${k} in ${status}`);
    return BigInt(`0x${m[1]}`);
  };
  return { inh: get("CapInh"), prm: get("CapPrm"), eff: get("CapEff"), bnd: get("CapBnd"), amb: get("CapAmb") };
}
const capMask = (list: readonly number[]): bigint => list.reduce((m, c) => m | (1n << BigInt(c)), 0n);
const bit = (n: number): bigint => 1n << BigInt(n);
/** The program never grants more than the test process holds (keep ∩ permitted): on a host whose bounding set lacks a capability, so does the envelope. */
let HOST_CAPS = { prm: 0n, bnd: 0n };
const expectedCaps = (list: readonly number[]): { eff: bigint; bnd: bigint } => ({
  eff: capMask(list) & HOST_CAPS.prm,
  bnd: capMask(list) & HOST_CAPS.bnd,
});

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? (s[m] ?? 0) : ((s[m - 1] ?? 0) + (s[m] ?? 0)) / 2;
}

// ---------------------------------------------------------------- fixtures

const PREFIX = "/var/lib/agent-sudo-envelope-test-";
const MARKER_HEX = randomBytes(12).toString("hex");
const MARKER = `SECRET_${MARKER_HEX}`;
const CANARY = `/etc/agent-sudo-canary-${randomBytes(6).toString("hex")}`;

let B = ""; // the test's root-disk base directory
let S = ""; // fake state dir (masked)
let SF = ""; // fake secret file (masked)
let L = ""; // symlinks pointing into the masks
let T = ""; // the read-only tests' scratch dir
let TRIALS = ""; // tmpfs for the mirror's upper layers
let TOOLS = "";
let PROBE_IMG = ""; // a plain file with a swap signature: something for blkid to probe
let ROOT_DEV = "";
let HOST_PID_NS = "";
const cleanups: (() => void)[] = [];

/** A throwaway agent-sudo state dir: keys, tokens, database URL, AppRole secret, journal, spool; every file carries the marker. */
function makeStateDir(dir: string): Map<string, Buffer> {
  const files: Record<string, string> = {
    "keys/classifier.key": `-----BEGIN PRIVATE KEY-----\n${MARKER}-classifier\n-----END PRIVATE KEY-----\n`,
    "keys/gateway.key": `-----BEGIN PRIVATE KEY-----\n${MARKER}-gateway\n-----END PRIVATE KEY-----\n`,
    "keys/breaker.key": `${MARKER}-breaker\n`,
    "dev-token": `${MARKER}-dev-token\n`,
    "database-url": `postgres://agent_sudo:${MARKER}-db@127.0.0.1:5432/agent_sudo\n`,
    "approle-secret": `${MARKER}-approle\n`,
    "journal/000001.jsonl": `{"id":1,"command":"true","token":"${MARKER}-journal"}\n`,
    "spool/req-1.json": `{"secret":"${MARKER}-spool"}\n`,
  };
  const out = new Map<string, Buffer>();
  fs.mkdirSync(dir, { mode: 0o700 });
  for (const [rel, content] of Object.entries(files)) {
    const p = join(dir, rel);
    fs.mkdirSync(join(p, ".."), { recursive: true, mode: 0o700 });
    fs.writeFileSync(p, content, { mode: 0o600 });
    out.set(p, Buffer.from(content));
  }
  return out;
}

/** The scratch a "read that writes" aims at: a file, a dir with a file, an empty dir, a script. */
function makeScratch(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o755 });
  fs.writeFileSync(join(dir, "file.txt"), "alpha beta gamma\n", { mode: 0o644 });
  fs.mkdirSync(join(dir, "dir"));
  fs.writeFileSync(join(dir, "dir/inner.txt"), "inner\n", { mode: 0o600 });
  fs.mkdirSync(join(dir, "empty"));
  fs.writeFileSync(join(dir, "run.sh"), "#!/bin/sh\necho hi\n", { mode: 0o755 });
}

/** Everything about a tree that a write could change (not atime): type, mode, owner, links, size, mtime, ctime, content, link target. */
function snapshot(root: string): string {
  const lines: string[] = [];
  const walk = (p: string, rel: string): void => {
    const st = fs.lstatSync(p, { bigint: true });
    let what = "";
    if (st.isSymbolicLink()) what = `-> ${fs.readlinkSync(p)}`;
    else if (st.isFile()) what = createHash("sha256").update(fs.readFileSync(p)).digest("hex");
    lines.push(`${rel || "."} ${st.mode.toString(8)} ${st.uid}:${st.gid} n${st.nlink} s${st.size} m${st.mtimeNs} c${st.ctimeNs} ${what}`);
    if (st.isDirectory()) for (const n of fs.readdirSync(p).sort()) walk(join(p, n), rel ? `${rel}/${n}` : n);
  };
  walk(root, "");
  return lines.join("\n");
}

function readOnly(o: { user?: EnvelopeUser; cwd?: string } = {}): EnvelopeSpec {
  return readOnlySpec({ masks: [S, SF], cwd: o.cwd ?? "/", network: false, ...(o.user ? { user: o.user } : {}) });
}
function live(o: { user?: EnvelopeUser; cwd?: string } = {}): EnvelopeSpec {
  return liveSpec({ masks: [S, SF], cwd: o.cwd ?? "/", ...(o.user ? { user: o.user } : {}) });
}

/**
 * A mirror run the way the sandbox builds one: a trial dir on a tmpfs, one
 * layer whose lower is the host's `/`, upper/work beside it, masks bound from
 * empty sources in the trial dir. Kept until afterAll (the tmpfs goes then).
 */
async function inMirror(
  cmd: string,
  o: { user?: EnvelopeUser; cwd?: string; network?: boolean } = {},
): Promise<Result & { trial: string; upper: string }> {
  const d = fs.mkdtempSync(join(TRIALS, "t"));
  const upper = join(d, "u0");
  fs.mkdirSync(upper);
  const root = fs.statSync("/");
  fs.chownSync(upper, root.uid, root.gid);
  fs.chmodSync(upper, root.mode & 0o7777);
  fs.mkdirSync(join(d, "w0"));
  fs.mkdirSync(join(d, "m"));
  fs.mkdirSync(join(d, "mask0"), { mode: 0o700 });
  fs.writeFileSync(join(d, "mask1"), "", { mode: 0o600 });
  const spec = mirrorSpec({
    root: join(d, "m"),
    layers: [{ lower: "/", upper, work: join(d, "w0"), target: "" }],
    maskBinds: [
      { src: join(d, "mask0"), dst: S },
      { src: join(d, "mask1"), dst: SF },
    ],
    cwd: o.cwd ?? "/",
    network: o.network === true,
    ...(o.user ? { user: o.user } : {}),
  });
  return { ...(await viaServer(envelopeWords(spec, ["/bin/bash", "-c", cmd]))), trial: d, upper };
}

type Mode = "read-only" | "live" | "mirror";
function runIn(mode: Mode, cmd: string): Promise<Result> {
  if (mode === "read-only") return inEnvelope(readOnly(), cmd);
  if (mode === "live") return inEnvelope(live(), cmd);
  return inMirror(cmd);
}

// Host processes and listeners the tests use.
let lowCapPid = 0; // a root process on the host with no capabilities at all
let sleeperPid = 0; // an ordinary host process a tier-0 command tries to kill

beforeAll(() => {
  if (SKIP) return;
  B = fs.mkdtempSync(PREFIX);
  cleanups.push(() => {
    if (B.startsWith(PREFIX)) {
      for (const n of ["rootlink", "statelink", "keylink"]) fs.rmSync(join(B, "links", n), { force: true });
      fs.rmSync(B, { recursive: true, force: true });
    }
  });
  // Sanity: the base must be on the root disk and outside every scratch overlay/tmpfs a tier-0 envelope gets.
  for (const s of readOnlySpec({ masks: [], cwd: "/", network: false }).scratch ?? []) {
    if (B === s.path || B.startsWith(`${s.path}/`)) throw new Error(`${B} is under the envelope's scratch ${s.path}`);
  }
  S = join(B, "state");
  makeStateDir(S);
  SF = join(B, "secret.conf");
  fs.writeFileSync(SF, `password = ${MARKER}-secret-file\n`, { mode: 0o600 });
  L = join(B, "links");
  fs.mkdirSync(L);
  fs.symlinkSync(S, join(L, "statelink"));
  fs.symlinkSync("/", join(L, "rootlink"));
  fs.symlinkSync(join(S, "keys/classifier.key"), join(L, "keylink"));
  T = join(B, "scratch");
  makeScratch(T);
  PROBE_IMG = join(B, "probe.img");
  fs.writeFileSync(PROBE_IMG, Buffer.alloc(1 << 20));
  if (HAS.mkswap) spawnSync("mkswap", [PROBE_IMG], { stdio: "ignore" });
  fs.mkdirSync(join(B, "mnt"));
  fs.mkdirSync(join(B, "control"));
  fs.mkdirSync(join(B, "livetmp"));
  TOOLS = join(B, "tools");
  fs.mkdirSync(TOOLS);
  // getdents64 on the parent gives the masked directory's real inode number;
  // open_by_handle_at(FILEID_INO32_GEN, ino, generation 0) opens it; fchdir; open relative.
  const handlePl = `use strict;
my ($parent, $name, $rel, $how) = @ARGV;
sysopen(my $d, $parent, ${process.arch === "arm64" ? "040000" : "0200000"}) or die "open $parent: $!\\n";
my $buf = "\\0" x 65536; my $n = syscall(${NR.getdents64}, fileno($d), $buf, 65536); die "getdents64: $!\\n" if $n < 0;
my ($pos, $ino) = (0);
while ($pos < $n) { my ($i, $off, $rl) = unpack("Q q S", substr($buf, $pos, 18)); my $nm = unpack("Z*", substr($buf, $pos + 19, $rl - 19)); $ino = $i if $nm eq $name; $pos += $rl }
defined $ino or die "no $name in $parent\\n";
sysopen(my $root, "/", ${process.arch === "arm64" ? "040000" : "0200000"}) or die "open /: $!\\n";
my $fh = pack("L l L L", 8, 1, $ino, 0);
my $fd = syscall(${NR.open_by_handle_at}, fileno($root), $fh, ${process.arch === "arm64" ? "040000" : "0200000"}); die "open_by_handle_at: $!\\n" if $fd < 0;
open(my $h, "<&=", $fd) or die "fd: $!\\n"; chdir($h) or die "fchdir: $!\\n";
if (($how // "read") eq "append") { open(my $f, ">>", $rel) or die "open $rel: $!\\n"; print $f "TAMPERED\\n"; close($f) or die "close: $!\\n"; print "appended\\n" }
else { open(my $f, "<", $rel) or die "open $rel: $!\\n"; print <$f> }
`;
  fs.writeFileSync(join(TOOLS, "handle.pl"), handlePl, { mode: 0o755 });
  TRIALS = join(B, "trials");
  fs.mkdirSync(TRIALS, { mode: 0o700 });
  const m = spawnSync("mount", ["-t", "tmpfs", "-o", "size=256m,mode=0700,nosuid,nodev", "agent-sudo-envelope-test", TRIALS], {
    encoding: "utf8",
  });
  if (m.status !== 0) throw new Error(`mount tmpfs: ${m.stderr}`);
  cleanups.unshift(() => void spawnSync("umount", ["--lazy", TRIALS], { stdio: "ignore" }));
  ROOT_DEV = spawnSync("findmnt", ["-n", "-o", "SOURCE", "/"], { encoding: "utf8" }).stdout.trim() || "/dev/vda";
  HOST_PID_NS = fs.readlinkSync("/proc/self/ns/pid");
  HOST_CAPS = caps(fs.readFileSync("/proc/self/status", "utf8"));
  if (fs.existsSync(CANARY)) throw new Error(`${CANARY} exists before the test`);
  cleanups.push(() => fs.rmSync(CANARY, { force: true }));
  // Nothing in a command line may contain the marker (else an error message would echo it).
  expect(fs.readFileSync(join(TOOLS, "handle.pl"), "utf8")).not.toContain(MARKER_HEX);

  const sleeper = spawn("sleep", ["600"], { stdio: "ignore" });
  sleeperPid = sleeper.pid ?? 0;
  cleanups.push(() => sleeper.kill("SIGKILL"));
  if (HAS.setpriv) {
    const lc = spawn("setpriv", ["--bounding-set=-all", "--inh-caps=-all", "--", "sleep", "600"], { stdio: "ignore" });
    lowCapPid = lc.pid ?? 0;
    cleanups.push(() => lc.kill("SIGKILL"));
  }
});

afterAll(() => {
  server?.close();
  // Cleaned up first: a lost server fails the suite, and leaves nothing behind either way.
  for (const c of cleanups.splice(0)) {
    try {
      c();
    } catch (e) {
      console.log(`cleanup: ${String(e)}`);
    }
  }
  expect(serverLost, "the envelope server was lost").toBe("");
});

/** it, it.skip or it.fails (a documented hole: the assertion is what the envelope promises). */
function testCase(name: string, o: { skip?: string | undefined; fails?: boolean }, fn: () => Promise<void>): void {
  if (o.skip) it.skip(named(name, o.skip), fn);
  else if (o.fails) it.fails(name, fn);
  else it(name, fn);
}

const noMarker = (r: Result): void => {
  expect(r.stdout).not.toContain(MARKER_HEX);
  expect(r.stderr).not.toContain(MARKER_HEX);
};

// ================================================================ 1. tier 0: a read that writes changes nothing

interface P {
  T: string;
  F: string;
  D: string;
  E: string;
  canary: string;
}
interface WriteCase {
  name: string;
  cmd: (p: P) => string;
  /** Run bare against a copy first; it must change the copy (default true). */
  control?: boolean;
  /** stderr in the envelope must show the kernel refusing (proves the payload ran). */
  refused?: RegExp;
  /** Why it cannot run here (a program this machine lacks), or undefined. */
  skip?: string | undefined;
}
const EROFS = /Read-only file system/;

const WRITE_CASES: WriteCase[] = [
  { name: "test -v 'a[$(touch F)]'", cmd: (p) => `test -v 'a[$(touch ${p.T}/pwned)]'`, refused: EROFS },
  { name: "[ -v 'a[$(echo > F)]' ]", cmd: (p) => `[ -v 'a[$(echo x > ${p.F})]' ]`, refused: EROFS },
  { name: "[[ -v 'a[$(rm F)]' ]] via a variable", cmd: (p) => `v='a[$(rm -f ${p.F})]'; [[ -v $v ]]`, refused: EROFS },
  { name: "printf -v 'a[$(rm -f F)]' x", cmd: (p) => `printf -v 'a[$(rm -f ${p.F})]' x`, refused: EROFS },
  { name: "read 'a[$(mkdir D)]' <<< x", cmd: (p) => `read 'a[$(mkdir ${p.T}/newdir)]' <<< x`, refused: EROFS },
  { name: "unset 'a[$(chmod 777 F)]'", cmd: (p) => `declare -a a; unset 'a[$(chmod 777 ${p.F})]'`, refused: EROFS },
  {
    name: "mapfile -C 'touch F #' -c 1 < /etc/hostname",
    cmd: (p) => `mapfile -C 'touch ${p.T}/mapfile #' -c 1 < /etc/hostname`,
    refused: EROFS,
  },
  { name: "printf -v PATH %s /x; ls (PATH hijack; harmless, writes nothing)", cmd: () => "printf -v PATH %s /x; ls", control: false },
  // blkid writes its cache once it has probed a device: a swap signature in a plain file is one on any machine (no disk needed).
  { name: "blkid -c F", cmd: (p) => `blkid -c ${p.F} ${PROBE_IMG}; true`, skip: NEED.blkid ?? NEED.mkswap },
  { name: "sort -o F F", cmd: (p) => `sort -o ${p.F} ${p.F}`, refused: EROFS },
  { name: "tee F", cmd: (p) => `echo x | tee ${p.F}`, refused: EROFS },
  { name: "sed -i", cmd: (p) => `sed -i s/alpha/omega/ ${p.F}`, refused: EROFS },
  { name: "truncate -s 0", cmd: (p) => `truncate -s 0 ${p.F}`, refused: EROFS },
  { name: "rm -f", cmd: (p) => `rm -f ${p.F}`, refused: EROFS },
  { name: "rm -rf dir", cmd: (p) => `rm -rf ${p.D}`, refused: EROFS },
  { name: "mv", cmd: (p) => `mv ${p.F} ${p.T}/moved`, refused: EROFS },
  { name: "chmod", cmd: (p) => `chmod 4777 ${p.F}`, refused: EROFS },
  { name: "chown", cmd: (p) => `chown 65534:65534 ${p.F}`, refused: EROFS },
  { name: "touch -d (timestamps only)", cmd: (p) => `touch -d @0 ${p.F}`, refused: EROFS },
  { name: "ln -s", cmd: (p) => `ln -s /etc/passwd ${p.T}/lnk`, refused: EROFS },
  { name: "ln (hard link)", cmd: (p) => `ln ${p.F} ${p.T}/hard`, refused: EROFS },
  { name: "mkdir", cmd: (p) => `mkdir ${p.T}/d2`, refused: EROFS },
  { name: "rmdir", cmd: (p) => `rmdir ${p.E}`, refused: EROFS },
  { name: "mkfifo", cmd: (p) => `mkfifo ${p.T}/fifo`, refused: EROFS },
  { name: "touch (create)", cmd: (p) => `touch ${p.T}/new`, refused: EROFS },
  { name: "dd of=F conv=notrunc", cmd: (p) => `dd if=/dev/zero of=${p.F} bs=1 count=1 conv=notrunc status=none`, refused: EROFS },
  { name: "cp", cmd: (p) => `cp /etc/hostname ${p.T}/copy`, refused: EROFS },
  { name: "install", cmd: (p) => `install -m 4755 /bin/true ${p.T}/suid`, refused: EROFS },
  {
    name: "python3 open(...,'w')",
    cmd: (p) => `python3 -c "import sys; open(sys.argv[1], 'w').write('x')" ${p.F}`,
    refused: EROFS,
    skip: NEED.python3,
  },
  {
    name: "python3 os.chmod via a computed name",
    cmd: (p) => `python3 -c "import os,sys; os.chmod(sys.argv[1]+'.t'+'xt', 0o777)" ${p.T}/file`,
    refused: EROFS,
    skip: NEED.python3,
  },
  { name: "perl -e open >>", cmd: (p) => `perl -e 'open(my $f, ">>", $ARGV[0]) or die "$!\\n"; print $f "x"' ${p.F}`, refused: EROFS },
  {
    name: "perl -e truncate of a computed name",
    cmd: (p) => `perl -e 'truncate($ARGV[0] . ".t" . "xt", 0) or die "$!\\n"' ${p.T}/file`,
    refused: EROFS,
  },
  { name: "perl -e rename", cmd: (p) => `perl -e 'rename($ARGV[0], $ARGV[1]) or die "$!\\n"' ${p.F} ${p.T}/renamed`, refused: EROFS },
  { name: "awk printf > ARGV[1]", cmd: (p) => `awk 'BEGIN{printf "" > ARGV[1]}' ${p.F}`, refused: EROFS },
  { name: "find -delete", cmd: (p) => `find ${p.T} -name file.txt -delete`, refused: EROFS },
  { name: "find -fprintf", cmd: (p) => `find /etc/hostname -fprintf ${p.T}/fp '%p'`, refused: EROFS },
  { name: "sed -n 'w FILE'", cmd: (p) => `sed -n 'w ${p.T}/sedw' /etc/hostname`, refused: EROFS },
  { name: "git init in the dir", cmd: (p) => `cd ${p.T} && git init -q`, skip: NEED.git },
  { name: "git diff --output=", cmd: (p) => `git diff --no-index --output=${p.T}/gd /etc/hostname /etc/passwd; true`, skip: NEED.git },
  { name: "tar x", cmd: (p) => `tar cf - -C /etc hostname | tar xf - -C ${p.T}` },
  { name: "echo > F", cmd: (p) => `echo x > ${p.F}`, refused: EROFS },
  { name: "echo >> F", cmd: (p) => `echo x >> ${p.F}`, refused: EROFS },
  { name: "exec 3>F", cmd: (p) => `exec 3>${p.F}`, refused: EROFS },
  { name: ": > F", cmd: (p) => `: > ${p.F}`, refused: EROFS },
  { name: "eval of a built string", cmd: (p) => `c='ec''ho'; eval "$c x > ${p.F}"`, refused: EROFS },
  {
    name: "base64 payload piped into sh",
    cmd: (p) => `echo ${Buffer.from(`rm -f ${p.F}; touch ${p.T}/b64`).toString("base64")} | base64 -d | sh`,
    refused: EROFS,
  },
  {
    name: "a script written earlier (run.sh rewritten, then run)",
    cmd: (p) => `printf 'touch ${p.T}/from-script\\n' > ${p.T}/run.sh; sh ${p.T}/run.sh`,
    refused: EROFS,
  },
  { name: "canary under /etc: touch", cmd: (p) => `touch ${p.canary}`, control: false, refused: EROFS },
  {
    name: "canary under /etc: tee -a through a computed path",
    cmd: (p) => `d=/e; d=$d'tc'; echo x | tee -a "$d/${p.canary.slice(5)}"`,
    control: false,
    refused: EROFS,
  },
  {
    name: "canary under /etc: python3",
    cmd: (p) => `python3 -c "open('${p.canary}', 'a')"`,
    control: false,
    refused: EROFS,
    skip: NEED.python3,
  },
];

describe.skipIf(!!SKIP)("1. tier 0 (readOnlySpec): a read that writes changes nothing", () => {
  const P0 = (): P => ({ T, F: join(T, "file.txt"), D: join(T, "dir"), E: join(T, "empty"), canary: CANARY });

  let n = 0;
  for (const c of WRITE_CASES) {
    const idx = n++;
    it.skipIf(!!c.skip)(named(c.name, c.skip), async () => {
      const cmd = c.cmd(P0());
      expect(cmd).not.toContain(MARKER_HEX);
      if (c.control !== false) {
        // Bare, against a copy: the spelling really writes.
        const cdir = join(B, "control", `w${idx}`);
        makeScratch(cdir);
        const cp: P = { T: cdir, F: join(cdir, "file.txt"), D: join(cdir, "dir"), E: join(cdir, "empty"), canary: CANARY };
        const before = snapshot(cdir);
        await bare(c.cmd(cp));
        expect(snapshot(cdir), "the bare control run changed nothing: the spelling is not a write here").not.toBe(before);
        fs.rmSync(cdir, { recursive: true, force: true });
      }
      const before = snapshot(T);
      const r = await inEnvelope(readOnly(), cmd);
      expect(r.status).toBe("ok\n");
      expect(snapshot(T)).toBe(before);
      expect(fs.existsSync(CANARY)).toBe(false);
      if (c.refused) expect(r.stderr).toMatch(c.refused);
    });
  }

  it("sysctl -w and echo > /proc/sys/… fail; the host's value is unchanged", async () => {
    const p = "/proc/sys/vm/swappiness";
    const was = fs.readFileSync(p, "utf8").trim();
    const want = was === "10" ? "11" : "10";
    try {
      const r = await inEnvelope(readOnly(), `sysctl -w vm.swappiness=${want}; echo ${want} > ${p}; echo rc=$?`);
      expect(r.status).toBe("ok\n");
      expect(r.stdout).toContain("rc=1");
      expect(r.stderr).toMatch(/Read-only file system/);
      expect(fs.readFileSync(p, "utf8").trim()).toBe(was);
    } finally {
      if (fs.readFileSync(p, "utf8").trim() !== was) fs.writeFileSync(p, was);
    }
  });

  it("mount, umount, hostname fail (no CAP_SYS_ADMIN); nothing changes", async () => {
    const before = snapshot(T);
    const host = os.hostname();
    const r = await inEnvelope(
      readOnly(),
      `mount -t tmpfs none ${T}/dir; echo m1=$?; mount --bind /etc ${T}/dir; echo m2=$?; umount -l /; echo u1=$?; umount /tmp; echo u2=$?; hostname pwned-envtest; echo h=$?`,
    );
    expect(r.status).toBe("ok\n");
    for (const k of ["m1", "m2", "u1", "u2", "h"]) expect(r.stdout).not.toMatch(new RegExp(`^${k}=0$`, "m"));
    expect(snapshot(T)).toBe(before);
    expect(os.hostname()).toBe(host);
  });

  it("kill -9 1 hits the envelope's own pid 1, never the host's (own pid namespace)", async () => {
    const hostInit = fs.readFileSync("/proc/1/stat", "utf8").split(" ")[21];
    // Guarded: only signal pid 1 once the command has checked it is in a pid namespace of its own.
    const r = await inEnvelope(
      readOnly(),
      `[ "$$" = 1 ] && [ "$(readlink /proc/self/ns/pid)" != '${HOST_PID_NS}' ] || { echo not-own-ns; exit 99; }; kill -9 1; echo survived; kill -9 ${sleeperPid}; echo k=$?`,
    );
    expect(r.status).toBe("ok\n");
    expect(r.stdout).not.toContain("not-own-ns");
    expect(r.stdout).toContain("survived");
    expect(r.stdout).toContain("k=1");
    expect(fs.readFileSync("/proc/1/stat", "utf8").split(" ")[21]).toBe(hostInit);
    expect(() => process.kill(sleeperPid, 0)).not.toThrow();
  });

  it("no network: a listener on 127.0.0.1 (and on the host's other addresses) is not reachable", async () => {
    let connections = 0;
    const server = net.createServer((s) => {
      connections++;
      s.destroy();
    });
    await new Promise<void>((r) => server.listen(0, "0.0.0.0", r));
    const port = (server.address() as net.AddressInfo).port;
    const addrs = [
      "127.0.0.1",
      ...Object.values(os.networkInterfaces())
        .flat()
        .filter((a) => a && a.family === "IPv4" && !a.internal)
        .map((a) => a?.address ?? ""),
    ];
    try {
      const tries = addrs
        .map(
          (a) =>
            `(exec 3<>/dev/tcp/${a}/${port}) 2>/dev/null && echo open-${a}; ${HAS.curl ? `curl -s -m 2 http://${a}:${port}/ && echo curl-${a};` : ""}`,
        )
        .join(" ");
      const r = await inEnvelope(readOnly(), `ip -o link 2>/dev/null | awk '{print $2}'; ${tries} echo done`);
      expect(r.status).toBe("ok\n");
      expect(r.stdout).toContain("done");
      expect(r.stdout).not.toMatch(/open-|curl-/);
      expect(connections).toBe(0);
      // The bare control reaches it.
      const b = await bare(`(exec 3<>/dev/tcp/127.0.0.1/${port}) && echo open`);
      expect(b.stdout).toContain("open");
    } finally {
      server.close();
    }
  });

  it("no socket of any family (inet, inet6, netlink, packet, unix; the host's network namespace is not its to use); stream and seqpacket socketpairs still work, a datagram pair does not (it could sendto any abstract or path socket: review 19); with `network`, inet but still no unix", async () => {
    // perl: socket() per family, each line "family=ok|errno"; socketpair last.
    const probe = `perl -e 'for my $f ([inet=>2,1],[inet6=>10,1],[netlink=>16,3],[packet=>17,3],[unix=>1,1]) { my ($n,$d,$t)=@$f; print "$n=", (socket(my $s,$d,$t,0) ? "ok" : ($!+0)), "\\n" } for my $p ([pair=>1],[dgrampair=>2],[seqpair=>5],[dgrampaircloexec=>2|0x80000],[rawpair=>3]) { my ($n,$t)=@$p; print "$n=", (socketpair(my $a, my $b, 1, $t, 0) ? "ok" : ($!+0)), "\\n" }'`;
    const r = await inEnvelope(readOnly(), probe);
    expect(r.status).toBe("ok\n");
    expect(r.stdout).toBe(
      "inet=1\ninet6=1\nnetlink=1\npacket=1\nunix=1\npair=ok\ndgrampair=1\nseqpair=ok\ndgrampaircloexec=1\nrawpair=1\n",
    );
    const withNet = await inEnvelope(readOnlySpec({ masks: [S, SF], cwd: "/", network: true }), probe);
    expect(withNet.stdout).toMatch(/^inet=ok\n/);
    expect(withNet.stdout).toContain("unix=1\n");
    expect(withNet.stdout).toContain("pair=ok\ndgrampair=1\nseqpair=ok\ndgrampaircloexec=1\nrawpair=1\n");
    // Bare, the same probe opens every one (packet needs CAP_NET_RAW: root has it here).
    expect((await bare(probe)).stdout).toMatch(
      /^inet=ok\ninet6=(ok|97)\nnetlink=ok\npacket=ok\nunix=ok\npair=ok\ndgrampair=ok\nseqpair=ok\ndgrampaircloexec=ok\nrawpair=ok\n$/,
    );
  });

  it("reads ordinary host files: /etc/hostname is the host's", async () => {
    const r = await inEnvelope(readOnly(), "cat /etc/hostname /etc/os-release");
    expect(r.status).toBe("ok\n");
    expect(r.stdout).toBe(fs.readFileSync("/etc/hostname", "latin1") + fs.readFileSync("/etc/os-release", "latin1"));
  });

  it("/tmp and /var/tmp writes succeed inside and never reach the host", async () => {
    const name = `agent-sudo-envtest-${randomBytes(6).toString("hex")}`;
    const r = await inEnvelope(
      readOnly(),
      `echo inside > /tmp/${name} && cat /tmp/${name} && mkdir /var/tmp/${name} && echo vt > /var/tmp/${name}/f && cat /var/tmp/${name}/f`,
    );
    expect(r.status).toBe("ok\n");
    expect(r.stdout).toBe("inside\nvt\n");
    expect(fs.existsSync(`/tmp/${name}`)).toBe(false);
    expect(fs.existsSync(`/var/tmp/${name}`)).toBe(false);
  });

  it("capabilities: exactly CAP_DAC_OVERRIDE (0x2) effective, permitted and bounding; nothing inheritable or ambient", async () => {
    const r = await inEnvelope(readOnly(), "grep ^Cap /proc/self/status; id -u");
    expect(r.status).toBe("ok\n");
    const c = caps(r.stdout);
    expect(c.eff).toBe(0x2n);
    expect(c.prm).toBe(0x2n);
    expect(c.bnd).toBe(expectedCaps(READ_ONLY_CAPS).bnd);
    expect(c.inh).toBe(0n);
    expect(c.amb).toBe(0n);
    expect(r.stdout).toMatch(/^0$/m);
  });

  it("/run is empty (no host daemon's socket)", async () => {
    const r = await inEnvelope(readOnly(), "ls -A /run; ls -A /var/run/; echo end");
    expect(r.status).toBe("ok\n");
    expect(r.stdout).toBe("end\n");
  });

  it("a host Unix socket under /tmp does not connect (overlay)", async () => {
    const dir = fs.mkdtempSync(join(os.tmpdir(), "agent-sudo-envtest-sock-"));
    const sock = join(dir, "s.sock");
    let got = 0;
    const server = net.createServer((s) => {
      got++;
      s.destroy();
    });
    await new Promise<void>((r) => server.listen(sock, r));
    try {
      const r = await inEnvelope(
        readOnly(),
        `perl -MIO::Socket::UNIX -e 'IO::Socket::UNIX->new(Peer => $ARGV[0]) or die "connect: $!\\n"; print "connected\\n"' ${sock}`,
      );
      expect(r.status).toBe("ok\n");
      expect(r.stdout).not.toContain("connected");
      expect(got).toBe(0);
    } finally {
      server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  // BUG: a read-only mount does not stop connect(2) on a socket file (only
  // /run, /tmp, /var/tmp are replaced), so tier 0 can talk to any host daemon
  // whose socket lives elsewhere on disk (/var/lib/…, /srv/…, /home/…) and
  // have it write for it. Expected: no connection; got: connected, the host
  // listener read the bytes.
  it("a host Unix socket on the root disk (outside /run, /tmp, /var/tmp) is not reachable (seccomp: no AF_UNIX in tier 0)", async () => {
    const dir = join(B, "sock");
    fs.mkdirSync(dir);
    const sock = join(dir, "daemon.sock");
    const received: Buffer[] = [];
    const server = net.createServer((s) => s.on("data", (d: Buffer) => received.push(d)));
    await new Promise<void>((r) => server.listen(sock, r));
    try {
      const r = await inEnvelope(
        readOnly(),
        `perl -MIO::Socket::UNIX -e '$s = IO::Socket::UNIX->new(Peer => $ARGV[0]) or die "connect: $!\\n"; print $s "write-this-for-me\\n"; print "connected\\n"' ${sock}`,
      );
      expect(r.status).toBe("ok\n");
      await new Promise((res) => setTimeout(res, 200));
      expect(Buffer.concat(received).toString()).toBe("");
      expect(r.stdout).not.toContain("connected");
    } finally {
      server.close();
    }
  });

  // A read-only mount does not stop opening a FIFO for writing: tier 0 could
  // feed a host process reading one on disk. Landlock (program.ts
  // landlock_writes) refuses it; a kernel without Landlock keeps the hole,
  // and the executor reports it as degraded.
  const fifoSkip = typeof LANDLOCK === "number" ? undefined : `the kernel has no Landlock (${LANDLOCK})`;
  /** What a host reader of a fresh FIFO gets when `writer` (given the FIFO's path) runs. */
  async function fifoFeed(writer: (fifo: string) => Promise<unknown>): Promise<string> {
    const fifo = join(B, `control-${randomBytes(4).toString("hex")}.fifo`);
    expect(spawnSync("mkfifo", [fifo]).status).toBe(0);
    const fd = fs.openSync(fifo, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
    try {
      await writer(fifo);
      const buf = Buffer.alloc(64);
      let got = 0;
      try {
        got = fs.readSync(fd, buf);
      } catch {
        got = 0; // EAGAIN: nothing written
      }
      return buf.subarray(0, got).toString();
    } finally {
      fs.closeSync(fd);
      fs.rmSync(fifo, { force: true });
    }
  }
  testCase("a host FIFO on the root disk cannot be written (Landlock), in any spelling", { skip: fifoSkip }, async () => {
    const spellings = [
      (f: string) => `echo fifo-data > ${f}`,
      (f: string) => `echo fifo-data >> ${f}`,
      (f: string) => `printf fifo-data | tee ${f}`,
      (f: string) => `printf fifo-data | dd of=${f} status=none`,
      (f: string) => `perl -e 'open(my $h, ">", shift) or die "$!"; print $h "fifo-data"' ${f}`,
      (f: string) => `exec 5<>${f}; echo fifo-data >&5`,
      (f: string) => `l=/tmp/agent-sudo-envtest-$$; ln -s ${f} $l && echo fifo-data > $l; r=$?; rm -f $l; exit $r`,
    ];
    for (const spell of spellings) {
      // Bare: the spelling really reaches the reader (the test would prove nothing otherwise).
      expect(await fifoFeed((f) => bare(`timeout 3 sh -c '${spell(f).replace(/'/g, `'\\''`)}'`))).toContain("fifo-data");
      const got = await fifoFeed(async (f) => {
        const r = await inEnvelope(readOnly(), `timeout 3 bash -c '${spell(f).replace(/'/g, `'\\''`)}'; echo rc=$?`);
        expect(r.status).toBe("ok\n");
        expect(r.stdout).not.toContain("rc=0");
      });
      expect(got, spell("FIFO")).toBe("");
    }
  });
  testCase("Landlock leaves tier 0 its scratch places, /dev and its own pipes", { skip: fifoSkip }, async () => {
    const r = await inEnvelope(
      readOnly({ cwd: T }),
      [
        "echo a > /tmp/x && cat /tmp/x && mkdir /tmp/d && mv /tmp/x /tmp/d/y && rm -r /tmp/d && echo tmp-ok",
        "echo b > /var/tmp/z && rm /var/tmp/z && echo vartmp-ok",
        "mkfifo /run/p && rm /run/p && echo run-ok",
        "echo c > /dev/null && echo d > /dev/shm/s && rm /dev/shm/s && echo dev-ok",
        "echo to-stdout > /dev/stdout; echo to-stderr > /dev/stderr",
        "printf 'b\\na\\n' | sort -S 1K -T /tmp | head -1",
      ].join("; "),
    );
    expect(r.status).toBe("ok\n");
    for (const w of ["tmp-ok", "vartmp-ok", "run-ok", "dev-ok", "to-stdout"]) expect(r.stdout).toContain(w);
    expect(r.stderr).toContain("to-stderr");
  });

  it("a lease on a root-owned host file is refused (seccomp: fcntl F_SETLEASE), so no host writer stalls on it", async () => {
    const file = join(B, `lease-${randomBytes(4).toString("hex")}.conf`);
    fs.writeFileSync(file, "x=1\n", { mode: 0o644 });
    const take = `perl -e '$| = 1; $SIG{IO} = "IGNORE"; open(my $h, "<", $ARGV[0]) or die "open: $!"; if (fcntl($h, 1024, 0)) { print "leased\\n"; sleep 3 } else { print "lease: $!\\n" }' ${file}`;
    /** Opens the file to write, non-blocking, until `done`: EWOULDBLOCK means a lease holds it. */
    const stalled = async (done: Promise<unknown>): Promise<boolean> => {
      let finished = false;
      void done.finally(() => {
        finished = true;
      });
      while (!finished) {
        try {
          fs.closeSync(fs.openSync(file, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK));
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code === "EWOULDBLOCK" || (e as NodeJS.ErrnoException).code === "EAGAIN") return true;
        }
        await new Promise((res) => setTimeout(res, 50));
      }
      return false;
    };
    // Bare, the lease takes and a host writer stalls (the test would prove nothing otherwise).
    const control = bare(take);
    expect(await stalled(control)).toBe(true);
    expect((await control).stdout).toContain("leased");
    for (const spec of [readOnly(), live()]) {
      const run = inEnvelope(spec, take);
      expect(await stalled(run), spec.kind).toBe(false);
      expect((await run).stdout).toContain("lease: Operation not permitted");
    }
  });

  // BUG: keyrings are per user namespace, not per mount/pid namespace: a
  // tier-0 command can add (and read, and revoke) keys in root's user keyring
  // on the host. Expected: add_key refused or invisible to the host; got: the
  // host finds the key.
  it("root's user keyring on the host is not writable (seccomp: no keyring calls)", async () => {
    const desc = `agent-sudo-envtest-${randomBytes(6).toString("hex")}`;
    const search = `my ($t, $d) = ("user", $ARGV[0]); my $id = syscall(${NR.keyctl}, 10, -4, $t, $d, 0); print $id > 0 ? "$id\\n" : "none\\n"`;
    try {
      const r = await inEnvelope(
        readOnly(),
        `perl -e 'my ($t, $d, $p) = ("user", $ARGV[0], "x"); my $id = syscall(${NR.add_key}, $t, $d, $p, 1, -4); print "add_key=$id\\n"' ${desc}`,
      );
      expect(r.status).toBe("ok\n");
      const host = spawnSync(PERL, ["-e", search, desc], { encoding: "utf8" });
      expect(host.stdout.trim()).toBe("none");
    } finally {
      const host = spawnSync(PERL, ["-e", search, desc], { encoding: "utf8" });
      const id = Number(host.stdout.trim());
      if (id > 0) spawnSync(PERL, ["-e", `syscall(${NR.keyctl}, 9, ${id}, -4)`]);
    }
  });

  // Review 19: a mirror run of a `network` rule shares the sandbox's network namespace (the host's under
  // npm start): a host daemon's abstract Unix socket took root's connection and acted outside the judged diff.
  it("a mirror run with the network opens inet sockets but no Unix socket (abstract or path); a datagram pair neither", async () => {
    const probe = `perl -e 'for my $f ([inet=>2,1],[unix=>1,1]) { my ($n,$d,$t)=@$f; print "$n=", (socket(my $s,$d,$t,0) ? "ok" : ($!+0)), "\\n" } for my $p ([pair=>1],[dgrampair=>2]) { my ($n,$t)=@$p; print "$n=", (socketpair(my $a, my $b, 1, $t, 0) ? "ok" : ($!+0)), "\\n" }'`;
    const withNet = await inMirror(probe, { network: true });
    expect(withNet.status).toBe("ok\n");
    expect(withNet.stdout).toBe("inet=ok\nunix=1\npair=ok\ndgrampair=1\n");
    // Without the network (its own namespace, loopback only) a Unix socket reaches nothing of the host's: allowed.
    expect((await inMirror(probe)).stdout).toBe("inet=ok\nunix=ok\npair=ok\ndgrampair=ok\n");
  });

  // Review 19: masks were by path: the state dir bind-mounted elsewhere (fstab's `/data/agent-sudo
  // /var/lib/agent-sudo none bind`) was readable through its other path.
  it("the state dir reached through another mount of it (a bind mount) is masked there too", async () => {
    const alias = join(B, "bind-alias");
    fs.mkdirSync(alias);
    expect(spawnSync("mount", ["--bind", S, alias]).status).toBe(0);
    try {
      const masks = hostMasks({ home: S, stateDirs: [], secrets: [SF] });
      expect(masks).toContain(alias);
      const probe = `cat ${alias}/keys/classifier.key ${alias}/dev-token; ls -A ${alias}; echo end`;
      expect((await bare(probe)).stdout).toContain(MARKER);
      const r = await inEnvelope(readOnlySpec({ masks, cwd: "/", network: false }), probe);
      expect(r.status).toBe("ok\n");
      expect(r.stdout).toBe("end\n");
      noMarker(r);
    } finally {
      spawnSync("umount", [alias]);
    }
  });

  // Review 19: a read-only mount still opens a device node for reading and writing (only regular
  // files, directories and links get EROFS), so a disk's node in a chroot's or a container root's
  // /dev read the raw disk past every mask and wrote it. Stand-ins here: /dev/zero's and /dev/null's numbers.
  it("a device node outside /dev does not open, for reading or writing (the read-only view is nodev)", async () => {
    const dir = join(B, "nodes");
    fs.mkdirSync(dir);
    expect(spawnSync("mknod", [join(dir, "zero"), "c", "1", "5"]).status).toBe(0);
    expect(spawnSync("mknod", [join(dir, "null"), "c", "1", "3"]).status).toBe(0);
    const probe = `head -c 4 ${dir}/zero | od -An -tx1; echo read=$?; echo x > ${dir}/null; echo write=$?`;
    const b = await bare(probe);
    expect(b.stdout).toContain("00 00 00 00");
    expect(b.stdout).toContain("write=0");
    const r = await inEnvelope(readOnly(), probe);
    expect(r.status).toBe("ok\n");
    expect(r.stdout).not.toContain("00 00 00 00");
    expect(r.stdout).toMatch(/write=1/);
    expect(r.stderr).toMatch(/Permission denied/);
    // /dev's own nodes still work.
    const d = await inEnvelope(readOnly(), "head -c 2 /dev/zero | od -An -tx1; echo y > /dev/null && echo null-ok");
    expect(d.stdout).toContain("00 00");
    expect(d.stdout).toContain("null-ok");
  });

  // Review 21: the fresh /proc was writable: /proc/scsi/scsi (a host disk detached), /proc/acpi/wakeup …
  it("tier 0's /proc is read-only (its own files too); the host's value is unchanged", async () => {
    const probe = "echo 0 > /proc/self/oom_score_adj; echo rc=$?; head -1 /proc/self/status";
    expect((await bare(probe)).stdout).toContain("rc=0");
    const r = await inEnvelope(readOnly(), probe);
    expect(r.status).toBe("ok\n");
    expect(r.stdout).toContain("rc=1");
    expect(r.stdout).toMatch(/^Name:/m);
    expect(r.stderr).toMatch(/Read-only file system/);
  });

  // Review 19: the kernel runs a `|helper` core_pattern (apport, systemd-coredump) as root in the
  // host's namespaces for a crash inside the envelope. A core limit of 1 byte makes it skip the helper.
  it("no core dump: RLIMIT_CORE is 1 byte, hard, in the read-only and mirror envelopes; the command cannot raise it", async () => {
    const probe = "grep '^Max core file size' /proc/self/limits; ulimit -c unlimited 2>/dev/null; echo raise=$?";
    for (const mode of ["read-only", "mirror"] as const) {
      const r = await runIn(mode, probe);
      expect(r.status, mode).toBe("ok\n");
      expect(r.stdout, mode).toMatch(/^Max core file size\s+1\s+1\s+bytes/m);
      expect(r.stdout, mode).toContain("raise=1");
    }
  });

  // Review 19: a descriptor the envelope's caller left without close-on-exec reached the command.
  it("a descriptor the caller leaks (fd 4, no close-on-exec) does not reach the command", async () => {
    const leak = join(B, "leaked-fd");
    fs.writeFileSync(leak, "x");
    const fd = fs.openSync(leak, "r");
    try {
      const cmd = "readlink /proc/self/fd/4 || echo none";
      const run = (file: string, args: string[]) =>
        spawnSync(file, args, { stdio: ["ignore", "pipe", "pipe", "pipe", fd], env: ENV, cwd: "/", encoding: "utf8" });
      expect(run("/bin/bash", ["-c", cmd]).stdout).toContain(leak);
      const a = envelopeArgv(readOnly(), ["/bin/bash", "-c", cmd]);
      const r = run(a.file, a.args);
      expect(r.stdout.trim()).toBe("none");
    } finally {
      fs.closeSync(fd);
    }
  });
});

// ================================================================ 2. masked state, every kind of envelope

interface SP {
  S: string;
  SF: string;
  B: string;
  L: string;
  /** A directory the command may write in this mode (scratch overlay, upper layer, or a host scratch dir for live). */
  W: string;
  handle: string;
  lowCap: number;
  dev: string;
}
interface SecretCase {
  name: string;
  cmd: (p: SP) => string;
  /** Run bare on the host first: it must print the marker (default true; false for mount tricks and pid 1). */
  control?: boolean;
  /** Why it cannot run here (a program this machine lacks), or undefined. */
  skip?: string | undefined;
  /** Modes where the spelling leaks today: kept as it.fails, with the reason. */
  bug?: Partial<Record<Mode, string>>;
}

const SECRET_CASES: SecretCase[] = [
  { name: "cat", cmd: (p) => `cat ${p.S}/keys/classifier.key` },
  { name: "cat the secret file", cmd: (p) => `cat ${p.SF}` },
  { name: "head -c", cmd: (p) => `head -c 65536 ${p.S}/dev-token ${p.S}/database-url` },
  { name: "tail -n +1", cmd: (p) => `tail -n +1 ${p.S}/approle-secret` },
  { name: "less -F", cmd: (p) => `less -F ${p.S}/keys/gateway.key`, skip: NEED.less },
  { name: "grep -r", cmd: (p) => `grep -r '' ${p.S} ${p.SF}` },
  {
    name: "grep -r -a -o a pattern over the whole base dir",
    cmd: (p) => `grep -r -a -o -h 'SECRET_[0-9a-f]*' ${p.B} --exclude-dir=trials`,
  },
  { name: "find … -exec cat {} +", cmd: (p) => `find ${p.S} ${p.SF} -type f -exec cat {} +` },
  { name: "find -name '*.key' -exec cat", cmd: (p) => `find ${p.B}/ -name '*.key' -exec cat {} \\;` },
  { name: "globs", cmd: (p) => `cat ${p.B}/stat?/key?/clas*.k?y ${p.B}/stat*/dev-tok* ${p.B}/secr?t.c*` },
  { name: "a symlink to the state dir", cmd: (p) => `cat ${p.L}/statelink/keys/classifier.key ${p.L}/statelink/database-url` },
  { name: "a symlink to /", cmd: (p) => `cat ${p.L}/rootlink${p.S}/journal/000001.jsonl` },
  { name: "a symlink to the key", cmd: (p) => `cat ${p.L}/keylink` },
  { name: "tar c", cmd: (p) => `tar cf - -C ${p.S} . | tar xOf -` },
  {
    name: "cp -r, then cat the copy; cp to /dev/stdout",
    cmd: (p) => `d=$(mktemp -d -p ${p.W}) && cp -r ${p.S} "$d/c" && cat "$d"/c/keys/* "$d"/c/*; cp ${p.SF} /dev/stdout`,
  },
  { name: "base64 (decoded again)", cmd: (p) => `base64 ${p.S}/keys/classifier.key | base64 -d` },
  { name: "xxd (decoded again)", cmd: (p) => `xxd -p ${p.S}/database-url | xxd -r -p`, skip: NEED.xxd },
  { name: "od (decoded again)", cmd: (p) => `od -An -v -tx1 ${p.S}/dev-token | xxd -r -p`, skip: NEED.xxd },
  { name: "dd if=", cmd: (p) => `dd if=${p.S}/keys/classifier.key bs=4096 status=none` },
  { name: "perl -ne print", cmd: (p) => `perl -ne print ${p.S}/journal/000001.jsonl ${p.SF}` },
  {
    name: "python3 open().read()",
    cmd: (p) => `python3 -c "import sys; [print(open(f).read()) for f in sys.argv[1:]]" ${p.S}/spool/req-1.json ${p.S}/approle-secret`,
    skip: NEED.python3,
  },
  { name: "awk", cmd: (p) => `awk 1 ${p.S}/approle-secret ${p.SF}` },
  { name: "sed -n p", cmd: (p) => `sed -n p ${p.S}/keys/gateway.key` },
  { name: "/proc/self/root/…", cmd: (p) => `cat /proc/self/root${p.S}/keys/classifier.key` },
  { name: "/proc/self/cwd after cd into it", cmd: (p) => `cd ${p.S} && cat /proc/self/cwd/dev-token ./database-url` },
  {
    name: "/proc/1/root/… (own pid 1, or the host's without ptrace)",
    cmd: (p) => `cat /proc/1/root${p.S}/keys/classifier.key`,
    control: false,
  },
  { name: "a redirection and /dev/fd", cmd: (p) => `exec 3< ${p.S}/keys/classifier.key && cat <&3; cat /dev/fd/3` },
  { name: "bash $(< file)", cmd: (p) => `echo "$(< ${p.S}/database-url)"` },
  { name: "source (the error message echoes the line)", cmd: (p) => `source ${p.S}/database-url` },
  { name: "diff against /dev/null", cmd: (p) => `diff ${p.S}/dev-token /dev/null` },
  { name: "curl file://", cmd: (p) => `curl -s file://${p.S}/keys/classifier.key`, skip: NEED.curl },
  { name: "strings", cmd: (p) => `strings ${p.S}/keys/breaker.key`, skip: NEED.strings },
  { name: "tac, nl, sort", cmd: (p) => `tac ${p.S}/keys/classifier.key; nl ${p.SF}; sort ${p.S}/dev-token` },
  { name: "git diff --no-index", cmd: (p) => `git --no-pager diff --no-index --text /dev/null ${p.S}/keys/classifier.key`, skip: NEED.git },
  { name: "dot-dot and double slashes", cmd: (p) => `cat ${p.B}/./state/../state/keys/classifier.key /${p.S}//dev-token` },
  {
    name: "raw block device (no such device inside)",
    cmd: (p) =>
      `test -e ${p.dev} && echo DEVICE-PRESENT; ls /dev/disk 2>/dev/null && echo DISK-DIR; timeout 5 grep -a -o -m1 'SECRET_[0-9a-f]*' ${p.dev}`,
    control: false,
  },
  {
    name: "umount the mask, then cat",
    cmd: (p) => `umount ${p.S}; umount -l ${p.S}; umount ${p.SF}; cat ${p.S}/keys/classifier.key ${p.SF}`,
    control: false,
  },
  {
    name: "mount --bind / elsewhere, mount --move the mask",
    cmd: (p) =>
      `mount --bind / ${p.B}/mnt; mount --move ${p.S} ${p.B}/mnt; mount -o remount,bind,rw ${p.S}; cat ${p.B}/mnt${p.S}/keys/classifier.key ${p.S}/keys/classifier.key`,
    control: false,
  },
  {
    name: "nsenter -t 1 -m cat",
    cmd: (p) => `nsenter -t 1 -m cat ${p.S}/keys/classifier.key; nsenter -t 1 -a cat ${p.S}/dev-token`,
    control: false,
    skip: NEED.nsenter,
  },
  {
    name: "unshare -Urm, then umount the mask",
    cmd: (p) => `unshare -Urm sh -c 'umount -l ${p.S}; cat ${p.S}/keys/classifier.key'`,
    control: false,
    skip: NEED.unshare,
  },
  {
    name: "/proc/PID/root of a capability-less root process on the host",
    cmd: (p) => `cat /proc/${p.lowCap}/root${p.S}/keys/classifier.key`,
    skip: NEED.setpriv,
    // ptrace_may_access: same uid, and the target's permitted set ⊆ ours → no CAP_SYS_PTRACE needed; its root is the host's namespace.
    bug: { live: "/proc/PID/root of a same-uid process with fewer capabilities is the host's unmasked tree" },
  },
  // Once a hole (CAP_DAC_READ_SEARCH opened the masked inode by number; ext4 accepts generation 0): closed by capabilities and seccomp.
  { name: "open_by_handle_at (getdents64 inode, generation 0)", cmd: (p) => `perl ${p.handle} ${p.B} state keys/classifier.key` },
];

/** "control" runs bare on the host: its writable dir is emptied after each run, so no copy of a secret outlives it. */
function secretPaths(mode: Mode | "control"): SP {
  return {
    S,
    SF,
    B,
    L,
    W: mode === "live" ? join(B, "livetmp") : mode === "control" ? join(B, "control-w") : "/tmp",
    handle: join(TOOLS, "handle.pl"),
    lowCap: lowCapPid,
    dev: ROOT_DEV.startsWith("/dev/") ? ROOT_DEV : "/dev/vda",
  };
}

describe.skipIf(!!SKIP)("2. masked state: no spelling prints a byte of it", () => {
  describe("controls: bare, each spelling does print the secret", () => {
    for (const c of SECRET_CASES) {
      if (c.control === false) continue;
      it.skipIf(!!c.skip)(named(c.name, c.skip), async () => {
        const cmd = c.cmd(secretPaths("control"));
        expect(cmd).not.toContain(MARKER_HEX);
        const w = join(B, "control-w");
        fs.mkdirSync(w);
        try {
          const r = await bare(cmd);
          expect(r.stdout + r.stderr).toContain(MARKER_HEX);
        } finally {
          fs.rmSync(w, { recursive: true, force: true });
        }
      });
    }
  });

  for (const mode of ["read-only", "live", "mirror"] as const) {
    describe(`${mode}`, () => {
      for (const c of SECRET_CASES) {
        const bug = c.bug?.[mode];
        const name = bug ? `BUG (${bug}): ${c.name}` : c.name;
        testCase(name, { skip: c.skip, fails: !!bug }, async () => {
          const cmd = c.cmd(secretPaths(mode));
          expect(cmd).not.toContain(MARKER_HEX);
          const r = await runIn(mode, cmd);
          expect(r.status).toBe("ok\n");
          noMarker(r);
          expect(r.stdout).not.toContain("DEVICE-PRESENT");
          expect(r.stdout).not.toContain("DISK-DIR");
        });
      }
    });
  }

  it("the masks are there: the state dir is empty and read-only, the secret file empty (all three kinds)", async () => {
    for (const mode of ["read-only", "live", "mirror"] as const) {
      const r = await runIn(mode, `ls -A ${S}; stat -c %s ${SF}; touch ${S}/x 2>/dev/null && echo wrote-state; echo end`);
      expect(r.status).toBe("ok\n");
      // The mirror's mask is bound from the trial dir and writable (so the sandbox can report a write into it).
      expect(r.stdout.replace("wrote-state\n", "")).toBe("0\nend\n");
      if (mode !== "mirror") expect(r.stdout).not.toContain("wrote-state");
    }
    expect(fs.existsSync(join(S, "x"))).toBe(false);
  });
});

// ================================================================ 3. live (tier 3)

describe.skipIf(!!SKIP)("3. live (liveSpec)", () => {
  it("capabilities: exactly the live set; no SYS_ADMIN, SYS_PTRACE, SYS_MODULE, SYS_RAWIO, MKNOD", async () => {
    const r = await inEnvelope(live(), "grep ^Cap /proc/self/status");
    expect(r.status).toBe("ok\n");
    const c = caps(r.stdout);
    expect(c.eff).toBe(expectedCaps(LIVE_CAPS).eff);
    expect(c.bnd).toBe(expectedCaps(LIVE_CAPS).bnd);
    expect(c.inh).toBe(0n);
    expect(c.amb).toBe(0n);
    for (const n of [21, 19, 16, 17, 27]) expect(c.eff & bit(n)).toBe(0n);
    expect(c.eff & bit(CAP.DAC_READ_SEARCH)).toBe(0n);
    expect(c.eff & bit(CAP.DAC_OVERRIDE)).not.toBe(0n);
  });

  it("sees the host's processes (no pid namespace): kill -0 of the test's pid works", async () => {
    const r = await inEnvelope(
      live(),
      `kill -0 ${process.pid} && echo alive; test -d /proc/${process.pid} && echo visible; [ "$(readlink /proc/self/ns/pid)" = '${HOST_PID_NS}' ] && echo host-ns`,
    );
    expect(r.status).toBe("ok\n");
    expect(r.stdout).toBe("alive\nvisible\nhost-ns\n");
  });

  it("writes to a scratch file land on the host (that is what live means)", async () => {
    const f = join(B, "livetmp", "written");
    const r = await inEnvelope(live(), `echo landed > ${f}`);
    expect(r.status).toBe("ok\n");
    expect(fs.readFileSync(f, "utf8")).toBe("landed\n");
  });

  it("/dev holds only null zero full random urandom tty pts shm mqueue (+ fd, std*, ptmx links, the empty .masks)", async () => {
    const r = await inEnvelope(live(), "ls -A /dev; echo --; ls -A /dev/.masks; echo --; find /dev -xdev -type b | wc -l");
    expect(r.status).toBe("ok\n");
    const [list = "", masks = "", blocks = ""] = r.stdout.split("--\n");
    expect(list.trim().split("\n").sort()).toEqual([
      ".masks",
      "fd",
      "full",
      "mqueue",
      "null",
      "ptmx",
      "pts",
      "random",
      "shm",
      "stderr",
      "stdin",
      "stdout",
      "tty",
      "urandom",
      "zero",
    ]);
    expect(masks.trim()).toBe("");
    expect(blocks.trim()).toBe("0");
  });

  // Review 21: nodev was the read-only view's only: a disk's node in a chroot's /dev opened in live.
  it("a device node outside /dev does not open (every mount nodev)", async () => {
    const dir = join(B, "livenodes");
    fs.mkdirSync(dir);
    expect(spawnSync("mknod", [join(dir, "zero"), "c", "1", "5"]).status).toBe(0);
    const probe = `head -c 4 ${dir}/zero | od -An -tx1; echo read=$?`;
    expect((await bare(probe)).stdout).toContain("00 00 00 00");
    const r = await inEnvelope(live(), probe);
    expect(r.status).toBe("ok\n");
    expect(r.stdout).not.toContain("00 00 00 00");
    expect(r.stderr).toMatch(/Permission denied/);
  });

  it("mknod and raw disks are out of reach", async () => {
    const r = await inEnvelope(live(), `mknod ${B}/livetmp/disk b 8 0; echo rc=$?`);
    expect(r.status).toBe("ok\n");
    expect(r.stdout).toContain("rc=1");
    expect(fs.existsSync(join(B, "livetmp/disk"))).toBe(false);
  });

  // BUG: LIVE_CAPS keeps CAP_DAC_READ_SEARCH, so open_by_handle_at reaches the
  // masked inode, and the live mounts are writable: a live command can rewrite
  // agent-sudo's keys, journal or spool. Expected: key unchanged; got: "TAMPERED" appended.
  it("a live command cannot modify the masked state (open_by_handle_at O_RDWR: no DAC_READ_SEARCH, seccomp)", async () => {
    const key = join(S, "keys/classifier.key");
    const was = fs.readFileSync(key);
    try {
      const r = await inEnvelope(live(), `perl ${join(TOOLS, "handle.pl")} ${B} state keys/classifier.key append`);
      expect(r.status).toBe("ok\n");
      expect(fs.readFileSync(key)).toEqual(was);
    } finally {
      fs.writeFileSync(key, was);
    }
  });
});

// ================================================================ 4. the cwd walk, run-as

describe.skipIf(!!SKIP)("4. cwd walk and run-as", () => {
  let linkDir = "";
  beforeAll(() => {
    linkDir = join(B, "cwdlinks");
    fs.mkdirSync(linkDir);
    fs.symlinkSync(T, join(linkDir, "to-scratch"));
  });

  for (const [what, sub] of [
    ["last component a symlink", ""],
    ["middle component a symlink", "/dir"],
  ] as const) {
    it(`cwd with the ${what} → refused before the command runs (fd 3 "error: cwd …", exit 125)`, async () => {
      const cwd = join(linkDir, "to-scratch") + sub;
      const ran = join(B, "livetmp", `ran-${randomBytes(4).toString("hex")}`);
      for (const spec of [live({ cwd }), readOnly({ cwd })]) {
        const r = await inEnvelope(spec, `touch ${ran}; pwd`);
        expect(r.status).toMatch(/^error: cwd /);
        expect(r.code).toBe(125);
        expect(r.stdout).toBe("");
        expect(fs.existsSync(ran)).toBe(false);
      }
      // Through the mirror too.
      const m = await inMirror("pwd", { cwd });
      expect(m.status).toMatch(/^error: cwd /);
      expect(m.code).toBe(125);
    });
  }

  it("a '..' component is refused; a missing dir is refused", async () => {
    const a = await inEnvelope(live({ cwd: `${T}/../scratch` }), "pwd");
    expect(a.status).toMatch(/^error: cwd: bad component/);
    expect(a.code).toBe(125);
    const b = await inEnvelope(live({ cwd: `${T}/nope` }), "pwd");
    expect(b.status).toMatch(/^error: cwd /);
    expect(b.code).toBe(125);
  });

  it("a normal cwd works (read-only, live, mirror)", async () => {
    const cwd = join(T, "dir");
    for (const r of [
      await inEnvelope(readOnly({ cwd }), "pwd; /bin/pwd -P; cat inner.txt"),
      await inEnvelope(live({ cwd }), "pwd; /bin/pwd -P; cat inner.txt"),
      await inMirror("pwd; /bin/pwd -P; cat inner.txt", { cwd }),
    ]) {
      expect(r.status).toBe("ok\n");
      expect(r.stdout).toBe(`${cwd}\n${cwd}\ninner\n`);
    }
  });

  const nobody: EnvelopeUser = { uid: 65534, gid: 65534, groups: [65534] };
  it("run-as nobody: that uid, gid and groups, no capability at all (read-only, live, mirror)", async () => {
    const cmd = "id -u; id -g; id -G; grep ^Cap /proc/self/status";
    for (const [kind, r] of [
      ["read-only", await inEnvelope(readOnly({ user: nobody }), cmd)],
      ["live", await inEnvelope(live({ user: nobody }), cmd)],
      ["mirror", await inMirror(cmd, { user: nobody })],
    ] as const) {
      expect(r.status, kind).toBe("ok\n");
      expect(r.stdout.split("\n").slice(0, 3), kind).toEqual(["65534", "65534", "65534"]);
      const c = caps(r.stdout);
      expect(c.eff, kind).toBe(0n);
      expect(c.prm, kind).toBe(0n);
      expect(c.inh, kind).toBe(0n);
      expect(c.amb, kind).toBe(0n);
    }
  });

  it("run-as nobody: the cwd is walked as nobody (a root-only dir is refused)", async () => {
    // B is 0700 root: nobody cannot search it.
    const r = await inEnvelope(live({ user: nobody, cwd: T }), "pwd");
    expect(r.status).toMatch(/^error: cwd .*Permission denied/);
    expect(r.code).toBe(125);
  });

  it("run-as nobody cannot regain root through a set-uid binary (no_new_privs)", async () => {
    const r = await inEnvelope(
      live({ user: nobody }),
      "grep ^NoNewPrivs /proc/self/status; su -c id root </dev/null; sudo -n id; echo end",
    );
    expect(r.status).toBe("ok\n");
    expect(r.stdout).toMatch(/^NoNewPrivs:\s+1$/m);
    expect(r.stdout).not.toMatch(/uid=0/);
  });
});

// ================================================================ 5. mirror

describe.skipIf(!!SKIP)("5. mirror (mirrorSpec, lower = the host's /)", () => {
  it("writes land in the upper layer; the host (the lower) is unchanged; /etc canary only in the upper", async () => {
    const before = snapshot(T);
    const r = await inMirror(
      `echo changed > ${T}/file.txt && rm ${T}/dir/inner.txt && mkdir ${T}/newdir && echo c > ${CANARY} && chmod 600 ${T}/run.sh && cat ${T}/file.txt`,
    );
    expect(r.status).toBe("ok\n");
    expect(r.stdout).toBe("changed\n");
    expect(snapshot(T)).toBe(before);
    expect(fs.existsSync(CANARY)).toBe(false);
    const up = (p: string): string => join(r.upper, p);
    expect(fs.readFileSync(up(`${T}/file.txt`), "utf8")).toBe("changed\n");
    expect(fs.readFileSync(up(CANARY), "utf8")).toBe("c\n");
    expect(fs.statSync(up(`${T}/newdir`)).isDirectory()).toBe(true);
    const wh = fs.statSync(up(`${T}/dir/inner.txt`));
    expect(wh.isCharacterDevice() && wh.rdev === 0).toBe(true); // an overlay whiteout
    expect(fs.statSync(up(`${T}/run.sh`)).mode & 0o777).toBe(0o600);
  });

  it("reads see the host; a write into a mask lands in the trial's mask source, not the host's state", async () => {
    const r = await inMirror(`cat /etc/hostname; echo x > ${S}/planted`);
    expect(r.status).toBe("ok\n");
    expect(r.stdout).toBe(fs.readFileSync("/etc/hostname", "latin1"));
    expect(fs.existsSync(join(S, "planted"))).toBe(false);
    expect(fs.readFileSync(join(r.trial, "mask0", "planted"), "utf8")).toBe("x\n");
  });

  it("own pid namespace, the mirror's capability set, empty /run, no network, minimal /dev", async () => {
    const r = await inMirror(
      `echo $$; grep ^Cap /proc/self/status; echo --; ls -A /run; echo --; ls /dev; echo --; kill -0 ${process.pid} 2>/dev/null && echo sees-host; (exec 3<>/dev/tcp/127.0.0.1/22) 2>/dev/null && echo net; echo end`,
    );
    expect(r.status).toBe("ok\n");
    const [head = "", run = "x", dev = "", rest = ""] = r.stdout.split("--\n");
    expect(head.split("\n")[0]).toBe("1");
    const c = caps(head);
    expect(c.eff).toBe(expectedCaps(MIRROR_CAPS).eff);
    expect(c.bnd).toBe(expectedCaps(MIRROR_CAPS).bnd);
    expect(c.eff & bit(21)).toBe(0n);
    expect(run).toBe("");
    expect(dev.trim().split("\n").sort()).toEqual([
      "fd",
      "full",
      "mqueue",
      "null",
      "ptmx",
      "pts",
      "random",
      "shm",
      "stderr",
      "stdin",
      "stdout",
      "tty",
      "urandom",
      "zero",
    ]);
    expect(rest).toBe("end\n");
  });

  it("a symlink planted in the mirror pointing at the host's state shows the mask", async () => {
    const r = await inMirror(`ln -s ${S} /tmp/st && cat /tmp/st/keys/classifier.key; ls -A /tmp/st; echo end`);
    expect(r.status).toBe("ok\n");
    noMarker(r);
    expect(r.stdout).toBe("end\n");
  });
});

// ================================================================ 6. timing

describe.skipIf(!!SKIP)("6. timing (printed, not asserted)", () => {
  it("median wall time of 50 runs of `true`: bare bash -c vs read-only, live and mirror envelopes", async () => {
    const time = async (f: () => Promise<Result>): Promise<number> => {
      const xs: number[] = [];
      for (let i = 0; i < 50; i++) {
        const r = await f();
        expect(r.code).toBe(0);
        xs.push(r.ms);
      }
      return median(xs);
    };
    await bare("true"); // warm up
    const b = await time(() => bare("true"));
    const ro = await time(() => inEnvelope(readOnly(), "true"));
    const ro1 = await time(() => inEnvelope(readOnly(), "true", true));
    const lv = await time(() => inEnvelope(live(), "true"));
    const mi = await time(() => inMirror("true"));
    console.log(
      `envelope timing, median of 50 (request to exit): bare bash -c true ${b.toFixed(1)} ms; read-only ${ro.toFixed(1)} ms (+${(ro - b).toFixed(1)}; one-shot perl -e ${ro1.toFixed(1)}); live ${lv.toFixed(1)} ms (+${(lv - b).toFixed(1)}); mirror ${mi.toFixed(1)} ms (+${(mi - b).toFixed(1)})`,
    );
  });
});

describe.skipIf(!!SKIP)("7. one-shot (perl -e, the sandbox's bwrap-less trials before the server): the same envelope", () => {
  for (const c of WRITE_CASES.filter((w) => !w.skip).slice(0, 6)) {
    it(`tier 0, one-shot: ${c.name}`, async () => {
      const before = snapshot(T);
      const r = await inEnvelope(
        readOnly(),
        c.cmd({ T, F: join(T, "file.txt"), D: join(T, "dir"), E: join(T, "empty"), canary: CANARY }),
        true,
      );
      expect(r.status).toBe("ok\n");
      expect(snapshot(T)).toBe(before);
      expect(fs.existsSync(CANARY)).toBe(false);
    });
  }
  for (const c of SECRET_CASES.filter((x) => !x.skip && !x.bug).slice(0, 6)) {
    it(`masked state, one-shot: ${c.name}`, async () => {
      const r = await inEnvelope(readOnly(), c.cmd(secretPaths("read-only")), true);
      expect(r.status).toBe("ok\n");
      noMarker(r);
    });
  }
});
