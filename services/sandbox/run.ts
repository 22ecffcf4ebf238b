// A transactional run (tiers 1–2): the command runs once, for real, in the
// copy-on-write mirror; its diff becomes the signed manifest the judges rate
// and the executor commits. The report is ok when the run can be committed:
// the mirror was set up, the command finished within its time, it wrote no
// masked or forbidden path and the manifest is whole. Its exit code is the
// caller's answer, not a verdict (a failed command's changes are judged and
// committed like any other's). Network only when the classifier's signed
// decision for exactly this request grants it; the sandbox checks that
// signature itself.
import { verify, type KeyObject } from "node:crypto";
import { Decision, Role, type Attestation } from "../../proto/gen/agent_sudo/v1/decision_pb.js";
import type { RunReport, RunRequest } from "../../proto/gen/agent_sudo/v1/sandbox_pb.js";
import { bindingOf, commandDigest, manifestDigest, signDecision } from "../shared/attestation.js";
import { isUnder } from "../shared/envelope/masks.js";
import { envNamesProblem } from "../shared/env-names.js";
import { CodedError } from "../shared/errors.js";
import { gapKey } from "./gaps.js";
import { findGaps } from "./gaps.js";
import { globPrefixRe } from "./mounts.js";
import type { SandboxSettings } from "./settings.js";
import type { Driver, DriverRun } from "./trial.js";

/** What one commit may carry (the executor's cap too). */
export const MAX_COMMIT_BYTES = 64 * 1024 * 1024;

export interface RunContext {
  driver: Driver | undefined;
  settings: SandboxSettings;
  key: KeyObject;
  classifierKey: KeyObject;
  ttlS: number;
}

/** The classifier's network grant, from its own signature over exactly this request. */
export function grantedNetwork(
  att: Attestation | undefined,
  req: RunRequest,
  classifierKey: KeyObject,
  now = Math.floor(Date.now() / 1000),
): boolean {
  if (!att || att.signer !== "classifier" || !verify(null, att.decision, classifierKey, att.signature)) return false;
  let d: Decision;
  try {
    d = Decision.decode(att.decision);
  } catch {
    return false;
  }
  const digest = commandDigest(bindingOf(req, "sudo"));
  return (
    d.role === Role.ROLE_CLASSIFIER &&
    d.requestId === req.requestId &&
    d.host === req.host &&
    Buffer.from(d.commandDigest).equals(digest) &&
    d.expiresAt > now &&
    d.network
  );
}

function findings(run: DriverRun, settings: SandboxSettings): string[] {
  const out: string[] = [];
  if (run.setupError) out.push(`sandbox setup failed: ${run.setupError}`);
  if (run.timedOut) out.push("the run timed out: nothing is committed");
  for (const p of run.maskWrites) out.push(`wrote into masked path ${p}`);
  const maskRes = settings.masks.map(globPrefixRe);
  for (const c of run.changes) {
    if (settings.forbidden.some((f) => isUnder(c.path, f))) out.push(`${c.kind} forbidden path ${c.path}`);
    else if (maskRes.some((re) => re.test(c.path))) out.push(`${c.kind} masked path ${c.path}`);
  }
  if (!run.built) out.push("the driver built no manifest: transactional runs need the overlay driver");
  for (const p of run.built?.problems ?? []) out.push(`diff: ${p}`);
  return out;
}

export async function runTransaction(req: RunRequest, ctx: RunContext): Promise<RunReport> {
  const started = performance.now();
  const binding = bindingOf(req, "sudo");
  let run: DriverRun | undefined;
  let refusal: string | undefined;
  // Secret values only under the names every signer bound, and only names that are credential-shaped.
  const names = Object.keys(req.env).sort();
  const secretProblem =
    names.join("\n") !== [...req.envNames].sort().join("\n") ? "secret variables other than the bound names" : envNamesProblem(names);
  if (secretProblem) refusal = secretProblem;
  else if (!ctx.driver) refusal = "no sandbox driver is configured: the run did not happen";
  else if (ctx.driver.name !== "overlay")
    refusal = `the ${ctx.driver.name} driver mirrors another host: a transactional run needs the overlay driver`;
  else if (ctx.driver.refuses(req.host)) refusal = ctx.driver.refuses(req.host);
  else {
    try {
      run = await ctx.driver.run({
        host: req.host,
        command: req.command,
        cwd: req.cwd,
        runAs: req.runAs,
        timeoutS: Math.min(req.timeoutS || ctx.settings.max_timeout_s, ctx.settings.max_timeout_s),
        network: grantedNetwork(req.classifier, req, ctx.classifierKey),
        env: req.env,
        manifest: { requestId: req.requestId, commandDigest: commandDigest(binding), host: req.host, maxBlobBytes: MAX_COMMIT_BYTES },
      });
    } catch (err) {
      // At capacity: a retryable answer (429 at the gateway), not a refusal.
      if ((err as Error).message.startsWith("busy:")) throw new CodedError("BUSY", (err as Error).message);
      refusal = `the ${ctx.driver.name} driver failed: ${(err as Error).message}`;
    }
  }
  const found = run ? findings(run, ctx.settings) : [refusal ?? "not run"];
  if (secretProblem) found.push(secretProblem);
  const ok = found.length === 0;
  const encoded = run?.built?.encoded ?? new Uint8Array();
  const gaps =
    run && run.exitCode !== 0
      ? findGaps(Buffer.from(run.stderr).toString("utf8"), Buffer.from(run.stdout).toString("utf8")).map(gapKey)
      : [];
  return {
    ok,
    exitCode: run?.exitCode ?? -1,
    stdout: Buffer.from(run?.stdout ?? []),
    stderr: Buffer.from(run?.stderr ?? []),
    timedOut: run?.timedOut ?? false,
    truncated: (run?.stdoutTruncated ?? false) || (run?.stderrTruncated ?? false),
    durationMs: Math.round(performance.now() - started),
    findings: found,
    conflict: (run?.built?.conflicts.length ?? 0) > 0,
    gaps,
    manifest: Buffer.from(encoded),
    blobs: ok && run?.built ? Object.fromEntries([...run.built.blobs].map(([k, v]) => [k, Buffer.from(v)])) : {},
    attestation: signDecision("sandbox", ctx.key, {
      role: Role.ROLE_SANDBOX,
      requestId: req.requestId,
      binding,
      tier: 2,
      ttlS: ctx.ttlS,
      rule: "run",
      trialOk: ok,
      manifestDigest: manifestDigest(encoded),
    }),
  };
}
