// The overlay driver: a copy-on-write mirror of the host itself. Runs as
// root (in the sandbox's privileged launcher, never in the gRPC-facing
// process). Per trial:
//   1. fresh upper/work directories on the launcher's tmpfs;
//   2. `unshare --mount --propagation private`: a private mount namespace in
//      which each on-disk file system of the host (or a debootstrap mirror
//      root) is mounted as the lower layer of an overlay, `nodev`; nothing of
//      this is visible in the host's mount table and it all vanishes with the
//      namespace;
//   3. (launcher "envelope", the default) the shared envelope program (services/shared/envelope/, perl-base and
//      the kernel only) mounts the overlays, pivots into them and builds the
//      same guarantees: new pid, net (loopback only), ipc and uts namespaces,
//      a minimal /dev, a fresh /proc with /proc/sys and sysrq-trigger
//      read-only, a fresh /run, the masks, a bounding set of file-ownership
//      capabilities (no CAP_SYS_ADMIN, CAP_MKNOD, CAP_NET_ADMIN, CAP_SYS_PTRACE),
//      no_new_privs, the cwd walked without following a symlink; or
//   3'. (launcher "bwrap", when configured) bubblewrap inside a user namespace that maps every id to itself (so
//      ownership, users and sudoers are exactly the host's) but holds the
//      trial's capabilities only there, with nested user namespaces disabled
//      (user.max_user_namespaces=0 in it); new pid, net (loopback only),
//      ipc, uts and cgroup namespaces; minimal /dev, fresh /proc (bwrap
//      keeps /proc/sys read-only), a fresh /run; /tmp and /var/tmp are
//      part of the copy-on-write mirror (a command editing a file in a temp
//      dir is trialled on it, and the write never reaches the host); masked
//      paths bound to empty directories/files on the trial's tmpfs; the
//      envelope's seccomp filter (--seccomp), where it has a table for the architecture;
//   4. setpriv: no_new_privs, a bounding set of file-ownership capabilities
//      only (no CAP_SYS_ADMIN, no CAP_MKNOD, no CAP_NET_*), then the command
//      under the executor's shell, optionally as the run-as user;
//   5. SIGKILL at the timeout (bwrap --die-with-parent takes the pid
//      namespace with it); walk the upper layers (diff.ts); note any write
//      that landed in a mask; delete the trial directory.
// Nothing the trial does reaches the host: writes land in the upper layer,
// the host's Unix sockets do not connect through overlayfs, the network
// namespace is empty, and device nodes on the lower layers are inert (nodev).
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import {
  chmodSync,
  chownSync,
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import type { Writable } from "node:stream";
import { type Change, diffLayers } from "./diff.js";
import { EntryKind, type Change as ManifestChange } from "../../../proto/gen/agent_sudo/v1/manifest_pb.js";
import { buildManifest } from "./manifest.js";
import { warmXattrReader } from "./xattrs.js";

/** A manifest entry in the diff's words (the report's judge of forbidden and masked paths reads those). */
function asChange(c: ManifestChange): Change {
  const was = c.before?.kind ?? EntryKind.ENTRY_KIND_ABSENT;
  const now = c.after?.kind ?? EntryKind.ENTRY_KIND_ABSENT;
  const kind =
    was === EntryKind.ENTRY_KIND_ABSENT
      ? "created"
      : now === EntryKind.ENTRY_KIND_ABSENT
        ? "deleted"
        : was !== now || Buffer.compare(Buffer.from(c.before?.sha256 ?? []), Buffer.from(c.after?.sha256 ?? [])) !== 0
          ? "modified"
          : "metadata";
  return { path: c.path, kind };
}
import { expandMasks, type Layer, type Mask, parseMountinfo, readHostLayers } from "../mounts.js";
import { envelopeArch, envelopeWords, mirrorSpec } from "../../shared/envelope/spec.js";
import { envelopeFilter } from "../../shared/envelope/seccomp.js";
import { EnvelopeServer } from "../../shared/envelope/server.js";
import { findProgram } from "../../shared/programs.js";

/** A started trial, whichever launcher runs it. */
interface Launched {
  /** The exit code (128+n for a signal) and what the envelope reported on fd 3 ("" for bwrap). */
  done: Promise<{ exitCode: number; status: string }>;
  kill(): void;
}

/**
 * A warm server of this process (the launcher), started on first use:
 * losing it loses the trials in flight, so the launcher exits and the
 * sandbox service with it (crash, don't limp).
 */
function warmServer(what: string): () => EnvelopeServer {
  let server: EnvelopeServer | undefined;
  return () =>
    (server ??= EnvelopeServer.start((why) => {
      process.stderr.write(`agent-sudo sandbox: the ${what} server ${why}; exiting\n`);
      process.exit(70);
    }));
}

/** One envelope server for every mirror's run. */
const envelopeServer = warmServer("envelope");
/**
 * Another, for the manifests' extended attributes only: the envelope server
 * forks its next spare child as a run ends, which is just when the manifest
 * asks for the run's xattrs, and the answer waited for that fork (the
 * manifest's build: 4.1–4.3 ms with one server, 1.9–2.2 ms with two, `echo N >
 * FILE` in the mirror). This one never runs a command.
 */
const xattrServer = warmServer("extended-attribute");

/** Capabilities a trial keeps (inside its user namespace): enough for package, file and account changes. */
const TRIAL_CAPS = [
  "chown",
  "dac_override",
  "fowner",
  "fsetid",
  "kill",
  "setgid",
  "setuid",
  "setpcap",
  "setfcap",
  "net_bind_service",
  "sys_chroot",
  "audit_write",
];

const SANDBOX_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

// Positional arguments only: no trial text is ever parsed by this shell.
const MOUNT_SCRIPT = `set -eu
d=$1; n=$2; shift 2
i=0
while [ "$i" -lt "$n" ]; do
  mount -t overlay -o "nodev,redirect_dir=off,metacopy=off,lowerdir=$1,upperdir=$d/u$i,workdir=$d/w$i" agent-sudo-trial "$d/m$2" || { echo "agent-sudo-sandbox: overlay mount of $2 failed" >&2; exit 125; }
  shift 2; i=$((i + 1))
done
exec "$@"`;

/** How far before the start a host entry's ctime still counts as a change during the run. */
const CTIME_SLACK_MS = 25;

/** How a trial is started inside the overlays: bubblewrap, or the shared envelope program. */
export type TrialLauncher = "auto" | "bwrap" | "envelope";

export interface OverlayOptions {
  launcher?: TrialLauncher;
  /** Root-only directory where the launcher mounts the tmpfs for upper layers. */
  trialsRoot: string;
  tmpfsSizeMb: number;
  /** Mask globs and the lower root they are expanded against. */
  masks: readonly string[];
  /** "/" mirrors this host; a directory mirrors another host (debootstrap root). */
  lowerRoot: string;
  /** Paths never mirrored as extra layers (the broker's own state). */
  skip: readonly string[];
  shell: string;
  stdoutCap: number;
  stderrCap: number;
  maxPaths: number;
}

export interface OverlayTrialInput {
  command: string;
  cwd: string;
  runAs: string;
  timeoutS: number;
  /** The classifier granted the run the launcher's network (no network namespace of its own). */
  network?: boolean;
  /** Secret variables (env_secrets) for the run's environment; never logged. */
  env?: Record<string, string>;
  /** A transactional run (tiers 1–2): build the signed manifest of the diff too. */
  manifest?: { requestId: string; commandDigest: Uint8Array; host: string; maxBlobBytes: number };
}

export interface OverlayTrialOutput {
  exitCode: number;
  timedOut: boolean;
  stdout: Buffer;
  stderr: Buffer;
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
  changes: Change[];
  truncated: boolean;
  /** Masked paths the trial wrote to (the write landed in the mask). */
  maskWrites: string[];
  /** The sandbox itself failed (mount, bwrap): the command's outcome is unknown. */
  setupError?: string;
  /** A transactional run's manifest (encoded), the files' content by sha256, and why it cannot be committed. */
  built?: { encoded: Uint8Array; blobs: Map<string, Buffer>; problems: string[]; conflicts: string[] };
  durationMs: number;
}

interface PasswdEntry {
  uid: number;
  gid: number;
  home: string;
}

function passwdOf(root: string, name: string): PasswdEntry | undefined {
  for (const line of readFileSync(join(root, "etc/passwd"), "utf8").split("\n")) {
    const f = line.split(":");
    if (f[0] === name && f.length >= 7) return { uid: Number(f[2]), gid: Number(f[3]), home: f[5] || "/" };
  }
  return undefined;
}

function which(bin: string): string {
  const found = findBin(bin);
  if (!found) throw new Error(`${bin} is not installed (the overlay driver needs util-linux, and perl-base or bubblewrap)`);
  return found;
}

/** The system's directories only: the launcher is root, and no PATH of anyone's is searched. */
function findBin(bin: string): string | undefined {
  return findProgram(bin, ["/usr/bin", "/bin", "/usr/sbin", "/sbin"]);
}

/**
 * The launcher a mirror will use. "auto": the envelope program through the
 * warm server (the same kernel envelope every other command gets, and about
 * half of bubblewrap's cost per run: no unshare, shell, mount, bwrap and
 * setpriv executed per trial), or bubblewrap where the envelope has no
 * system-call table for this architecture. Either when told.
 */
export function chooseLauncher(wanted: TrialLauncher = "auto"): "bwrap" | "envelope" {
  if (wanted === "bwrap" || (wanted === "auto" && !envelopeArch() && findBin("bwrap"))) {
    which("bwrap");
    return "bwrap";
  }
  if (!envelopeArch()) throw new Error(`the envelope program has no system-call table for ${process.arch}; install bubblewrap`);
  which("perl");
  return "envelope";
}

function groupsIn(root: string, name: string, gid: number): number[] {
  const out = new Set([gid]);
  for (const line of readFileSync(join(root, "etc/group"), "utf8").split("\n")) {
    const f = line.split(":");
    if (f[2] && (f[3] ?? "").split(",").includes(name)) out.add(Number(f[2]));
  }
  return [...out];
}

function isMountPoint(path: string): boolean {
  return parseMountinfo(readFileSync("/proc/self/mountinfo", "utf8")).some((m) => m.mountPoint === path);
}

function run(cmd: string, args: string[]): void {
  const r = spawnSync(cmd, args, { stdio: ["ignore", "ignore", "pipe"] });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")}: ${r.stderr?.toString().trim() || `exit ${r.status}`}`);
}

/**
 * A user namespace mapping every uid and gid to itself, in which no nested
 * user namespace can be created. Opened once; the holder process is gone
 * as soon as its namespace file is open.
 */
function identityUserns(): number {
  const holder = spawn("unshare", ["--user", "--", "sleep", "60"], { stdio: "ignore" });
  const pid = holder.pid;
  if (!pid) throw new Error("could not start the user-namespace holder");
  try {
    // unshare(2) happens before exec; wait until the namespace differs from ours.
    const deadline = Date.now() + 2000;
    const own = statSync("/proc/self/ns/user").ino;
    while (statSync(`/proc/${pid}/ns/user`).ino === own) {
      if (Date.now() > deadline) throw new Error("the user-namespace holder did not unshare");
      spawnSync("sleep", ["0.005"]);
    }
    writeFileSync(`/proc/${pid}/uid_map`, "0 0 4294967295");
    writeFileSync(`/proc/${pid}/gid_map`, "0 0 4294967295");
    run("nsenter", [`--user=/proc/${pid}/ns/user`, "--", "sh", "-c", "echo 0 > /proc/sys/user/max_user_namespaces"]);
    return openSync(`/proc/${pid}/ns/user`, "r");
  } finally {
    holder.kill("SIGKILL");
  }
}

/** Output kept up to a cap. */
class Sink {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  private truncated = false;

  constructor(private readonly cap: number) {}

  readonly push = (chunk: Buffer): void => {
    const part = chunk.subarray(0, Math.max(0, this.cap - this.kept));
    if (part.length < chunk.length) this.truncated = true;
    if (part.length === 0) return;
    this.chunks.push(part);
    this.kept += part.length;
  };

  result(): { data: Buffer; truncated: boolean } {
    return { data: Buffer.concat(this.chunks), truncated: this.truncated };
  }
}

export class OverlayMirror {
  private readonly layers: Layer[];
  readonly unmirrored: string[];
  private readonly usernsFd: number | undefined;
  private readonly bins: { unshare: string; bwrap: string };
  readonly launcher: "bwrap" | "envelope";

  constructor(private readonly opts: OverlayOptions) {
    if (process.getuid?.() !== 0) throw new Error("the overlay driver needs root (it runs in the sandbox's privileged launcher)");
    if (/[,:\\\s]/.test(opts.trialsRoot))
      throw new Error(`trials directory ${opts.trialsRoot} has characters overlay options cannot carry`);
    this.launcher = chooseLauncher(opts.launcher);
    this.bins = { unshare: which("unshare"), bwrap: this.launcher === "bwrap" ? which("bwrap") : "" };
    if (this.launcher === "bwrap") for (const b of ["setpriv", "prlimit"]) which(b);
    which("tar");
    if (opts.lowerRoot === "/") {
      const host = readHostLayers(opts.masks, [...opts.skip, opts.trialsRoot]);
      this.layers = host.layers;
      this.unmirrored = host.unmirrored;
    } else {
      if (!existsSync(join(opts.lowerRoot, "etc/passwd"))) throw new Error(`${opts.lowerRoot} is not a mirror root (no etc/passwd)`);
      this.layers = [{ lower: opts.lowerRoot, target: "/" }];
      this.unmirrored = [];
    }
    mkdirSync(opts.trialsRoot, { recursive: true, mode: 0o700 });
    if (!isMountPoint(opts.trialsRoot))
      run("mount", ["-t", "tmpfs", "-o", `size=${opts.tmpfsSizeMb}m,mode=0700,nosuid,nodev`, "agent-sudo-trials", opts.trialsRoot]);
    // Leftovers of a launcher that died mid-trial.
    for (const name of readdirSync(opts.trialsRoot)) rmSync(join(opts.trialsRoot, name), { recursive: true, force: true });
    this.usernsFd = this.launcher === "bwrap" ? identityUserns() : undefined;
  }

  describe(): string {
    return `overlay of ${this.layers.map((l) => l.target).join(", ")}; ${this.opts.masks.length} mask patterns; launcher ${this.launcher}`;
  }

  close(): void {
    if (this.usernsFd !== undefined) closeSync(this.usernsFd);
    spawnSync("umount", ["--lazy", this.opts.trialsRoot], { stdio: "ignore" });
  }

  async trial(input: OverlayTrialInput): Promise<OverlayTrialOutput> {
    const started = performance.now();
    const d = join(this.opts.trialsRoot, randomBytes(8).toString("hex"));
    mkdirSync(d, { mode: 0o700 });
    try {
      return await this.runIn(d, input, started);
    } finally {
      rmSync(d, { recursive: true, force: true });
    }
  }

  private setupFailure(message: string, started: number): OverlayTrialOutput {
    const stderr = Buffer.from(`agent-sudo-sandbox: ${message}\n`);
    return {
      exitCode: 127,
      timedOut: false,
      stdout: Buffer.alloc(0),
      stderr,
      stdoutTruncated: false,
      stderrTruncated: false,
      changes: [],
      truncated: false,
      maskWrites: [],
      durationMs: performance.now() - started,
    };
  }

  /** The shared envelope program, through the warm server: mounts, pivot_root, namespaces, capabilities, cwd, then the command. */
  private startEnvelope(
    d: string,
    masks: readonly Mask[],
    input: OverlayTrialInput,
    user: PasswdEntry,
    cwd: string,
    env: Record<string, string>,
    out: Sink,
    err: Sink,
  ): Launched {
    const spec = mirrorSpec({
      root: join(d, "m"),
      layers: this.layers.map((l, i) => ({
        lower: l.lower,
        upper: join(d, `u${i}`),
        work: join(d, `w${i}`),
        target: l.target === "/" ? "" : l.target,
      })),
      maskBinds: masks.map((m, i) => ({ src: join(d, `mask${i}`), dst: m.path })),
      cwd,
      network: input.network === true,
      ...(input.runAs ? { user: { uid: user.uid, gid: user.gid, groups: groupsIn(this.opts.lowerRoot, input.runAs, user.gid) } } : {}),
    });
    const caps = { stdout: this.opts.stdoutCap, stderr: this.opts.stderrCap };
    const run = envelopeServer().run({
      kind: "envelope",
      args: envelopeWords(spec, [this.opts.shell, "-c", input.command]),
      env,
      caps,
      onStdout: out.push,
      onStderr: err.push,
    });
    return {
      done: run.done.then((e) => ({ exitCode: e.code ?? 128 + (e.signal ?? 9), status: e.status })),
      kill: () =>
        void run.pid.then(
          (pid) => {
            try {
              process.kill(-pid, "SIGKILL");
            } catch {
              // gone already
            }
          },
          () => undefined,
        ),
    };
  }

  /** bubblewrap in the identity-mapped user namespace, after a shell mounted the overlays. */
  private startBwrap(
    d: string,
    masks: readonly Mask[],
    input: OverlayTrialInput,
    user: PasswdEntry,
    cwd: string,
    env: Record<string, string>,
    out: Sink,
    err: Sink,
  ): Launched {
    const mountArgs = this.layers.flatMap((l) => [l.lower, l.target === "/" ? "" : l.target]);
    const maskArgs = masks.flatMap((m, i) => ["--bind", join(d, `mask${i}`), m.path]);
    const priv = [
      "--no-new-privs",
      "--inh-caps=-all",
      "--ambient-caps=-all",
      `--bounding-set=-all,${TRIAL_CAPS.map((c) => `+${c}`).join(",")}`,
    ];
    if (input.runAs) priv.push(`--reuid=${user.uid}`, `--regid=${user.gid}`, "--init-groups");
    // The envelope's own seccomp filter (seccomp.ts), which bwrap installs just before it execs setpriv: no keyrings,
    // file handles, ptrace, io_uring, bpf, … and, sharing the sandbox's network namespace, no Unix socket (review 19).
    // Where the envelope has no system-call table (the reason bwrap was chosen by "auto"), bwrap runs without one.
    const arch = envelopeArch();
    const filter = arch ? Buffer.from(envelopeFilter(arch, { sockets: input.network ? "no-unix" : "any" }), "hex") : null;
    const bwrap = [
      this.bins.bwrap,
      ...(filter ? ["--seccomp", "4"] : []),
      "--userns",
      "3",
      "--bind",
      join(d, "m"),
      "/",
      "--dev",
      "/dev",
      "--proc",
      "/proc",
      "--ro-bind",
      "/proc/sys",
      "/proc/sys",
      // What reaches the host's hardware or file systems through /proc (a SCSI disk removed, ACPI wake-up), read-only.
      ...["/proc/sysrq-trigger", "/proc/scsi", "/proc/acpi", "/proc/fs", "/proc/driver", "/proc/mtrr"].flatMap((p) => [
        "--ro-bind-try",
        p,
        p,
      ]),
      "--perms",
      "0755",
      "--tmpfs",
      "/run",
      ...maskArgs,
      "--unshare-pid",
      ...(input.network ? [] : ["--unshare-net"]),
      "--unshare-ipc",
      "--unshare-uts",
      "--unshare-cgroup-try",
      "--die-with-parent",
      "--new-session",
      "--chdir",
      cwd,
      "--",
      "/usr/bin/setpriv",
      ...priv,
      "--",
      // A crash makes no core (a limit of 1 byte, hard: the kernel runs no core_pattern pipe helper, as root outside the mirror).
      "/usr/bin/prlimit",
      "--core=1:1",
      "--",
      this.opts.shell,
      "-c",
      input.command,
    ];
    // The environment goes by execve, never on an argv (secret values would be in /proc/PID/cmdline).
    const child: ChildProcess = spawn(
      this.bins.unshare,
      [
        "--mount",
        "--propagation",
        "private",
        "--",
        "/bin/sh",
        "-c",
        MOUNT_SCRIPT,
        "sh",
        d,
        String(this.layers.length),
        ...mountArgs,
        ...bwrap,
      ],
      {
        env,
        stdio: ["ignore", "pipe", "pipe", this.usernsFd ?? "ignore", filter ? "pipe" : "ignore"],
      },
    );
    // The filter is a few hundred bytes: a pipe's buffer holds it whole, and bwrap reads it to the end.
    const seccompFd = child.stdio[4] as Writable | null;
    if (filter && seccompFd) {
      seccompFd.on("error", () => undefined); // bwrap gone early: its exit is the outcome
      seccompFd.end(filter);
    }
    child.stdout?.on("data", out.push);
    child.stderr?.on("data", err.push);
    const done = new Promise<{ exitCode: number; status: string }>((resolve) => {
      child.once("error", () => resolve({ exitCode: 126, status: "" }));
      child.once("close", (code, signal) => resolve({ exitCode: code ?? (signal ? 128 + 9 : 1), status: "" }));
    });
    return { done, kill: () => child.kill("SIGKILL") };
  }

  private async runIn(d: string, input: OverlayTrialInput, started: number): Promise<OverlayTrialOutput> {
    const root = this.opts.lowerRoot;
    const user = input.runAs ? passwdOf(root, input.runAs) : { uid: 0, gid: 0, home: "/root" };
    // Gaps, in words gaps.ts recognises.
    if (!user) return this.setupFailure(`unknown user '${input.runAs}'`, started);
    const cwd = input.cwd || (existsSync(join(root, user.home)) ? user.home : "/");
    if (!existsSync(join(root, cwd))) return this.setupFailure(`can't cd to ${cwd}: No such file or directory`, started);

    this.layers.forEach((l, i) => {
      // The upper root takes the host root's owner and mode: the mirror's `/` (or /home) is the host's.
      const host = statSync(l.lower);
      mkdirSync(join(d, `u${i}`));
      chownSync(join(d, `u${i}`), host.uid, host.gid);
      chmodSync(join(d, `u${i}`), host.mode & 0o7777);
      mkdirSync(join(d, `w${i}`));
    });
    mkdirSync(join(d, "m"));
    // Expanded for this run, as the executor's envelopes are: a home, a key or a data dir made since the start is covered.
    const masks = expandMasks(this.opts.masks, root);
    masks.forEach((m, i) => {
      const src = join(d, `mask${i}`);
      if (m.dir) mkdirSync(src, { mode: 0o700 });
      else writeFileSync(src, "", { mode: 0o600 });
    });
    const env = {
      ...input.env,
      PATH: SANDBOX_PATH,
      HOME: user.home,
      LC_ALL: "C.UTF-8",
      USER: input.runAs || "root",
      LOGNAME: input.runAs || "root",
      DEBIAN_FRONTEND: "noninteractive",
    };
    // ctime is kept at the kernel's coarse clock (a tick or so behind): a host change in the tick before the start counts as during the run.
    const changedSinceMs = Date.now() - CTIME_SLACK_MS;
    const out = new Sink(this.opts.stdoutCap);
    const err = new Sink(this.opts.stderrCap);
    const child =
      this.launcher === "envelope"
        ? this.startEnvelope(d, masks, input, user, cwd, env, out, err)
        : this.startBwrap(d, masks, input, user, cwd, env, out, err);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill();
    }, input.timeoutS * 1000);
    const { exitCode, status } = await child.done.finally(() => clearTimeout(timer));
    const o = out.result();
    const e = err.result();
    const stderrText = e.data.toString("utf8");
    let setupError: string | undefined;
    if (this.launcher === "envelope") {
      if (!status.startsWith("ok\n"))
        setupError = /^error: (.*)$/m.exec(status)?.[1] ?? `the envelope exited ${exitCode} before the command started`;
    } else if (exitCode === 125 && stderrText.includes("agent-sudo-sandbox: overlay mount")) setupError = stderrText.trim();
    else if (/^bwrap: /m.test(stderrText) && exitCode === 1) setupError = stderrText.trim();

    const uppers = this.layers.map((l, i) => ({ target: l.target, lower: l.lower, upper: join(d, `u${i}`) }));
    // A warm server reads xattrs in-process, whichever launcher ran the command.
    const readXattrs = envelopeArch() ? warmXattrReader(xattrServer()) : undefined;
    const built = input.manifest
      ? await buildManifest(uppers, {
          ...input.manifest,
          commandDigest: Buffer.from(input.manifest.commandDigest),
          maxPaths: this.opts.maxPaths,
          changedSinceMs,
          ...(readXattrs ? { readXattrs } : {}),
        })
      : undefined;
    const diff = built ? { changes: built.manifest.changes.map(asChange), truncated: false } : diffLayers(uppers, this.opts.maxPaths);
    const maskWrites = masks
      .filter((m, i) => {
        const src = join(d, `mask${i}`);
        return m.dir ? readdirSync(src).length > 0 : statSync(src).size > 0;
      })
      .map((m) => m.path);
    return {
      exitCode,
      timedOut,
      stdout: o.data,
      stderr: e.data,
      stdoutTruncated: o.truncated,
      stderrTruncated: e.truncated,
      changes: diff.changes,
      truncated: diff.truncated,
      maskWrites,
      ...(setupError ? { setupError } : {}),
      ...(built ? { built: { encoded: built.encoded, blobs: built.blobs, problems: built.problems, conflicts: built.conflicts } } : {}),
      durationMs: performance.now() - started,
    };
  }
}
