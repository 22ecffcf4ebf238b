// The envelope a command runs in (ARCHITECTURE "Envelopes"): the kernel, not
// the classifier, keeps the host safe. Three kinds, all in a private mount
// namespace where agent-sudo's own state and the configured secret paths are
// empty and read-only, with a fresh minimal /dev (no disks):
//   read-only (tier 0) — every mount read-only; /tmp and /var/tmp overlays
//     whose writes vanish; an empty /run; no socket at all (seccomp: no
//     network, no host daemon's socket — so no network namespace is needed;
//     a rule flagged `network` gets inet sockets and still no Unix one); own
//     pid, ipc and uts namespaces; only CAP_DAC_OVERRIDE; Landlock refuses
//     writes but in the scratch places and /dev (a host FIFO).
//   live (tier 3 live actions, package runs) — the host's tree and processes,
//     but no CAP_SYS_ADMIN, CAP_SYS_PTRACE, CAP_SYS_RAWIO, CAP_MKNOD,
//     CAP_SYS_MODULE … (the masks cannot be unmounted, no raw disk, no
//     other process's memory or root).
//   mirror (tiers 1–2) — the sandbox's copy-on-write overlays of the host as
//     `/` (pivot_root), own pid, net, ipc and uts namespaces (a rule flagged
//     `network`: the sandbox's network, and then no Unix socket), a
//     file-owner's capabilities only; what it writes lands in the upper layers.
// Every kind also gets the seccomp filter of seccomp.ts (file handles,
// keyrings, ptrace, io_uring, bpf, new user namespaces …).
// This module turns a spec into the argv of the envelope program
// (program.ts); it decides nothing about tiers.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { ENVELOPE_PROGRAM } from "./program.js";
import { envelopeFilter } from "./seccomp.js";

export type Namespace = "pid" | "net" | "ipc" | "uts";

/** Linux capability numbers (include/uapi/linux/capability.h). */
export const CAP = {
  CHOWN: 0,
  DAC_OVERRIDE: 1,
  DAC_READ_SEARCH: 2,
  FOWNER: 3,
  FSETID: 4,
  KILL: 5,
  SETGID: 6,
  SETUID: 7,
  SETPCAP: 8,
  NET_BIND_SERVICE: 10,
  NET_BROADCAST: 11,
  NET_ADMIN: 12,
  NET_RAW: 13,
  IPC_LOCK: 14,
  IPC_OWNER: 15,
  SYS_CHROOT: 18,
  SYS_NICE: 23,
  SYS_RESOURCE: 24,
  LEASE: 28,
  AUDIT_WRITE: 29,
  SETFCAP: 31,
} as const;

/**
 * Tier 0: read anything (the mounts refuse every write), nothing else.
 * DAC_OVERRIDE, not DAC_READ_SEARCH: the latter also allows
 * open_by_handle_at, which opens an inode by number past any mask.
 */
export const READ_ONLY_CAPS: readonly number[] = [CAP.DAC_OVERRIDE];

/**
 * Live actions: what restarts, reloads, signals, network and file ownership
 * need. Left out on purpose: DAC_READ_SEARCH (open_by_handle_at past the
 * masks; DAC_OVERRIDE reads anyway), SYS_ADMIN (mounts: the masks would come off),
 * SYS_PTRACE (other processes' memory and /proc/PID/root), SYS_RAWIO and
 * MKNOD (raw disks), SYS_MODULE, SYS_BOOT, SYS_TIME, LINUX_IMMUTABLE (chattr
 * +i would block a rollback), MAC_*, BPF, PERFMON, SYSLOG, AUDIT_CONTROL,
 * SETFCAP, CHECKPOINT_RESTORE.
 */
export const LIVE_CAPS: readonly number[] = [
  CAP.CHOWN,
  CAP.DAC_OVERRIDE,
  CAP.FOWNER,
  CAP.FSETID,
  CAP.KILL,
  CAP.SETGID,
  CAP.SETUID,
  CAP.SETPCAP,
  CAP.NET_BIND_SERVICE,
  CAP.NET_BROADCAST,
  CAP.NET_ADMIN,
  CAP.NET_RAW,
  CAP.IPC_LOCK,
  CAP.IPC_OWNER,
  CAP.SYS_CHROOT,
  CAP.SYS_NICE,
  CAP.SYS_RESOURCE,
  CAP.LEASE,
  CAP.AUDIT_WRITE,
];

/** Tiers 1–2 in the mirror: enough for package, file and account changes; nothing that reaches past the mirror. */
export const MIRROR_CAPS: readonly number[] = [
  CAP.CHOWN,
  CAP.DAC_OVERRIDE,
  CAP.FOWNER,
  CAP.FSETID,
  CAP.KILL,
  CAP.SETGID,
  CAP.SETUID,
  CAP.SETPCAP,
  CAP.SETFCAP,
  CAP.NET_BIND_SERVICE,
  CAP.SYS_CHROOT,
  CAP.AUDIT_WRITE,
];

export interface EnvelopeUser {
  uid: number;
  gid: number;
  groups: readonly number[];
}

export interface MirrorLayer {
  lower: string;
  upper: string;
  work: string;
  /** Where it appears in the mirror: "" for `/`, else "/home" … */
  target: string;
}

export interface EnvelopeSpec {
  kind: "read-only" | "live" | "mirror";
  namespaces: readonly Namespace[];
  caps: readonly number[];
  /** Absolute paths shown empty and read-only (already expanded; a symlink is never followed). */
  masks: readonly string[];
  /** Mirror only: masks bound from a source in the trial dir (so a write into one can be seen). */
  maskBinds?: readonly { src: string; dst: string }[];
  /** Private scratch directories. */
  scratch?: readonly { how: "tmpfs" | "overlay"; path: string }[];
  mirror?: { root: string; layers: readonly MirrorLayer[] };
  /** Absolute, symlink-free; walked with O_NOFOLLOW. "" keeps the spawn's cwd. */
  cwd: string;
  user?: EnvelopeUser;
  /** Read-only: the classifier granted this command the network (inet sockets; never Unix ones). */
  network?: boolean;
}

export const PERL = "/usr/bin/perl";

/** "ok" when this process can build envelopes here, else why not. */
export function envelopeReadiness(): string {
  if (process.platform !== "linux") return "not Linux";
  if (!envelopeArch()) return `no system-call table for ${process.arch}`;
  if (process.getuid?.() !== 0) return "not root";
  if (!existsSync(PERL)) return `${PERL} is missing (perl-base)`;
  return "ok";
}

/**
 * The kernel's Landlock ABI version (≥ 1), or why there is none. Tier 0 needs
 * it to refuse opening a host FIFO for writing (program.ts landlock_writes);
 * without it that one hole stays open and the executor reports it. One
 * `perl -e` at the executor's start.
 */
export function landlockAbi(): number | string {
  if (envelopeReadiness() !== "ok") return envelopeReadiness();
  const r = spawnSync(PERL, ["-e", 'my $v = syscall(444, 0, 0, 1); print $v < 0 ? "error: $!" : $v'], {
    encoding: "utf8",
    timeout: 10_000,
  });
  const out = r.stdout?.trim() ?? "";
  return /^\d+$/.test(out) ? Number(out) : out.replace(/^error: /, "") || `perl: ${r.error?.message ?? `status ${r.status}`}`;
}

export function envelopeArch(arch: string = process.arch): "x64" | "arm64" | undefined {
  return arch === "x64" || arch === "arm64" ? arch : undefined;
}

/** A value the program could misread (NUL, or a newline where it separates fields) is refused here. */
function word(key: string, value: string): string {
  if (value.includes("\0")) throw new Error(`envelope ${key}: NUL byte`);
  return `${key}=${value}`;
}

function singleLine(key: string, value: string): string {
  if (value.includes("\n")) throw new Error(`envelope ${key}: newline in ${JSON.stringify(value)}`);
  return word(key, value);
}

/** `perl -e PROGRAM spec… -- program…`: what to spawn, with fd 3 a pipe for the setup outcome. */
export function envelopeArgv(spec: EnvelopeSpec, program: readonly string[]): { file: string; args: string[] } {
  return { file: PERL, args: ["-e", ENVELOPE_PROGRAM, ...envelopeWords(spec, program)] };
}

/** The spec's words, `--`, then the program: the one-shot argv's tail, and a warm server's request (server.ts). */
export function envelopeWords(spec: EnvelopeSpec, program: readonly string[]): string[] {
  const arch = envelopeArch();
  if (!arch) throw new Error(`the envelope has no system-call table for ${process.arch}`);
  const words = [`arch=${arch}`, `mode=${spec.kind}`];
  if (spec.namespaces.length > 0) words.push(`ns=${spec.namespaces.join(",")}`);
  if (spec.kind === "read-only") words.push("ro=1");
  words.push(`caps=${spec.caps.join(",")}`);
  if (spec.mirror) {
    words.push(singleLine("root", spec.mirror.root));
    for (const l of spec.mirror.layers) {
      for (const p of [l.lower, l.upper, l.work, l.target])
        if (/[\n,:\\]/.test(p)) throw new Error(`envelope layer: ${JSON.stringify(p)} cannot be an overlay option`);
      words.push(word("layer", [l.lower, l.upper, l.work, l.target].join("\n")));
    }
  }
  for (const s of spec.scratch ?? []) words.push(singleLine("tmp", `${s.how}:${s.path}`));
  for (const m of spec.masks) words.push(singleLine("mask", m));
  for (const b of spec.maskBinds ?? []) {
    if (b.src.includes("\n") || b.dst.includes("\n")) throw new Error("envelope mask: newline in a path");
    words.push(word("mask", `${b.src}\n${b.dst}`));
  }
  if (spec.cwd) words.push(singleLine("cwd", spec.cwd));
  if (spec.user) words.push(`uid=${spec.user.uid}`, `gid=${spec.user.gid}`, `groups=${spec.user.groups.join(",")}`);
  // Tier 0 opens no socket (no network); with network, no Unix socket (a read-only mount does not stop connect() on a daemon's socket file).
  // A mirror run with the network shares the sandbox's network namespace, and with it every host daemon's abstract
  // Unix socket: no Unix socket there either (review 19). Live runs talk to host daemons by design.
  const sockets =
    spec.kind === "read-only"
      ? spec.network
        ? "no-unix"
        : "none"
      : spec.kind === "mirror" && !spec.namespaces.includes("net")
        ? "no-unix"
        : "any";
  words.push(`seccomp=${envelopeFilter(arch, { sockets })}`);
  for (const p of program) if (p.includes("\0")) throw new Error("envelope: NUL byte in the program's arguments");
  return [...words, "--", ...program];
}

/** Tier 0. */
export function readOnlySpec(o: { masks: readonly string[]; cwd: string; user?: EnvelopeUser; network: boolean }): EnvelopeSpec {
  return {
    kind: "read-only",
    namespaces: ["pid", "ipc", "uts"],
    network: o.network,
    caps: READ_ONLY_CAPS,
    masks: o.masks,
    scratch: [
      { how: "overlay", path: "/tmp" },
      { how: "overlay", path: "/var/tmp" },
      { how: "tmpfs", path: "/run" },
    ],
    cwd: o.cwd,
    ...(o.user ? { user: o.user } : {}),
  };
}

/** Tier-3 live actions and package runs: the host's tree and processes, state masked, no mount or ptrace power. */
export function liveSpec(o: { masks: readonly string[]; cwd: string; user?: EnvelopeUser }): EnvelopeSpec {
  return { kind: "live", namespaces: [], caps: LIVE_CAPS, masks: o.masks, cwd: o.cwd, ...(o.user ? { user: o.user } : {}) };
}

/** Tiers 1–2: the copy-on-write mirror. */
export function mirrorSpec(o: {
  root: string;
  layers: readonly MirrorLayer[];
  maskBinds: readonly { src: string; dst: string }[];
  cwd: string;
  user?: EnvelopeUser;
  network: boolean;
}): EnvelopeSpec {
  return {
    kind: "mirror",
    namespaces: o.network ? ["pid", "ipc", "uts"] : ["pid", "net", "ipc", "uts"],
    caps: MIRROR_CAPS,
    masks: [],
    maskBinds: o.maskBinds,
    scratch: [{ how: "tmpfs", path: "/run" }],
    mirror: { root: o.root, layers: o.layers },
    cwd: o.cwd,
    ...(o.user ? { user: o.user } : {}),
  };
}
