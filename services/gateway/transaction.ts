// Tiers 1–2, and tier 3 but live actions, are transactional (ARCHITECTURE
// "Envelopes"): the command runs once, in the sandbox's copy-on-write mirror
// of the host, its intent on record first (with a `network` rule the run
// reaches the world); both judges rate its diff; only a diff neither judged
// tier 4 is committed, by the executor, under a lease for the worst tier
// either judge gave (tier 3 → the tier-3 quorum over the manifest; a tier-3
// run that failed commits nothing). The run's stdout, stderr and exit code
// are the answer. Nothing reaches the host that both classifiers have not seen.
import type { Attestation } from "../../proto/gen/agent_sudo/v1/decision_pb.js";
import { EntryKind, Manifest, type EffectsRequest, type EffectsVerdict } from "../../proto/gen/agent_sudo/v1/manifest_pb.js";
import type { RunReport } from "../../proto/gen/agent_sudo/v1/sandbox_pb.js";
import { tierFromEnum, type TierNumber } from "../shared/tier.js";
import { answer } from "./answers.js";
import { call, type ServiceClients } from "./clients.js";
import { type Classified, type Executed, mark, type Run } from "./exec-state.js";
import type { ExecSteps } from "./exec-steps.js";
import { executorFailure, failedCall, Refusal, refused, reported } from "./refusal.js";

/** Content the judges get to read (files whose content runs later are small). */
const MAX_JUDGED_FILE = 64 * 1024;
const MAX_JUDGED_TOTAL = 4 * 1024 * 1024;

export interface Judged {
  tier: TierNumber;
  attestations: Attestation[];
  evidence: Record<string, unknown>;
}

/** The changed files' content by path, for the judges (each ≤ 64 KiB, 4 MiB in all). */
export function judgedContents(manifest: Manifest, blobs: Record<string, Uint8Array>): Record<string, Buffer> {
  const out: Record<string, Buffer> = {};
  let total = 0;
  for (const c of manifest.changes) {
    if (c.after?.kind !== EntryKind.ENTRY_KIND_FILE) continue;
    const blob = blobs[Buffer.from(c.after.sha256).toString("hex")];
    if (!blob || blob.length > MAX_JUDGED_FILE || total + blob.length > MAX_JUDGED_TOTAL) continue;
    out[c.path] = Buffer.from(blob);
    total += blob.length;
  }
  return out;
}

/** A short list of what the run changed, for the audit and the answer. */
export function changeSummary(manifest: Manifest): string[] {
  const kind = (k: EntryKind | undefined) =>
    k === EntryKind.ENTRY_KIND_ABSENT
      ? "absent"
      : k === EntryKind.ENTRY_KIND_DIR
        ? "dir"
        : k === EntryKind.ENTRY_KIND_SYMLINK
          ? "symlink"
          : "file";
  return manifest.changes.map((c) => {
    const was = kind(c.before?.kind);
    const now = kind(c.after?.kind);
    const verb = was === "absent" ? "created" : now === "absent" ? "deleted" : "changed";
    return `${verb} ${c.path}`;
  });
}

/** Runs the command in the mirror; refuses when the run cannot be committed. */
export async function runInMirror(
  clients: ServiceClients,
  req: {
    requestId: string;
    command: string;
    cwd: string;
    host: string;
    runAs: string;
    envNames: string[];
    timeoutS: number;
    classifier: Attestation | undefined;
    env: Record<string, string>;
  },
  tier: TierNumber,
): Promise<RunReport> {
  const { sandbox } = clients;
  return call(sandbox, sandbox.run, req, (req.timeoutS + 15) * 1000).catch((e: unknown) => {
    throw failedCall("sandbox", e, req.requestId, tier);
  });
}

/** Both judges over one manifest; the worst tier stands. A judge that is down refuses (503). */
export async function judgeRun(clients: ServiceClients, req: EffectsRequest, predicted: TierNumber): Promise<Judged & { why: string }> {
  const ask = (name: "classifier" | "concurrence"): Promise<EffectsVerdict> => {
    const c = clients[name];
    return call(c, c.judgeEffects, req, 10_000).catch((e: unknown) => {
      throw failedCall(name, e, req.requestId, predicted);
    });
  };
  const [mine, second] = await Promise.all([ask("classifier"), ask("concurrence")]);
  const t1 = tierFromEnum(mine.tier);
  const t2 = tierFromEnum(second.tier);
  const attestations = [mine.attestation, second.attestation].filter((a): a is Attestation => a !== undefined);
  // A judge signs nothing for tier 4: a missing verdict is a refusal.
  const tier = (attestations.length < 2 ? 4 : Math.max(predicted, t1, t2)) as TierNumber;
  const evidence = {
    classifier: { tier: t1, reasons: mine.reasons.slice(0, 50) },
    concurrence: { tier: t2, reasons: second.reasons.slice(0, 50) },
  };
  const why = [
    t1 === 4 ? `classifier: ${mine.reasons.slice(0, 3).join("; ")}` : "",
    t2 === 4 ? `concurrence: ${second.reasons.slice(0, 3).join("; ")}` : "",
  ]
    .filter(Boolean)
    .join(" | ");
  return { tier, attestations, evidence, why };
}

/** One run in the mirror, both judges over its diff, the executor commits exactly it. */
export async function transact(steps: ExecSteps, run: Run, first: Classified): Promise<Executed> {
  const { requestId } = run;
  const predicted = first.tier;
  const ran = await mirrorRun(steps, run, first);
  run.evidence.run = ran.evidence;
  refuseUncommittable(ran.report, requestId, predicted);
  const out = {
    exitCode: ran.report.exitCode,
    stdout: ran.report.stdout,
    stderr: ran.report.stderr,
    truncated: ran.report.truncated,
    timedOut: ran.report.timedOut,
    extra: { env: ran.env } as Record<string, unknown>,
  };
  // Nothing to commit: the run's answer is the whole result.
  if (ran.manifest.changes.length === 0) return { ...out, undoId: "", evidence: { final_tier: predicted, committed: 0 } };
  run.classified = await steps.fresh(run, first);
  const { verdict } = run.classified;
  if (run.classified.tier !== predicted || !verdict.attestation)
    throw refused(4, "the classifier's verdict changed during the run", requestId);
  // The lease is asked for while the judges rate the diff, for tier 3 (the breaker arms every tier
  // alike, and a lease covers the tiers below its own); a refusal counts only if the diff is committed.
  const leasing = steps.lease(run, predicted, 3).then(
    (lease) => ({ lease }),
    (refusal: unknown) => ({ refusal }),
  );
  const judged = await judgeRun(
    steps.clients,
    { requestId, ...run.binding, manifest: ran.report.manifest, contents: judgedContents(ran.manifest, ran.report.blobs) },
    predicted,
  );
  run.evidence.effects = judged.evidence;
  mark(run, "judge");
  if (judged.tier === 4)
    throw steps.refuseTier4(
      run,
      `the run's effects are tier 4, nothing was committed: ${judged.why || "a judge signed no verdict"}`,
      "effects",
    );
  if (judged.tier === 3 && ran.report.exitCode !== 0) {
    // Tier 3 is verified: a run that failed leaves its changes in the mirror (as a failed verify would roll them back).
    const note = `the run exited ${ran.report.exitCode}: a tier-3 change is committed only when its run succeeds; nothing was committed`;
    return {
      ...out,
      undoId: "",
      extra: { env: ran.env, committed: 0, not_committed: note },
      evidence: { final_tier: 3, committed: 0, not_committed: note },
      verified: { passed: false, rolledBack: false, detail: note },
    };
  }
  const leased = await leasing;
  if ("refusal" in leased)
    throw leased.refusal instanceof Refusal && leased.refusal.answer.status === 403
      ? refused(judged.tier, String(leased.refusal.answer.body.reason), requestId)
      : leased.refusal;
  mark(run, "lease");
  run.evidence.signers = ["classifier", "breaker", "sandbox", "classifier-effects", "concurrence-effects"];
  const attestations = [verdict.attestation, leased.lease, ran.report.attestation, ...judged.attestations].filter(
    (a): a is Attestation => a !== undefined,
  );
  return { ...out, ...(await commit(steps, run, ran, attestations, judged.tier)) };
}

interface MirrorRun {
  report: RunReport;
  manifest: Manifest;
  env: Record<string, string>;
  evidence: Record<string, unknown>;
}

/** The run in the mirror, its intent on record before it starts. */
async function mirrorRun(steps: ExecSteps, run: Run, c: Classified): Promise<MirrorRun> {
  // The run is the real run: a vetted command gets its secret values there (the output is redacted).
  const env = await steps.secrets(run);
  // The intent is on record before the run starts: the run is the real run (a rule flagged `network`
  // reaches the world from the mirror, with its secrets), so an unwritable spool refuses it here.
  await steps.intent(run);
  const report = await runInMirror(
    steps.clients,
    { requestId: run.requestId, ...run.binding, timeoutS: run.body.timeout, classifier: c.verdict.attestation, env },
    c.tier,
  );
  mark(run, "run");
  const manifest = Manifest.decode(report.manifest);
  const changes = changeSummary(manifest);
  const evidence = {
    ok: report.ok,
    exit_code: report.exitCode,
    timed_out: report.timedOut,
    changes: changes.slice(0, 200),
    changed: changes.length,
    findings: report.findings,
    gaps: report.gaps,
  };
  return { report, manifest, env, evidence };
}

/** A run whose diff cannot be committed: the host changed under it (409), or the sandbox says not ok. */
function refuseUncommittable(report: RunReport, requestId: string, tier: TierNumber): void {
  if (report.conflict) {
    const details = report.findings
      .filter((f) => f.includes("conflict: "))
      .map((f) => f.replace(/^diff: conflict: /, ""))
      .join("; ");
    throw new Refusal(
      answer("conflict", { details: `${details}; nothing was committed, the request may be retried`, request_id: requestId }),
      "refused",
    );
  }
  if (!report.ok || !report.attestation)
    throw refused(
      tier,
      `the run in the mirror cannot be committed: ${report.findings.join("; ") || "not ok"}`,
      requestId,
      "sandbox_failed",
    );
}

/** The executor commits the judged diff; a commit that fails is reported to the breaker as refused. */
async function commit(
  steps: ExecSteps,
  run: Run,
  ran: MirrorRun,
  attestations: Attestation[],
  tier: TierNumber,
): Promise<Omit<Executed, keyof RunAnswer>> {
  const { executor } = steps.clients;
  const { requestId } = run;
  const req = { requestId, ...run.binding, attestations, manifest: ran.report.manifest, blobs: ran.report.blobs };
  const committed = await call(executor, executor.commit, req, 120_000).catch((e: unknown) => {
    const details = (e as { details?: string }).details;
    if (details?.startsWith("CONFLICT"))
      throw reported(
        new Refusal(answer("conflict", { details: details.replace(/^CONFLICT:? ?/, ""), request_id: requestId }), "refused"),
        tier,
      );
    throw reported(executorFailure(e, requestId, tier), tier);
  });
  mark(run, "commit");
  const verified =
    tier === 3 ? { verified: { passed: true, rolledBack: false, detail: "the run exited 0; its judged diff was committed" } } : {};
  const snapshot = committed.snapshot ? { snapshot: committed.snapshot } : {};
  return {
    undoId: committed.undoId,
    extra: { env: ran.env, committed: committed.applied, ...snapshot },
    evidence: { final_tier: tier, committed: committed.applied, snapshot: committed.snapshot || null },
    ...verified,
  };
}

type RunAnswer = Pick<Executed, "exitCode" | "stdout" | "stderr" | "truncated" | "timedOut">;
