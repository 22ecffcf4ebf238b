// agent-sudo classifier — SECURITY: judges commands and signs its decisions;
// it executes nothing. Runs as its own unprivileged user (agent-sudo-cls),
// reachable only by the gateway (0600 socket). Trusts its policy files and
// its private key, read before the privilege drop; trusts nothing in the
// request but the command text it judges. A policy it cannot parse stops it
// from starting; a request it cannot parse is refused. It signs tier 4 for
// no one: a refusal carries no attestation.
// JudgeEffects judges a transactional run's manifest (the sandbox's signed
// bytes, bound to this request's /exec command digest) and the content the
// gateway passes, which is used only when its sha256 is the manifest's; a
// manifest of another request, host or command is refused, not judged.
// Every RPC it serves and what each requires:
//   Classify      a command, cwd, run-as, env names, source and this host:
//                 the tier, and a signed decision unless it is tier 4
//   JudgeEffects  a run's manifest bound to this request (above): a signed
//                 effect verdict over the manifest's digest unless tier 4
//   Rules         this host and a source: the active rules (GET /allowlist)
//   Health        nothing; "refusing: …" while its policy may not be trusted
import {
  ClassifierServiceService,
  type ClassifyRequest,
  type ClassifyResponse,
  type RulesRequest,
  type RulesResponse,
  Source,
} from "../../proto/gen/agent_sudo/v1/classifier_pb.js";
import { z } from "zod";
import { Role } from "../../proto/gen/agent_sudo/v1/decision_pb.js";
import type { EffectsRequest, EffectsVerdict } from "../../proto/gen/agent_sudo/v1/manifest_pb.js";
import { bindingOf, manifestDigest, signDecision, touchedDigest } from "../shared/attestation.js";
import type { Config } from "../shared/config.js";
import { CodedError } from "../shared/errors.js";
import { loadPrivateKey } from "../shared/keys.js";
import { ClassifyShape } from "../shared/shapes.js";
import { healthRpc, runService } from "../shared/skeleton.js";
import { tierToEnum } from "../shared/tier.js";
import { checkEffectsRequest, EffectsShape } from "./engine/manifest-effects-request.js";
import { loadClassifierEngine } from "./load.js";
import { undoPlan } from "./undo-plan.js";
import type { Engine, Verdict } from "./verdict.js";
import { envNamesProblem } from "../shared/env-names.js";

interface State {
  engine: Engine;
  signature: string;
  /** Why every call is refused (verify_enforce and a policy whose signature is not valid). */
  refusing?: string;
  key: ReturnType<typeof loadPrivateKey>;
}

function classify(req: ClassifyRequest, state: State, config: Config): ClassifyResponse {
  if (req.host !== config.host_id) throw new CodedError("BAD_REQUEST", "request for another host");
  const source = req.source === Source.SOURCE_CLAUDE ? "claude" : "sudo";
  // Secret variables reach a root command only under credential-shaped names.
  const envProblem = envNamesProblem(req.envNames);
  const verdict: Verdict = envProblem
    ? { tier: 4, rule: "env-secret-name", reason: `secret variable: ${envProblem}`, explicit: false, parts: [] }
    : state.engine.classify({ command: req.command, cwd: req.cwd, host: config.host_id, source });
  const undoPaths = verdict.tier >= 1 && verdict.tier <= 3 ? undoPlan(req.command, req.cwd) : [];
  const packageRun = source === "sudo" && (verdict.attrs?.packageRun ?? false);
  const liveAction = source === "sudo" && verdict.tier === 3 && (verdict.attrs?.liveAction ?? false);
  const attestation =
    verdict.tier === 4
      ? undefined
      : signDecision("classifier", state.key, {
          role: Role.ROLE_CLASSIFIER,
          requestId: req.requestId,
          binding: bindingOf(req, source),
          tier: verdict.tier,
          policyDigest: state.engine.policyDigest,
          ttlS: config.decision_ttl_s,
          rule: verdict.rule,
          touchedDigest: touchedDigest(undoPaths),
          network: verdict.attrs?.network ?? false,
          packageRun,
          liveAction,
        });
  return {
    tier: tierToEnum(verdict.tier),
    rule: verdict.rule,
    reason: verdict.reason,
    policyDigest: state.engine.policyDigest,
    attestation,
    explicit: verdict.explicit,
    undoPaths,
    network: verdict.attrs?.network ?? false,
    verify: verdict.attrs?.verify ?? [],
    redeploy: verdict.attrs?.redeploy ?? [],
    packageRun,
    liveAction,
    liveMixed: source === "sudo" && verdict.tier === 3 ? (verdict.attrs?.liveMixed ?? "") : "",
  };
}

/** Judge a run's diff (tiers 1-2) with the sudo policy; sign the verdict unless it is tier 4. */
function judgeEffects(req: EffectsRequest, state: State, config: Config): EffectsVerdict {
  const { manifest, contents } = checkEffectsRequest(req, config.host_id);
  const envProblem = envNamesProblem(req.envNames);
  const judged = envProblem
    ? { tier: 4 as const, reasons: [`secret variable: ${envProblem}`] }
    : state.engine.judgeEffects({
        manifest,
        contents,
        host: config.host_id,
        runAs: req.runAs,
        cwd: req.cwd,
        guarded: [config.repoRoot, config.home, config.policiesDir],
        command: req.command,
      });
  const attestation =
    judged.tier === 4
      ? undefined
      : signDecision("classifier", state.key, {
          role: Role.ROLE_CLASSIFIER_EFFECTS,
          requestId: req.requestId,
          binding: bindingOf(req, "sudo"),
          tier: judged.tier,
          policyDigest: state.engine.policyDigest,
          ttlS: config.decision_ttl_s,
          rule: "effects",
          manifestDigest: manifestDigest(req.manifest),
        });
  return { tier: tierToEnum(judged.tier), reasons: judged.reasons, attestation };
}

const RulesShape = z.object({ host: z.string().min(1).max(64), source: z.nativeEnum(Source) });

/** The active rules of one policy as they apply to this host (informational: GET /allowlist). */
function rulesOf(req: RulesRequest, state: State, config: Config): RulesResponse {
  if (req.host !== config.host_id) throw new CodedError("BAD_REQUEST", "request for another host");
  const source = req.source === Source.SOURCE_CLAUDE ? "claude" : "sudo";
  const rules = state.engine.activeRules(source, config.host_id).map((r) => ({
    id: r.id,
    patterns: r.patterns,
    tier: tierToEnum(r.tier),
    baseTier: tierToEnum(r.baseTier),
    hostOverride: r.hostOverride,
    verbClass: r.verbClass,
    rationale: r.rationale,
    network: r.network,
    package: r.package,
  }));
  return { rules, policyDigest: state.engine.policyDigest, signature: state.signature };
}

/** A policy that may not be trusted (verify_enforce) decides nothing: every call is UNAVAILABLE (503 at the gateway). */
function notRefusing(state: State): State {
  if (state.refusing) throw new CodedError("UNAVAILABLE", state.refusing);
  return state;
}

await runService<State>({
  name: "classifier",
  definition: ClassifierServiceService,
  // An 8 MiB manifest plus its contents (JudgeEffects); Classify's shape caps a command at 16 KiB.
  maxReceiveBytes: 16 * 1024 * 1024,
  prepare: async (config, log) => ({
    ...(await loadClassifierEngine(config, log)),
    key: loadPrivateKey(config.keysDir, "classifier"),
  }),
  table: (state, config) => ({
    Classify: { schema: ClassifyShape, handle: async (req: ClassifyRequest) => classify(req, notRefusing(state), config) },
    Rules: { schema: RulesShape, handle: async (req: RulesRequest) => rulesOf(req, state, config) },
    JudgeEffects: { schema: EffectsShape, handle: async (req: EffectsRequest) => judgeEffects(req, notRefusing(state), config) },
    Health: healthRpc(
      "classifier",
      () =>
        state.refusing
          ? `refusing: ${state.refusing}`
          : JSON.stringify({ policy_digest: state.engine.policyDigest.toString("hex"), signature: state.signature }),
      () => state.refusing === undefined,
    ),
  }),
});
