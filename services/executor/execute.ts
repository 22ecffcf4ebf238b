// Execute: the commands that run on the host's own tree — tier 0 in the
// read-only envelope, tier-3 live actions and package runs in the live one
// (envelope.ts). Every one is checked first (veto, host, secret names,
// quorum: verify.ts), journaled (fsynced, with the nonces it consumed)
// before it starts, and its undo captured when it can change anything.
import { realpathSync, statSync } from "node:fs";
import { Role } from "../../proto/gen/agent_sudo/v1/decision_pb.js";
import type { ExecuteRequest, ExecuteResponse } from "../../proto/gen/agent_sudo/v1/executor_pb.js";
import type { Config } from "../shared/config.js";
import { envNamesProblem } from "../shared/env-names.js";
import { CodedError } from "../shared/errors.js";
import type { Logger } from "../shared/log.js";
import { lookupUid, lookupUser, type Account } from "../shared/privilege.js";
import type { EnvelopeServer } from "../shared/envelope/server.js";
import type { CommandCgroups } from "./cgroup.js";
import { envelopeProgram } from "./envelope.js";
import { hostMasks } from "../shared/envelope/masks.js";
import type { Journal } from "./journal.js";
import type { ExecutionGate } from "./limit.js";
import { launchFor } from "./network.js";
import { changesPackages, installedPackages } from "./packages.js";
import type { ReplayMemory } from "./replay.js";
import { runCommand } from "./run.js";
import { takeSnapshot as timeshift } from "./snapshot.js";
import type { CallContext } from "../shared/skeleton.js";
import { redactCredentials } from "../shared/credentials.js";
import type { UndoStore } from "./undo.js";
import { checkExecute, type Pinned } from "./verify.js";
import { vetoed } from "./veto.js";

export interface ExecutorState {
  pinned: Pinned;
  replay: ReplayMemory;
  gate: ExecutionGate;
  undo: UndoStore;
  journal: Journal;
  cgroups: CommandCgroups | undefined;
  /** "ok", or why no envelope can be built here. */
  envelope: string;
  /** The kernel's Landlock ABI, or why none: tier 0 refuses host FIFOs with it (health only; the program checks itself). */
  landlock: number | string;
  /** Starts every command (one warm perl process; the executor exits if it is lost). */
  server: EnvelopeServer | undefined;
}

export function account(runAs: string): Account {
  const found = runAs ? lookupUser(runAs) : lookupUid(process.getuid?.() ?? 0);
  if (!found) throw new CodedError("BAD_REQUEST", `no such user: ${runAs}`);
  return found;
}

/** The canonical path of an existing directory; BAD_REQUEST otherwise. */
export function realDir(path: string): string {
  let real: string;
  try {
    real = realpathSync(path);
    if (statSync(real).isDirectory()) return real;
  } catch {
    throw new CodedError("BAD_REQUEST", "cwd does not exist");
  }
  throw new CodedError("BAD_REQUEST", "cwd is not a directory");
}

/**
 * The bound cwd must be a directory whose path holds no symlink: what was judged is where it runs. A bound cwd
 * in a masked path is refused before root looks, and every refusal of a bound cwd reads the same: root's stat
 * says nothing of what is under a mask, which the command itself would see empty (review 36).
 */
export function checkedCwd(cwd: string, who: Account, masks: readonly string[]): string {
  // An empty cwd is the run-as user's home, chosen here, not bound: its resolved path is used.
  if (!cwd) return realDir(who.home || "/");
  const refused = new CodedError("BAD_REQUEST", "cwd is not canonical, not there or masked: resolve it first");
  if (masks.some((m) => cwd === m || cwd.startsWith(m === "/" ? m : `${m}/`))) throw refused;
  let real: string;
  try {
    real = realDir(cwd);
  } catch {
    throw refused;
  }
  if (real !== cwd) throw refused;
  return real;
}

/**
 * Once the quorum is verified: the built-in veto, and this host. Not before:
 * the veto's patterns cost seconds of CPU on 16 KiB of crafted text, which an
 * unsigned caller must not be able to spend (review 36).
 */
export function precheck(req: { command: string; cwd: string; host: string }, config: Config): void {
  const veto = vetoed(req.command, req.cwd);
  if (veto) throw new CodedError("VETOED", veto);
  if (req.host !== config.host_id) throw new CodedError("ATTESTATION_MISMATCH", `host ${req.host} is not this host`);
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

/** Tier 3 with a snapshot driver: the snapshot must be taken, or nothing runs (or is committed). */
export async function takeSnapshot(config: Config, requestId: string, log: Logger): Promise<string> {
  if (config.executor.snapshot === "none") return "";
  const t0 = Date.now();
  const result = await timeshift(`agent-sudo ${requestId}`);
  log.info({ snapshot: { ...result, durationMs: Date.now() - t0 } }, "system snapshot before tier 3");
  if (!result.taken) throw new CodedError("UNAVAILABLE", `snapshot not taken: ${result.detail}`);
  return result.id ?? "taken";
}

/** A command that waited in the queue starts only when it can still finish (its own timeout) this long before its caller's deadline. */
const START_MARGIN_MS = 2000;

export async function execute(
  req: ExecuteRequest,
  state: ExecutorState,
  config: Config,
  log: Logger,
  call?: CallContext,
): Promise<ExecuteResponse> {
  const t0 = performance.now();
  const ms = (since: number) => Math.round((performance.now() - since) * 100) / 100;
  const envNames = Object.keys(req.env).sort();
  const envProblem = envNamesProblem(envNames);
  if (envProblem) throw new CodedError("VETOED", `secret variable: ${envProblem}`);
  const { tier, nonces, byRole, packageRun } = checkExecute({ ...req, envNames }, state.pinned, state.replay);
  precheck(req, config);
  const network = byRole.get(Role.ROLE_CLASSIFIER)?.network === true;
  const who = account(req.runAs);
  const masks = hostMasks({ home: config.home, stateDirs: config.envelope.state_dirs, secrets: config.envelope.masks });
  const cwd = checkedCwd(req.cwd, who, masks);
  if (state.envelope !== "ok" || !state.server) throw new CodedError("ENVELOPE_FAILED", state.envelope);
  const switchUser = who.uid !== process.getuid?.();
  const env = { ...req.env, ...scrubbedEnv(who) };
  const program = envelopeProgram({ tier, network, who, switchUser, cwd, masks, command: req.command, config });
  const launch = launchFor(program, { cwd, timeoutS: req.timeoutS, env, secretNames: envNames }, network, config.executor);
  const checked = ms(t0);
  const t1 = performance.now();
  const release = await state.gate.acquire();
  const queued = ms(t1);
  const tq = performance.now();
  // Waited in the queue past the point where it could answer its caller: never started (the caller would have been told it may have run).
  if (call && (call.cancelled() || (release.queued && Date.now() + req.timeoutS * 1000 + START_MARGIN_MS > call.deadlineMs))) {
    release();
    state.journal.appendSoon({ event: "expired", request_id: req.requestId, waited_past: "the caller's deadline" });
    throw new CodedError("BUSY", "queued too long to finish before its caller's deadline: not started");
  }
  try {
    // Tier >= 1 always gets an undo record, even with an empty plan, so a rollback has something to answer to.
    const packages = packageRun || (tier >= 1 && changesPackages(req.command)) ? installedPackages() : [];
    const undoId = tier >= 1 ? state.undo.capture(req.requestId, req.undoPaths, packages, tier === 3) : "";
    const snapshot = tier === 3 ? await takeSnapshot(config, req.requestId, log) : "";
    // Built meanwhile, run only once this is fsynced: the record, and the replay memory's durability.
    let journaled: (yes: boolean) => void = () => undefined;
    const gate = new Promise<void>((open, shut) => {
      journaled = (yes) => (yes ? open() : shut(new Error("not journaled")));
    });
    const t2 = performance.now();
    const running = runCommand({
      server: state.server,
      launch,
      timeoutS: req.timeoutS,
      env,
      stdoutCap: config.executor.stdout_cap_bytes,
      stderrCap: config.executor.stderr_cap_bytes,
      gate,
      // Tier 0's envelope is its own pid namespace, born as its pid 1: when that exits the kernel kills
      // everything left in it (setsid and double forks included), so it needs no cgroup — joining one
      // costs ~10 ms per command (a cgroup migration waits for an RCU grace period). Live envelopes share
      // the host's pids: their cgroup is what ends everything they start.
      ...(state.cgroups && tier !== 0 ? { cgroups: state.cgroups } : {}),
    });
    try {
      state.journal.append({
        event: "execute",
        request_id: req.requestId,
        tier,
        command: redactCredentials(req.command),
        cwd,
        run_as: who.name,
        signers: req.attestations.map((a) => a.signer),
        undo_id: undoId,
        snapshot,
        nonces,
        ...(network ? { network: true } : {}),
        ...(packageRun ? { package_run: true } : {}),
        ...(envNames.length > 0 ? { env_names: envNames } : {}),
      });
    } catch (err) {
      journaled(false);
      await running.catch(() => undefined);
      throw err;
    }
    journaled(true);
    log.info({ tier, network, package_run: packageRun, run_as: who.name, cwd, undo_id: undoId || undefined }, "executing");
    const recorded = ms(tq);
    const result = await running;
    if (result.setupError) {
      state.journal.appendSoon({ event: "outcome", request_id: req.requestId, not_run: result.setupError });
      throw new CodedError("ENVELOPE_FAILED", result.setupError);
    }
    if (packages.length > 0) {
      try {
        state.undo.recordPackagesAfter(undoId, installedPackages());
      } catch (err) {
        log.error({ err, undo_id: undoId }, "package state after the command not recorded: its rollback will leave packages alone");
      }
    }
    // The outcome is journaled without waiting for the disk (fsynced within 200 ms or by the next entry); the audit has it too.
    setImmediate(() => {
      try {
        state.journal.appendSoon({
          event: "outcome",
          request_id: req.requestId,
          exit_code: result.exitCode,
          duration_ms: result.durationMs,
          timed_out: result.timedOut,
        });
      } catch (err) {
        log.error({ err }, "journal outcome not written");
      }
    });
    // Where the executor's time went: checks and envelope words, the queue, undo + journal (fsync), the run.
    log.info(
      {
        exit_code: result.exitCode,
        duration_ms: result.durationMs,
        timed_out: result.timedOut,
        stages_ms: { checked, queued, recorded, run: ms(t2) },
      },
      "executed",
    );
    const { setupError: _, ...ran } = result;
    return { ...ran, undoId, snapshot };
  } finally {
    release();
  }
}
