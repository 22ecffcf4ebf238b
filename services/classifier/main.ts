// agent-sudo classifier — SECURITY: judges commands and signs its decisions;
// it executes nothing. Runs as its own unprivileged user (agent-sudo-cls),
// reachable only by the gateway (0600 socket). Trusts its policy files and
// its private key, read before the privilege drop; trusts nothing in the
// request but the command text it judges. A policy it cannot parse stops it
// from starting; a request it cannot parse is refused. It signs tier 4 for
// no one: a refusal carries no attestation.
import { ClassifierServiceService, type ClassifyRequest, type ClassifyResponse, Source } from "../../proto/gen/agent_sudo/v1/classifier_pb.js";
import { Role } from "../../proto/gen/agent_sudo/v1/decision_pb.js";
import { bindingOf, signDecision, touchedDigest } from "../shared/attestation.js";
import type { Config } from "../shared/config.js";
import { CodedError } from "../shared/errors.js";
import { loadPrivateKey } from "../shared/keys.js";
import { ClassifyShape } from "../shared/shapes.js";
import { healthRpc, runService } from "../shared/skeleton.js";
import { tierToEnum } from "../shared/tier.js";
import { loadClassifierEngine } from "./load.js";
import { undoPlan } from "./undo-plan.js";
import type { Engine, Verdict } from "./verdict.js";
import { envNamesProblem } from "../shared/env-names.js";

interface State {
  engine: Engine;
  signature: string;
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
  const attestation =
    verdict.tier === 4
      ? undefined
      : signDecision("classifier", state.key, {
          role: Role.ROLE_CLASSIFIER,
          requestId: req.requestId,
          binding: bindingOf(req),
          tier: verdict.tier,
          policyDigest: state.engine.policyDigest,
          ttlS: config.decision_ttl_s,
          rule: verdict.rule,
          touchedDigest: touchedDigest(undoPaths),
          network: verdict.attrs?.network ?? false,
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
  };
}

await runService<State>({
  name: "classifier",
  definition: ClassifierServiceService,
  maxReceiveBytes: 64 * 1024,
  prepare: async (config, log) => ({
    ...(await loadClassifierEngine(config, log)),
    key: loadPrivateKey(config.keysDir, "classifier"),
  }),
  table: (state, config) => ({
    Classify: { schema: ClassifyShape, handle: async (req: ClassifyRequest) => classify(req, state, config) },
    Health: healthRpc("classifier", () => JSON.stringify({ policy_digest: state.engine.policyDigest.toString("hex"), signature: state.signature })),
  }),
});
