// agent-sudo breaker — SECURITY: issues the short signed "armed" leases that
// tier >= 1 needs, and hears every outcome. Runs as its own user
// (agent-sudo-brk), reachable only by the gateway. A lease binds one request
// id and command digest and lives 10 s. Trip rules and the persisted
// disarmed state come with the tier-3 work; until then it is armed and
// counts what it is told.
import { z } from "zod";
import { BreakerServiceService, type LeaseRequest, type LeaseResponse, type Outcome } from "../../proto/gen/agent_sudo/v1/breaker_pb.js";
import { Attestation, Decision, Role } from "../../proto/gen/agent_sudo/v1/decision_pb.js";
import { randomBytes, sign } from "node:crypto";
import { loadPrivateKey } from "../shared/keys.js";
import { requestId } from "../shared/shapes.js";
import { healthRpc, runService } from "../shared/skeleton.js";

const LEASE_TTL_S = 10;

const LeaseShape = z.object({
  requestId,
  commandDigest: z.instanceof(Uint8Array).refine((d) => d.length === 32),
  tier: z.number().int(),
  host: z.string().min(1).max(64),
});
const OutcomeShape = z.object({ requestId, tier: z.number().int(), ok: z.boolean(), refused: z.boolean() });

interface State {
  key: ReturnType<typeof loadPrivateKey>;
  outcomes: number;
}

function lease(req: LeaseRequest, state: State): LeaseResponse {
  const now = Math.floor(Date.now() / 1000);
  const decision = Decision.create({
    role: Role.ROLE_BREAKER,
    requestId: req.requestId,
    commandDigest: req.commandDigest,
    tier: req.tier,
    host: req.host,
    issuedAt: now,
    expiresAt: now + LEASE_TTL_S,
    nonce: randomBytes(16),
  });
  const bytes = Buffer.from(Decision.encode(decision).finish());
  return { armed: true, reason: "armed", lease: Attestation.create({ signer: "breaker", decision: bytes, signature: sign(null, bytes, state.key) }) };
}

await runService<State>({
  name: "breaker",
  definition: BreakerServiceService,
  maxReceiveBytes: 16 * 1024,
  prepare: (config) => ({ key: loadPrivateKey(config.keysDir, "breaker"), outcomes: 0 }),
  table: (state) => ({
    Lease: { schema: LeaseShape, handle: async (req: LeaseRequest) => lease(req, state) },
    Report: {
      schema: OutcomeShape,
      handle: async (_req: Outcome) => {
        state.outcomes++;
        return {};
      },
    },
    Health: healthRpc("breaker", () => `armed; ${state.outcomes} outcomes heard`),
  }),
});
