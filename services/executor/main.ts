// agent-sudo executor — SECURITY: the only process that runs as root, and the
// last line of defence. It trusts nothing the gateway says: it runs a command
// only when it holds a valid quorum of signed attestations for exactly that
// (command, cwd, host, run-as), pinned to the signers' public keys, fresh and
// never seen before, and when its own built-in veto does not object. It
// serves a closed table (Execute, Health) on a 0600 socket owned by the
// gateway's user; it has no network (systemd PrivateNetwork=yes). On any
// doubt it refuses; on losing its replay memory it does not start.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";

import { Role } from "../../proto/gen/agent_sudo/v1/decision_pb.js";
import { ExecuteRequest, ExecutorServiceService, type ExecuteResponse, type RollbackRequest } from "../../proto/gen/agent_sudo/v1/executor_pb.js";
import type { Config } from "../shared/config.js";
import { CodedError } from "../shared/errors.js";
import { loadPublicKey, SIGNER_ROLE, SIGNERS } from "../shared/keys.js";
import type { Logger } from "../shared/log.js";
import { isRoot, lookupUser, lookupUid, type Account } from "../shared/privilege.js";
import { healthRpc, runService } from "../shared/skeleton.js";
import { command, cwd, requestId, runAs } from "../shared/shapes.js";
import { ExecutionGate } from "./limit.js";
import { recentNonces, ReplayMemory } from "./replay.js";
import { runCommand } from "./run.js";
import { checkQuorum, type PinnedKey } from "./verify.js";
import { UndoStore } from "./undo.js";
import { snapshotDriver } from "./snapshot.js";
import { changesPackages, installedPackages } from "./packages.js";
import { CommandCgroups } from "./cgroup.js";
import { openJournal, type Journal } from "./journal.js";
import { vetoed } from "./veto.js";
import { envNamesProblem, MAX_ENV_VALUE_BYTES } from "../shared/env-names.js";
import { launchFor } from "./network.js";

const ExecuteShape = z.object({
  requestId,
  command,
  cwd,
  host: z.string().min(1).max(64),
  runAs,
  timeoutS: z.number().int().min(1).max(3600),
  attestations: z
    .array(z.object({ signer: z.string().max(32), decision: z.instanceof(Uint8Array).refine((d) => d.length <= 1024), signature: z.instanceof(Uint8Array) }))
    .max(8),
  undoPaths: z.array(z.string().min(1).max(4096)).max(4096),
  // Secret variables: names re-judged below, values capped; never journaled or logged.
  env: z.record(z.string(), z.string().max(MAX_ENV_VALUE_BYTES).refine((v) => !v.includes("\0"))),
});

const RollbackShape = z.object({ requestId, undoId: z.string().regex(/^[0-9a-f-]{36}$/) });

interface State {
  pinned: Map<string, PinnedKey>;
  replay: ReplayMemory;
  gate: ExecutionGate;
  undo: UndoStore;
  journal: Journal;
  cgroups: CommandCgroups | undefined;
}

function prepare(config: Config, log: Logger): State {
  const pinned = new Map<string, PinnedKey>();
  for (const signer of SIGNERS) pinned.set(signer, { role: SIGNER_ROLE[signer], key: loadPublicKey(config.keysDir, signer) });
  const dir = join(config.stateDir, "executor");
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const journalPath = join(dir, "journal.log");
  const replay = new ReplayMemory(recentNonces(journalPath));
  setInterval(() => replay.prune(), 600_000).unref();
  const undo = new UndoStore(join(dir, "undo"));
  undo.prune();
  setInterval(() => undo.prune(), 3600_000).unref();
  const journal = openJournal(journalPath);
  const cgroups = isRoot() ? CommandCgroups.detect() : undefined;
  if (!cgroups) log.warn("no writable cgroup v2 hierarchy: commands are contained by process group only (a setsid escapes)");
  process.once("exit", () => cgroups?.close());
  return { pinned, replay, gate: new ExecutionGate(config.executor.max_concurrent, config.executor.queue), undo, journal, cgroups };
}

function account(runAs: string): Account {
  const found = runAs ? lookupUser(runAs) : lookupUid(process.getuid?.() ?? 0);
  if (!found) throw new CodedError("BAD_REQUEST", `no such user: ${runAs}`);
  return found;
}

function scrubbedEnv(who: Account): Record<string, string> {
  return {
    PATH: "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
    LANG: "C.UTF-8",
    HOME: who.home,
    USER: who.name,
    LOGNAME: who.name,
    TERM: "dumb",
  };
}

/** Tier 3 with a snapshot driver: the snapshot must be taken, or nothing runs. */
async function takeSnapshot(config: Config, requestId: string, log: Logger): Promise<string> {
  if (config.executor.snapshot === "none") return "";
  const result = await snapshotDriver(config.executor.snapshot).take(`agent-sudo ${requestId}`);
  log.info({ snapshot: result }, "system snapshot before tier 3");
  if (!result.taken) throw new CodedError("UNAVAILABLE", `snapshot not taken: ${result.detail}`);
  return result.id ?? "taken";
}

/** Every refusal goes into the journal too, then propagates. */
async function execute(req: ExecuteRequest, state: State, config: Config, log: Logger): Promise<ExecuteResponse> {
  try {
    return await executeChecked(req, state, config, log);
  } catch (err) {
    if (err instanceof CodedError && err.code !== "BUSY") {
      state.journal.append({ event: "refused", request_id: req.requestId, code: err.code, command_sha256: sha256(req.command) });
    }
    throw err;
  }
}

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

async function executeChecked(req: ExecuteRequest, state: State, config: Config, log: Logger): Promise<ExecuteResponse> {
  const veto = vetoed(req.command, req.cwd || "/");
  if (veto) throw new CodedError("VETOED", veto);
  if (req.host !== config.host_id) throw new CodedError("ATTESTATION_MISMATCH", `host ${req.host} is not this host`);
  const envNames = Object.keys(req.env).sort();
  const envProblem = envNamesProblem(envNames);
  if (envProblem) throw new CodedError("VETOED", `secret variable: ${envProblem}`);
  const { tier, nonces, byRole } = checkQuorum(req, state.pinned, state.replay);
  const network = byRole.get(Role.ROLE_CLASSIFIER)?.network === true;
  const who = account(req.runAs);
  const cwd = req.cwd || who.home || "/";
  if (!existsSync(cwd) || !statSync(cwd).isDirectory()) throw new CodedError("BAD_REQUEST", "cwd is not a directory");
  const switchUser = isRoot() && who.uid !== process.getuid?.();
  const spec = { shell: config.executor.shell, command: req.command, cwd, timeoutS: req.timeoutS, env: { ...req.env, ...scrubbedEnv(who) }, secretNames: envNames, ...(switchUser ? { user: { uid: who.uid, gid: who.gid } } : {}) };
  const launch = launchFor(spec, network, config.executor);
  const release = await state.gate.acquire();
  try {
    // Tier >= 1 always gets an undo record, even with an empty plan, so a
    // rollback request has something to answer to.
    const packages = tier >= 1 && changesPackages(req.command) ? installedPackages() : [];
    const undoId = tier >= 1 ? state.undo.capture(req.requestId, req.undoPaths, packages) : "";
    // fsynced before the command runs: the record, and the replay memory's durability.
    const snapshot = tier === 3 ? await takeSnapshot(config, req.requestId, log) : "";
    state.journal.append({ event: "execute", request_id: req.requestId, tier, command: req.command, cwd, run_as: who.name, signers: req.attestations.map((a) => a.signer), undo_id: undoId, snapshot, nonces, ...(network ? { network: true } : {}), ...(envNames.length > 0 ? { env_names: envNames } : {}) });
    log.info({ tier, network, run_as: who.name, cwd, undo_id: undoId || undefined, undo_paths: req.undoPaths.length }, "executing");
    const result = await runCommand({
      ...spec,
      ...(launch.spawnAsUser ? {} : { launch }),
      ...(switchUser && launch.spawnAsUser ? { uid: who.uid, gid: who.gid } : {}),
      stdoutCap: config.executor.stdout_cap_bytes,
      stderrCap: config.executor.stderr_cap_bytes,
      ...(state.cgroups ? { cgroups: state.cgroups } : {}),
    });
    if (packages.length > 0) {
      try {
        state.undo.recordPackagesAfter(undoId, installedPackages());
      } catch (err) {
        log.error({ err, undo_id: undoId }, "package state after the command not recorded: its rollback will leave packages alone");
      }
    }
    // The outcome is journaled without waiting for the disk (fsynced within
    // 200 ms or by the next execute entry); the audit has it too.
    setImmediate(() => {
      try {
        state.journal.appendSoon({ event: "outcome", request_id: req.requestId, exit_code: result.exitCode, duration_ms: result.durationMs, timed_out: result.timedOut });
      } catch (err) {
        log.error({ err }, "journal outcome not written");
      }
    });
    log.info({ exit_code: result.exitCode, duration_ms: result.durationMs, timed_out: result.timedOut }, "executed");
    return {
      exitCode: result.exitCode,
      stdout: result.stdout,
      stderr: result.stderr,
      truncated: result.truncated,
      durationMs: result.durationMs,
      timedOut: result.timedOut,
      signal: result.signal,
      undoId,
      snapshot,
    };
  } finally {
    release();
  }
}

await runService<State>({
  name: "executor",
  definition: ExecutorServiceService,
  maxReceiveBytes: 384 * 1024, // command, attestations, undo plan, up to 32 secret variables of 8 KiB
  maxSendBytes: 40 * 1024 * 1024,
  prepare,
  table: (state, config) => ({
    Execute: { schema: ExecuteShape, handle: (req: ExecuteRequest, log: Logger) => execute(req, state, config, log) },
    Rollback: {
      schema: RollbackShape,
      handle: async (req: RollbackRequest, log: Logger) => {
        const result = state.undo.rollback(req.undoId);
        state.journal.append({ event: "rollback", request_id: req.requestId, undo_id: req.undoId, ...result });
        log.warn({ undo_id: req.undoId, ...result }, "rolled back");
        return result;
      },
    },
    Health: healthRpc("executor", () => JSON.stringify(state.gate.load)),
  }),
});

