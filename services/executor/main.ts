// agent-sudo executor — SECURITY: the only process that runs as root, and the
// last line of defence. It trusts nothing the gateway says: it acts only on a
// valid quorum of signed attestations for exactly the request in hand (the
// command digest derived here with the /exec policy source), pinned to the
// signers' public keys, fresh and never seen before, and only when its own
// built-in veto does not object. It serves a closed table on a 0600 socket
// owned by the gateway's user; it has no network (systemd
// PrivateNetwork=yes). Every RPC and what it requires:
//   Execute   tier 0 (classifier) in the read-only envelope; tier-3 live
//             actions (the classifier's live_action + concurrence + lease)
//             and tier-2 package runs (classifier's package_run + lease +
//             sandbox trial) in the live envelope — state masked, no mount
//             or ptrace power.
//   Commit    tiers 1–3 but live actions: the diff of a run in the
//             sandbox's mirror, with the classifier, a lease for the
//             final tier, the sandbox's run
//             report and both effect verdicts over one manifest digest;
//             the host must still match every `before` (else CONFLICT).
//   Rollback  a grant over the undo id, signed by a person
//             (keys/operator.key), or by the breaker (a failed tier-3
//             verify) for a recent live action's own record only.
//   Resolve   the canonical form of a directory (the gateway binds it as
//             cwd), walked only as far as the gateway's user could walk it.
//   Health    liveness and load.
// On any doubt it refuses; on losing its replay memory it does not start; a
// commit a crash interrupted is rolled back from its undo record at start; a
// second executor on the same state dir exits before touching anything.
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { z } from "zod";
import {
  ExecutorServiceService,
  type CommitRequest,
  type CommitResponse,
  type ExecuteRequest,
  type ResolveRequest,
  type RollbackRequest,
} from "../../proto/gen/agent_sudo/v1/executor_pb.js";
import { Manifest } from "../../proto/gen/agent_sudo/v1/manifest_pb.js";
import { bindingOf, commandDigest, manifestDigest } from "../shared/attestation.js";
import { redactCredentials } from "../shared/credentials.js";
import { type Config, loadConfig } from "../shared/config.js";
import { CodedError } from "../shared/errors.js";
import { loadPublicKey, SIGNER_ROLES, SIGNERS } from "../shared/keys.js";
import type { Logger } from "../shared/log.js";
import { isRoot, lookupUser } from "../shared/privilege.js";
import { command, cwd, envNames, host, requestId, runAs } from "../shared/shapes.js";
import { type CallContext, healthRpc, runService } from "../shared/skeleton.js";
import { MAX_ENV_SECRETS, MAX_ENV_VALUE_BYTES } from "../shared/env-names.js";
import { CommandCgroups } from "./cgroup.js";
import { applyManifest, checkManifest, checkMasks } from "./commit.js";
import { hostMasks } from "../shared/envelope/masks.js";
import { execute, precheck, takeSnapshot, type ExecutorState } from "./execute.js";
import { resolveAs, type Viewer } from "./resolve.js";
import { openJournal, sha256, unfinishedCommits } from "./journal.js";
import { ExecutionGate } from "./limit.js";
import { recentNonces, ReplayMemory } from "./replay.js";
import { UndoStore } from "./undo.js";
import { checkCommit, checkGrant, type PinnedKey } from "./verify.js";
import { envelopeReadiness, landlockAbi } from "../shared/envelope/spec.js";
import { EnvelopeServer } from "../shared/envelope/server.js";
import { takePidLock } from "../shared/pid-lock.js";

/** What Execute and Commit both carry: the binding and its signed decisions. */
const bound = {
  requestId,
  command,
  cwd,
  host,
  runAs,
  attestations: z
    .array(
      z.object({
        signer: z.string().max(32),
        decision: z.instanceof(Uint8Array).refine((d) => d.length <= 1024),
        signature: z.instanceof(Uint8Array),
      }),
    )
    .max(8),
};

const ExecuteShape = z.object({
  ...bound,
  timeoutS: z.number().int().min(1).max(3600),
  undoPaths: z.array(z.string().min(1).max(4096)).max(4096),
  // Secret variables: names re-judged, values capped; never journaled or logged.
  env: z.record(
    z.string(),
    z
      .string()
      .max(MAX_ENV_VALUE_BYTES)
      .refine((v) => !v.includes("\0")),
  ),
});

const MAX_COMMIT_BYTES = 64 * 1024 * 1024;
const CommitShape = z.object({
  ...bound,
  envNames,
  manifest: z.instanceof(Uint8Array).refine((m) => m.length <= 8 * 1024 * 1024),
  blobs: z
    .record(z.string().regex(/^[0-9a-f]{64}$/), z.instanceof(Uint8Array))
    .refine((b) => Object.values(b).reduce((n, v) => n + v.length, 0) <= MAX_COMMIT_BYTES, "blobs over 64 MiB"),
});

const RollbackShape = z.object({ requestId, undoId: z.string().regex(/^[0-9a-f-]{36}$/), grant: z.unknown() });
const ResolveShape = z.object({
  path: z
    .string()
    .min(1)
    .max(4096)
    .startsWith("/")
    .refine((p) => !p.includes("\0")),
});

/** Resolve answers within what the socket's one caller, the gateway's user, could see itself. */
function gatewayView(config: Config): Viewer {
  if (!isRoot()) return { uid: process.getuid?.() ?? -1, gid: process.getgid?.() ?? -1 };
  const gw = lookupUser(config.users.gateway);
  if (!gw) throw new Error(`user ${config.users.gateway} does not exist`);
  return { uid: gw.uid, gid: gw.gid };
}

function prepare(config: Config, log: Logger): ExecutorState {
  const pinned = new Map<string, PinnedKey>();
  for (const signer of SIGNERS) pinned.set(signer, { roles: SIGNER_ROLES[signer], key: loadPublicKey(config.keysDir, signer) });
  const dir = join(config.stateDir, "executor");
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const journalPath = join(dir, "journal.log");
  const replay = new ReplayMemory(recentNonces(journalPath));
  setInterval(() => replay.prune(), 600_000).unref();
  const undo = new UndoStore(join(dir, "undo"));
  const journal = openJournal(journalPath);
  // A commit a crash cut short: put back what it had begun to write.
  for (const c of unfinishedCommits(journalPath)) {
    let result: object;
    let failed: string | undefined;
    try {
      result = undo.has(c.undoId) ? undo.rollback(c.undoId) : { note: "no undo record left" };
    } catch (err) {
      // Not a reason to stay down (every restart would hit it again): recorded, loudly, for a person.
      failed = (err as Error).message;
      result = { failed };
    }
    journal.append({ event: "commit-recovered", request_id: c.requestId, undo_id: c.undoId, ...result });
    if (failed === undefined) log.warn({ request_id: c.requestId, undo_id: c.undoId, result }, "interrupted commit rolled back");
    else
      log.error(
        { request_id: c.requestId, undo_id: c.undoId, err: failed },
        "an interrupted commit could NOT be rolled back: a person must inspect these paths (agent-sudo audit verify-journal; the undo record)",
      );
  }
  journal.append({ event: "executor-start", pid: process.pid });
  undo.prune();
  setInterval(() => undo.prune(), 3600_000).unref();
  const cgroups = isRoot() ? CommandCgroups.detect() : undefined;
  if (!cgroups) log.warn("no writable cgroup v2 with cgroup.kill: commands are contained by process group only (a setsid escapes)");
  process.once("exit", () => cgroups?.close());
  const envelope = envelopeReadiness();
  if (envelope !== "ok") log.error({ envelope }, "no envelope can be built here: every command will be refused (ENVELOPE_FAILED)");
  const landlock = envelope === "ok" ? landlockAbi() : envelope;
  if (typeof landlock !== "number") log.warn({ landlock }, "no Landlock: a tier-0 command can open a host FIFO for writing");
  // Crash, don't limp: the commands in flight when the server is lost have an unknown outcome.
  const server =
    envelope === "ok"
      ? EnvelopeServer.start((why) => {
          log.fatal({ why }, "the envelope server is gone: exiting");
          process.exit(70);
        })
      : undefined;
  process.once("exit", () => server?.close());
  return {
    pinned,
    replay,
    gate: new ExecutionGate(config.executor.max_concurrent, config.executor.queue),
    undo,
    journal,
    cgroups,
    envelope,
    landlock,
    server,
  };
}

/**
 * Every refusal goes into the journal too, then propagates. Nothing ran, so its
 * line is fsynced with the next entry or within 200 ms: a flood of unsigned
 * requests cannot hold the executor's only thread in fsync.
 */
async function journaled<T>(state: ExecutorState, req: { requestId: string; command?: string }, act: () => Promise<T>): Promise<T> {
  try {
    return await act();
  } catch (err) {
    if (err instanceof CodedError && err.code !== "BUSY")
      state.journal.appendSoon({
        event: "refused",
        request_id: req.requestId,
        code: err.code,
        ...(req.command ? { command_sha256: sha256(req.command) } : {}),
      });
    throw err;
  }
}

async function commit(req: CommitRequest, state: ExecutorState, config: Config, log: Logger): Promise<CommitResponse> {
  const digest = manifestDigest(req.manifest);
  // The quorum first: nothing of an unsigned request is looked at (the veto's patterns run, the manifest is decoded, hashed, its directories listed as root).
  const { tier, nonces } = checkCommit(req, digest, state.pinned, state.replay);
  precheck(req, config);
  let manifest: Manifest;
  try {
    manifest = Manifest.decode(req.manifest);
  } catch {
    throw new CodedError("BAD_REQUEST", "manifest undecodable");
  }
  const binding = bindingOf(req, "sudo");
  if (
    manifest.requestId !== req.requestId ||
    !Buffer.from(manifest.commandDigest).equals(commandDigest(binding)) ||
    manifest.host !== req.host
  ) {
    throw new CodedError("ATTESTATION_MISMATCH", "the manifest is another request's");
  }
  const blobs = new Map(Object.entries(req.blobs));
  checkManifest(manifest, blobs);
  checkMasks(manifest, hostMasks({ home: config.home, stateDirs: config.envelope.state_dirs, secrets: config.envelope.masks }));
  const release = await state.gate.acquire();
  try {
    const snapshot = tier === 3 ? await takeSnapshot(config, req.requestId, log) : "";
    // Where a commit's time goes (each stage ends in its fsyncs): the undo record, commit-begin, the writes, commit-end.
    const stages: Record<string, number> = {};
    let t = performance.now();
    const stage = (name: string) => {
      const now = performance.now();
      stages[name] = Math.round((now - t) * 100) / 100;
      t = now;
    };
    const undoId = state.undo.captureManifest(req.requestId, manifest);
    stage("undo");
    // fsynced before the first write: a crash from here on is rolled back at the next start.
    state.journal.append({
      event: "commit-begin",
      request_id: req.requestId,
      tier,
      command: redactCredentials(req.command),
      cwd: req.cwd,
      run_as: req.runAs,
      signers: req.attestations.map((a) => a.signer),
      undo_id: undoId,
      manifest_sha256: digest.toString("hex"),
      paths: manifest.changes.length,
      snapshot,
      nonces,
    });
    stage("begin");
    let applied: number;
    try {
      applied = applyManifest(manifest, blobs);
    } catch (err) {
      let back: object;
      try {
        back = state.undo.rollback(undoId);
      } catch (again) {
        back = { rollback_failed: (again as Error).message };
      }
      state.journal.append({ event: "commit-failed", request_id: req.requestId, undo_id: undoId, reason: (err as Error).message, ...back });
      log.error({ err: (err as Error).message, undo_id: undoId, rollback: back }, "commit failed part-way: rolled back");
      throw err;
    }
    stage("apply");
    state.journal.append({ event: "commit-end", request_id: req.requestId, undo_id: undoId, applied });
    stage("end");
    log.info({ tier, undo_id: undoId, applied, stages_ms: stages }, "committed");
    return { undoId, applied, snapshot };
  } finally {
    release();
  }
}

// One executor per journal: `<journal>.lock` (shared/pid-lock.ts: the
// holder's pid and process stamp; a holder gone or replaced is stale and
// taken over), taken before anything is touched (the socket is bound and the
// journal opened only after): a second executor on this state dir exits 1
// naming the holder (deployments without the supervisor's lock).
const journalFile = join(loadConfig().stateDir, "executor", "journal.log");
const viewer = gatewayView(loadConfig());
const lockFile = `${journalFile}.lock`;
mkdirSync(dirname(journalFile), { recursive: true, mode: 0o700 });
const inUse = (pid: number) =>
  new Error(
    pid === 0
      ? `journal ${journalFile}: could not take ${lockFile}`
      : `journal ${journalFile} is in use by executor pid ${pid} (${lockFile}); one executor per state dir — stop that one first. Nothing was changed.`,
  );
try {
  process.once("exit", takePidLock(lockFile, [], inUse));
} catch (err) {
  process.stderr.write(`agent-sudo executor: ${(err as Error).message}\n`);
  process.exit(1);
}

await runService<ExecutorState>({
  name: "executor",
  definition: ExecutorServiceService,
  maxReceiveBytes: 80 * 1024 * 1024, // a commit: manifest (≤ 8 MiB) and blobs (≤ 64 MiB)
  maxSendBytes: 40 * 1024 * 1024,
  prepare,
  table: (state, config) => ({
    Execute: {
      schema: ExecuteShape,
      // attestations, undo_paths, env (executor.proto): counted on the wire, before a map of them is built.
      fieldCounts: { 7: 8, 8: 4096, 9: MAX_ENV_SECRETS },
      handle: (req: ExecuteRequest, log: Logger, call: CallContext) => journaled(state, req, () => execute(req, state, config, log, call)),
    },
    Commit: {
      schema: CommitShape,
      // env_names, attestations, blobs (one per file the manifest writes).
      fieldCounts: { 6: 32, 7: 8, 9: 4096 },
      handle: (req: CommitRequest, log: Logger) => journaled(state, req, () => commit(req, state, config, log)),
    },
    Rollback: {
      schema: RollbackShape,
      fieldCounts: {},
      handle: (req: RollbackRequest, log: Logger) =>
        journaled(state, req, async () => {
          // The record is read only once a grant's signature holds (and only a breaker grant needs its owner).
          const owner = () => state.undo.owner(req.undoId);
          const grant = checkGrant(req.grant, req.undoId, config.host_id, state.pinned, state.replay, undefined, owner);
          if (!state.undo.has(req.undoId)) throw new CodedError("BAD_REQUEST", "unknown, expired or already rolled-back undo id");
          state.journal.append({
            event: "rollback-begin",
            request_id: req.requestId,
            undo_id: req.undoId,
            granted_by: grant.signer,
            nonces: grant.nonces,
          });
          const result = state.undo.rollback(req.undoId);
          state.journal.append({ event: "rollback", request_id: req.requestId, undo_id: req.undoId, ...result });
          log.warn({ undo_id: req.undoId, granted_by: grant.signer, ...result }, "rolled back");
          return result;
        }),
    },
    Resolve: {
      schema: ResolveShape,
      fieldCounts: {},
      handle: async (req: ResolveRequest) => ({ path: resolveAs(req.path, viewer) }),
    },
    Health: healthRpc("executor", () =>
      JSON.stringify({ ...state.gate.load, envelope: state.envelope, landlock: state.landlock, cgroups: state.cgroups !== undefined }),
    ),
  }),
});
