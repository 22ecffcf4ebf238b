// The proposals store: `proposals.pending.json` beside the policy files, or
// in config's proposals_dir (installed hosts: state/proposals, owned by the
// rules-learn unit's user; the policies stay root's). Every function takes
// the directory that holds the store.
//
// Services (the sandbox loop) and the CLI (`rules learn`) append proposed
// rules here with their evidence; only a person's `agent-sudo rules activate`
// moves one into SUDO.md or CLAUDE_CMDS.md (and re-signs), and `rules reject`
// remembers a shape so it is never proposed again. This module never writes a
// policy file: it writes exactly one file, PENDING_FILE, atomically (temp
// file, fsync, rename, fsync of the directory) under a lock file, so a
// service and the CLI can append at the same time without losing either.
//
// Trust: the file is unsigned and writable by services, so nothing in it is
// trusted: every pattern is re-checked (checkShape) when it is proposed and
// again when it is activated, and activation shows the person the rule, its
// impact and the diff. A proposal never decides anything — the classifier
// does not read this file at all. Identity: a proposal's id is a hash of its
// policy and pattern, so the same shape is one proposal however often it is
// proposed; its evidence is merged (sandbox trials add up, `rules learn`
// recounts from the audit so its larger count stands). A rejected or
// activated shape stays in the file (`rejected`, `activated`) and is refused
// when proposed again.
import { createHash, randomBytes } from "node:crypto";
import {
  closeSync,
  existsSync,
  fchmodSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";
import { z } from "zod";

export const PENDING_FILE = "proposals.pending.json";
/** Evidence keeps this many audit request ids (the newest). */
export const MAX_REQUEST_IDS = 20;
/** A runaway proposer cannot grow the file without bound. */
export const MAX_PENDING = 1000;
const MAX_FILE_BYTES = 8 * 1024 * 1024;
const LOCK_WAIT_MS = 5_000;
const LOCK_STALE_MS = 30_000;

export class ProposalError extends Error {
  override readonly name = "ProposalError";
}

const TrialSummary = z
  .object({
    request_id: z.string().max(128).nullable(),
    ok: z.boolean(),
    exit_code: z.number().int().nullable(),
    touched_paths: z.array(z.string().max(4096)).max(200),
    findings: z.array(z.string().max(2000)).max(50),
    gaps: z.array(z.string().max(2000)).max(50),
  })
  .strict();

const Evidence = z
  .object({
    clean_runs: z.number().int().min(0),
    unclean_runs: z.number().int().min(0).default(0),
    request_ids: z.array(z.string().min(1).max(128)).max(MAX_REQUEST_IDS),
    hosts: z.array(z.string().max(255)).max(16).default([]),
    tiers_seen: z.array(z.number().int().min(0).max(4)).max(5).default([]),
    trial: TrialSummary.nullable().default(null),
  })
  .strict();

const Id = z.string().regex(/^p-[0-9a-f]{12}$/);
const Policy = z.enum(["sudo", "claude"]);
const Pattern = z.string().min(1).max(1024);

const ProposalSchema = z
  .object({
    id: Id,
    source: z.enum(["learned", "sandbox"]),
    policy: Policy,
    pattern: Pattern,
    /** The normalised command the pattern was made from. */
    example: z.string().max(4096),
    /** One audited command as it was sent, and its working directory (activation re-classifies it). */
    command: z.string().max(65536),
    cwd: z.string().max(4096),
    suggested_tier: z.number().int().min(0).max(3),
    evidence: Evidence,
    created_at: z.string(),
    updated_at: z.string(),
  })
  .strict();

const Closed = { id: Id, policy: Policy, pattern: Pattern, by: z.string().min(1).max(255), at: z.string() };
const RejectionSchema = z.object({ ...Closed, reason: z.string().min(1).max(2000) }).strict();
const ActivationSchema = z
  .object({ ...Closed, rule_id: z.string().max(128), file: z.string().max(64), tier: z.number().int().min(0).max(4) })
  .strict();

const PendingSchema = z
  .object({
    version: z.literal(1),
    proposals: z.array(ProposalSchema),
    rejected: z.array(RejectionSchema),
    activated: z.array(ActivationSchema),
  })
  .strict();

export type Proposal = z.infer<typeof ProposalSchema>;
export type Rejection = z.infer<typeof RejectionSchema>;
export type Activation = z.infer<typeof ActivationSchema>;
export type PendingFile = z.infer<typeof PendingSchema>;
export type TrialSummary = z.infer<typeof TrialSummary>;
export type EvidenceInput = z.input<typeof Evidence>;

export interface ProposalInput {
  source: Proposal["source"];
  policy: Proposal["policy"];
  pattern: string;
  example: string;
  command: string;
  cwd: string;
  suggested_tier: number;
  evidence: EvidenceInput;
}

export type ProposeResult =
  | { status: "added" | "updated"; proposal: Proposal }
  | { status: "rejected"; rejection: Rejection }
  | { status: "activated"; activation: Activation };

/** The same policy and pattern always give the same id. */
export function proposalId(policy: Proposal["policy"], pattern: string): string {
  return `p-${createHash("sha256").update(`${policy}\0${pattern}`).digest("hex").slice(0, 12)}`;
}

export function pendingPath(policiesDir: string): string {
  return join(policiesDir, PENDING_FILE);
}

const empty = (): PendingFile => ({ version: 1, proposals: [], rejected: [], activated: [] });

/** The store's contents; a missing file is empty, a malformed one is an error naming it. */
export function readPending(policiesDir: string): PendingFile {
  const path = pendingPath(policiesDir);
  if (!existsSync(path)) return empty();
  if (statSync(path).size > MAX_FILE_BYTES) throw new ProposalError(`${path} is over ${MAX_FILE_BYTES} bytes`);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch (err) {
    throw new ProposalError(`${path}: not valid JSON (${(err as Error).message})`);
  }
  const parsed = PendingSchema.safeParse(raw);
  if (!parsed.success)
    throw new ProposalError(`${path}: ${parsed.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ")}`);
  return parsed.data;
}

function fsyncDir(dir: string): void {
  const fd = openSync(dir, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function writePending(path: string, file: PendingFile): void {
  if (basename(path) !== PENDING_FILE)
    throw new ProposalError(`refusing to write ${path}: the proposals store writes only ${PENDING_FILE}`);
  const tmp = `${path}.tmp-${process.pid}-${randomBytes(4).toString("hex")}`;
  const fd = openSync(tmp, "w", 0o644);
  try {
    // 0644 whatever the writer's umask: root's `rules reject`/`activate` and the
    // learner's user (systemd UMask=0077) replace each other's file.
    fchmodSync(fd, 0o644);
    writeSync(fd, `${JSON.stringify(PendingSchema.parse(file), null, 2)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
  fsyncDir(dirname(path));
}

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function takeLock(lock: string): void {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      closeSync(openSync(lock, "wx", 0o644));
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
    try {
      if (Date.now() - statSync(lock).mtimeMs > LOCK_STALE_MS) rmSync(lock, { force: true });
    } catch {
      // gone already: try again
    }
    if (Date.now() > deadline) throw new ProposalError(`${lock} is held by another writer (waited ${LOCK_WAIT_MS} ms)`);
    sleep(20);
  }
}

/** Read, change and write the store under its lock. `change` returns what to hand back, and whether to write. */
export function updatePending<T>(policiesDir: string, change: (file: PendingFile) => { result: T; write: boolean }): T {
  const path = pendingPath(policiesDir);
  const lock = `${path}.lock`;
  // The default store (state/proposals) may not exist yet where no `agent-sudo start` or install made it.
  mkdirSync(policiesDir, { recursive: true, mode: 0o755 });
  takeLock(lock);
  try {
    const file = readPending(policiesDir);
    const { result, write } = change(file);
    if (write) writePending(path, file);
    return result;
  } finally {
    rmSync(lock, { force: true });
  }
}

function union<T>(newer: readonly T[], older: readonly T[], max: number): T[] {
  return [...new Set([...newer, ...older])].slice(0, max);
}

/**
 * Append a proposal, or merge its evidence into the same shape's; refuses a
 * rejected or activated shape. The pattern's shape is NOT checked here: call
 * the classifier's `propose` (services/classifier/propose.ts), which checks it
 * with the classifier's own parser first.
 */
export function storeProposal(policiesDir: string, input: ProposalInput, now: Date = new Date()): ProposeResult {
  const evidence = Evidence.parse(input.evidence);
  const id = proposalId(input.policy, input.pattern);
  return updatePending<ProposeResult>(policiesDir, (file) => {
    const rejection = file.rejected.find((r) => r.id === id);
    if (rejection) return { result: { status: "rejected", rejection }, write: false };
    const activation = file.activated.find((a) => a.id === id);
    if (activation) return { result: { status: "activated", activation }, write: false };
    const at = now.toISOString();
    const existing = file.proposals.find((p) => p.id === id);
    if (existing) {
      const old = existing.evidence;
      existing.evidence = {
        // A sandbox call reports its own trial; `rules learn` reports totals recounted from the audit.
        clean_runs: input.source === "sandbox" ? old.clean_runs + evidence.clean_runs : Math.max(old.clean_runs, evidence.clean_runs),
        unclean_runs: Math.max(old.unclean_runs, evidence.unclean_runs),
        request_ids: union(evidence.request_ids, old.request_ids, MAX_REQUEST_IDS),
        hosts: union(evidence.hosts, old.hosts, 16),
        tiers_seen: union(evidence.tiers_seen, old.tiers_seen, 5).sort(),
        trial: evidence.trial ?? old.trial,
      };
      // A suggestion is never lowered by later evidence.
      existing.suggested_tier = Math.max(existing.suggested_tier, input.suggested_tier);
      existing.updated_at = at;
      return { result: { status: "updated", proposal: existing }, write: true };
    }
    if (file.proposals.length >= MAX_PENDING) throw new ProposalError(`${MAX_PENDING} proposals are already pending: review some first`);
    const proposal = ProposalSchema.parse({ id, ...input, evidence, created_at: at, updated_at: at });
    file.proposals.push(proposal);
    return { result: { status: "added", proposal }, write: true };
  });
}

export function findProposal(policiesDir: string, id: string): Proposal {
  const p = readPending(policiesDir).proposals.find((x) => x.id === id);
  if (!p) throw new ProposalError(`no pending proposal ${id} in ${pendingPath(policiesDir)}`);
  return p;
}

function closeProposal(file: PendingFile, id: string): Proposal {
  const i = file.proposals.findIndex((p) => p.id === id);
  if (i < 0) throw new ProposalError(`no pending proposal ${id}`);
  return file.proposals.splice(i, 1)[0] as Proposal;
}

/** A person's "no": the shape leaves the queue and is never proposed again. */
export function rejectProposal(policiesDir: string, id: string, how: { reason: string; by: string }, now: Date = new Date()): Rejection {
  return updatePending(policiesDir, (file) => {
    const p = closeProposal(file, id);
    const rejection = RejectionSchema.parse({
      id,
      policy: p.policy,
      pattern: p.pattern,
      by: how.by,
      at: now.toISOString(),
      reason: how.reason,
    });
    file.rejected.push(rejection);
    return { result: rejection, write: true };
  });
}

/** Record that `rules activate` moved the proposal into a policy file (called after the signed files are in place). */
export function markActivated(
  policiesDir: string,
  id: string,
  how: { ruleId: string; file: string; tier: number; by: string },
  now: Date = new Date(),
): Activation {
  return updatePending(policiesDir, (file) => {
    const p = closeProposal(file, id);
    const activation = ActivationSchema.parse({
      id,
      policy: p.policy,
      pattern: p.pattern,
      by: how.by,
      at: now.toISOString(),
      rule_id: how.ruleId,
      file: how.file,
      tier: how.tier,
    });
    file.activated.push(activation);
    return { result: activation, write: true };
  });
}
