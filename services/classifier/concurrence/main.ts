// agent-sudo concurrence — SECURITY: the independent second opinion tier 3
// needs (seed D9). Its own process, user (agent-sudo-con) and key; its own
// lexer and effect table, and it imports nothing from the classifier (only
// services/shared): one engine's blind spot must not be the other's. It
// judges what a command touches — programs, paths, devices, services, data —
// and signs its tier (role CONCURRENCE) only when that tier is not 4: a
// refusal carries no attestation, and the executor refuses tier 3 without
// one. Trusts its key, read before the privilege drop; trusts nothing in the
// request but the command text, cwd and run-as it judges. A request for
// another host is refused. If it is down, tier 3 is refused (503).
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { KeyObject } from "node:crypto";
import { ConcurrenceServiceService } from "../../../proto/gen/agent_sudo/v1/concurrence_pb.js";
import type { ClassifyRequest, ClassifyResponse } from "../../../proto/gen/agent_sudo/v1/classifier_pb.js";
import { Role } from "../../../proto/gen/agent_sudo/v1/decision_pb.js";
import { bindingOf, signDecision } from "../../shared/attestation.js";
import type { Config } from "../../shared/config.js";
import { envNamesProblem } from "../../shared/env-names.js";
import { CodedError } from "../../shared/errors.js";
import type { Logger } from "../../shared/log.js";
import { loadPrivateKey } from "../../shared/keys.js";
import { ClassifyShape } from "../../shared/shapes.js";
import { healthRpc, runService } from "../../shared/skeleton.js";
import { tierToEnum } from "../../shared/tier.js";
import { concurrenceContext, judgeCommand } from "./verdict.js";

interface State {
  key: KeyObject;
  /** sha256 of the concurrence's own code: what it judged with. */
  digest: Buffer;
}

function ownDigest(): Buffer {
  const dir = dirname(fileURLToPath(import.meta.url));
  const hash = createHash("sha256").update("agent-sudo/concurrence/v1\0");
  for (const f of readdirSync(dir).filter((n) => /\.(js|ts)$/.test(n) && !n.includes(".spec.")).sort()) {
    hash.update(f).update("\0").update(readFileSync(join(dir, f))).update("\0");
  }
  return hash.digest();
}

function concur(req: ClassifyRequest, state: State, config: Config, log: Logger): ClassifyResponse {
  if (req.host !== config.host_id) throw new CodedError("BAD_REQUEST", "request for another host");
  const envProblem = envNamesProblem(req.envNames);
  const verdict = envProblem ? { tier: 4 as const, reason: `secret variable: ${envProblem}` } : judgeCommand(req.command, concurrenceContext(config, req));
  log.info({ tier: verdict.tier, reason: verdict.reason }, "concurrence judged");
  const rule = `concurrence:${verdict.tier === 4 ? "refuse" : `tier-${verdict.tier}`}`;
  return {
    tier: tierToEnum(verdict.tier),
    rule,
    reason: verdict.reason,
    policyDigest: state.digest,
    explicit: false,
    // The undo plan is the classifier's (it signs it); the concurrence only judges.
    undoPaths: [],
    // Rule attributes are the policy's; the concurrence grants nothing.
    network: false,
    verify: [],
    redeploy: [],
    attestation:
      verdict.tier === 4
        ? undefined
        : signDecision("concurrence", state.key, {
            role: Role.ROLE_CONCURRENCE,
            requestId: req.requestId,
            binding: bindingOf(req),
            tier: verdict.tier,
            policyDigest: state.digest,
            ttlS: config.decision_ttl_s,
            rule,
          }),
  };
}

await runService<State>({
  name: "concurrence",
  definition: ConcurrenceServiceService,
  maxReceiveBytes: 64 * 1024,
  prepare: (config) => ({ key: loadPrivateKey(config.keysDir, "concurrence"), digest: ownDigest() }),
  table: (state, config) => ({
    Concur: { schema: ClassifyShape, handle: async (req: ClassifyRequest, log: Logger) => concur(req, state, config, log) },
    Health: healthRpc("concurrence", () => `effect table ${state.digest.toString("hex").slice(0, 16)}`),
  }),
});
