// One /exec request as data: what it binds (the command every signer sees),
// what each part said of it (its evidence, filed by the pipeline as each step
// returns it), and what happened so far (intent written, breaker told, stage
// timings). The audit context is built from it in one place: auditContext.
import type { ClassifyResponse } from "../../proto/gen/agent_sudo/v1/classifier_pb.js";
import type { CommandBinding } from "../shared/attestation.js";
import type { Logger } from "../shared/log.js";
import type { TierNumber } from "../shared/tier.js";
import type { AuditContext } from "./audit-trail.js";
import type { ExecRequest } from "./body.js";
import type { RedeployResult } from "./redeploy.js";

export type Binding = CommandBinding & { envNames: string[] };

/** The classifier's verdict, and what the audit carries of it. */
export interface Classified {
  verdict: ClassifyResponse;
  tier: TierNumber;
  policyDigest: string;
  evidence: { tier: TierNumber; rule: string; reason: string; explicit: boolean; package_run?: true };
}

/** What the parts after the classifier said, each as its step returned it. */
export interface Evidence {
  /** The cwd as the caller gave it, when the executor's realpath differs. */
  cwd_given?: string;
  trial?: Record<string, unknown>;
  run?: Record<string, unknown>;
  effects?: Record<string, unknown>;
  concurrence?: Record<string, unknown>;
  signers?: string[];
}

export interface Run {
  requestId: string;
  caller: string;
  binding: Binding;
  body: ExecRequest;
  started: number;
  log: Logger;
  /** The latest verdict (a long trial or run gets a fresh one). */
  classified?: Classified;
  evidence: Evidence;
  intentWritten: boolean;
  /** The breaker has heard this request's outcome already (a failed verify, before its rollback grant). */
  reported: boolean;
  /** Milliseconds since the previous mark, per stage (the audit's evidence.stages_ms; bench/tiers reads it). */
  stages: Record<string, number>;
  lastMark: number;
}

/** What a run in the mirror or on the host came to, before the audit and the answer. */
export interface Executed {
  exitCode: number;
  stdout: Uint8Array;
  stderr: Uint8Array;
  truncated: boolean;
  timedOut: boolean;
  undoId: string;
  extra: Record<string, unknown>;
  evidence: Record<string, unknown>;
  verified?: Verified;
}

export interface Verified {
  passed: boolean;
  rolledBack: boolean;
  detail: string;
  redeploy?: RedeployResult[];
}

export function newRun(requestId: string, caller: string, binding: Binding, body: ExecRequest, log: Logger): Run {
  const started = performance.now();
  return {
    requestId,
    caller,
    binding,
    body,
    started,
    log,
    evidence: {},
    intentWritten: false,
    reported: false,
    stages: {},
    lastMark: started,
  };
}

export function mark(run: Run, stage: string): void {
  const now = performance.now();
  run.stages[stage] = Math.round((now - run.lastMark) * 100) / 100;
  run.lastMark = now;
}

/** The audit's view of the request so far; `withStages` for the outcome (the intent has no timings). */
export function auditContext(run: Run, withStages = false): AuditContext {
  const { binding: b, classified: c, evidence: e } = run;
  const evidence = {
    env_secrets: b.envNames.length > 0 ? b.envNames : undefined,
    cwd_given: e.cwd_given,
    verdict: c?.evidence,
    trial: e.trial,
    run: e.run,
    effects: e.effects,
    concurrence: e.concurrence,
    signers: e.signers,
    stages_ms: withStages ? run.stages : undefined,
  };
  return {
    requestId: run.requestId,
    caller: run.caller,
    source: "http",
    command: b.command,
    cwd: b.cwd,
    runAs: b.runAs,
    ...(c ? { tier: c.tier, rule: c.verdict.rule, policyDigest: c.policyDigest } : {}),
    evidence: Object.fromEntries(Object.entries(evidence).filter(([, v]) => v !== undefined)),
  };
}
