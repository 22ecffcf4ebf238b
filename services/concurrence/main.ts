// agent-sudo concurrence — SECURITY: the independent second opinion tier 3
// needs (seed D9), and the second judge of every transactional run's diff
// (tiers 1-2). Its own process, user (agent-sudo-con) and key; its own
// lexer, effect and path tables, and it imports nothing from the classifier
// (only services/shared and proto/gen): one engine's blind spot must not be
// the other's. Concur judges what a command touches — programs, paths,
// devices, services, data — and signs its tier (role CONCURRENCE);
// JudgeEffects judges what a run's Manifest changed and signs its tier
// (role CONCURRENCE_EFFECTS) bound to that manifest's digest. Either signs
// only a tier that is not 4: a refusal carries no attestation, and the
// executor refuses without one. Trusts its key, read before the privilege
// drop; trusts nothing in a request but the command text, cwd and run-as it
// judges, and the manifest only once it binds this request's command and
// every file content given matches the manifest's digest (otherwise
// BAD_REQUEST). A request for another host is refused. If it is down,
// tier 3 and every transactional commit are refused (503).
// RPCs: Concur and JudgeEffects as above; Health (nothing required).
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { KeyObject } from "node:crypto";
import { ConcurrenceServiceService } from "../../proto/gen/agent_sudo/v1/concurrence_pb.js";
import { type ClassifyRequest, type ClassifyResponse, Source } from "../../proto/gen/agent_sudo/v1/classifier_pb.js";
import { Role } from "../../proto/gen/agent_sudo/v1/decision_pb.js";
import type { EffectsRequest, EffectsVerdict } from "../../proto/gen/agent_sudo/v1/manifest_pb.js";
import { bindingOf, signDecision } from "../shared/attestation.js";
import type { Config } from "../shared/config.js";
import { envNamesProblem } from "../shared/env-names.js";
import { CodedError } from "../shared/errors.js";
import type { Logger } from "../shared/log.js";
import { loadPrivateKey } from "../shared/keys.js";
import { ClassifyShape } from "../shared/shapes.js";
import { healthRpc, runService } from "../shared/skeleton.js";
import { tierToEnum } from "../shared/tier.js";
import { EffectsShape, judgeEffects } from "./effects.js";
import { concurrenceContext, judgeCommand } from "./verdict.js";

interface State {
  key: KeyObject;
  /** sha256 of the concurrence's own code: what it judged with. */
  digest: Buffer;
}

function ownDigest(): Buffer {
  const dir = dirname(fileURLToPath(import.meta.url));
  const hash = createHash("sha256").update("agent-sudo/concurrence/v1\0");
  for (const f of readdirSync(dir)
    .filter((n) => /\.(js|ts)$/.test(n) && !n.includes(".spec."))
    .sort()) {
    hash
      .update(f)
      .update("\0")
      .update(readFileSync(join(dir, f)))
      .update("\0");
  }
  return hash.digest();
}

function concur(req: ClassifyRequest, state: State, config: Config, log: Logger): ClassifyResponse {
  if (req.host !== config.host_id) throw new CodedError("BAD_REQUEST", "request for another host");
  const envProblem = envNamesProblem(req.envNames);
  const verdict = envProblem
    ? { tier: 4 as const, reason: `secret variable: ${envProblem}` }
    : judgeCommand(req.command, concurrenceContext(config, req));
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
    packageRun: false,
    liveAction: false,
    liveMixed: "",
    attestation:
      verdict.tier === 4
        ? undefined
        : signDecision("concurrence", state.key, {
            role: Role.ROLE_CONCURRENCE,
            requestId: req.requestId,
            binding: bindingOf(req, req.source === Source.SOURCE_CLAUDE ? "claude" : "sudo"),
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
  // JudgeEffects carries a manifest (≤ 8 MiB) and the changed files' content.
  maxReceiveBytes: 16 * 1024 * 1024,
  prepare: (config) => ({ key: loadPrivateKey(config.keysDir, "concurrence"), digest: ownDigest() }),
  table: (state, config) => ({
    Concur: { schema: ClassifyShape, handle: async (req: ClassifyRequest, log: Logger) => concur(req, state, config, log) },
    JudgeEffects: {
      schema: EffectsShape,
      handle: async (req: EffectsRequest, log: Logger): Promise<EffectsVerdict> => judgeEffects(req, state, config, log),
    },
    Health: healthRpc("concurrence", () => `effect table ${state.digest.toString("hex").slice(0, 16)}`),
  }),
});
