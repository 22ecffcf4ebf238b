// agent-sudo sandbox — SECURITY: trials commands on a disposable copy of the
// host and signs the report tier 2 needs. Runs as its own user
// (agent-sudo-sbx), reachable only by the gateway. Until a driver is in
// place every trial reports not ok (signed, so the refusal is attributable):
// tier 2 cannot execute, which is the safe failure.
import { Role } from "../../proto/gen/agent_sudo/v1/decision_pb.js";
import { SandboxServiceService, type TrialReport, type TrialRequest } from "../../proto/gen/agent_sudo/v1/sandbox_pb.js";
import { signDecision } from "../shared/attestation.js";
import type { Config } from "../shared/config.js";
import { loadPrivateKey } from "../shared/keys.js";
import { healthRpc, runService } from "../shared/skeleton.js";
import { z } from "zod";
import { command, cwd, requestId, runAs } from "../shared/shapes.js";

type Key = ReturnType<typeof loadPrivateKey>;

const TrialShape = z.object({ requestId, command, cwd, host: z.string().min(1).max(64), runAs, timeoutS: z.number().int().min(1).max(3600) });

function trial(req: TrialRequest, key: Key, config: Config): TrialReport {
  return {
    ok: false,
    exitCode: -1,
    stdout: Buffer.alloc(0),
    stderr: Buffer.alloc(0),
    touchedPaths: [],
    durationMs: 0,
    findings: ["no sandbox driver is configured: the trial did not run"],
    gaps: [],
    attestation: signDecision("sandbox", key, {
      role: Role.ROLE_SANDBOX,
      requestId: req.requestId,
      binding: { command: req.command, cwd: req.cwd, host: req.host, runAs: req.runAs },
      tier: 2,
      ttlS: config.decision_ttl_s,
      trialOk: false,
    }),
  };
}

await runService<Key>({
  name: "sandbox",
  definition: SandboxServiceService,
  maxReceiveBytes: 64 * 1024,
  prepare: (config) => loadPrivateKey(config.keysDir, "sandbox"),
  table: (key, config) => ({
    Trial: { schema: TrialShape, handle: async (req: TrialRequest) => trial(req, key, config) },
    Health: healthRpc("sandbox", () => "driver: none"),
  }),
});
