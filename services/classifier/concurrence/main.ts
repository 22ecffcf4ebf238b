// agent-sudo concurrence — SECURITY: the independent second opinion tier 3
// needs. Its own process, user (agent-sudo-con) and key; it must never import
// the classifier's engine or policies. Until its effect table exists it
// concurs with nothing: every answer is tier 4, so tier 3 is refused (fail
// closed), and the executor would refuse its signature for tier 3 anyway.
import { ConcurrenceServiceService } from "../../../proto/gen/agent_sudo/v1/concurrence_pb.js";
import type { ClassifyRequest, ClassifyResponse } from "../../../proto/gen/agent_sudo/v1/classifier_pb.js";
import { Role } from "../../../proto/gen/agent_sudo/v1/decision_pb.js";
import { signDecision } from "../../shared/attestation.js";
import type { Config } from "../../shared/config.js";
import { loadPrivateKey } from "../../shared/keys.js";
import { ClassifyShape } from "../../shared/shapes.js";
import { healthRpc, runService } from "../../shared/skeleton.js";
import { tierToEnum } from "../../shared/tier.js";

type Key = ReturnType<typeof loadPrivateKey>;

function concur(req: ClassifyRequest, key: Key, config: Config): ClassifyResponse {
  const reason = "concurrence has no effect table yet: it concurs with no tier-3 command";
  return {
    tier: tierToEnum(4),
    rule: "concurrence-unavailable",
    reason,
    policyDigest: Buffer.alloc(0),
    explicit: false,
    undoPaths: [],
    attestation: signDecision("concurrence", key, {
      role: Role.ROLE_CONCURRENCE,
      requestId: req.requestId,
      binding: { command: req.command, cwd: req.cwd, host: req.host, runAs: req.runAs },
      tier: 4,
      ttlS: config.decision_ttl_s,
      rule: "concurrence-unavailable",
    }),
  };
}

await runService<Key>({
  name: "concurrence",
  definition: ConcurrenceServiceService,
  maxReceiveBytes: 64 * 1024,
  prepare: (config) => loadPrivateKey(config.keysDir, "concurrence"),
  table: (key, config) => ({
    Concur: { schema: ClassifyShape, handle: async (req: ClassifyRequest) => concur(req, key, config) },
    Health: healthRpc("concurrence"),
  }),
});
