// The classifier's engine (the policy engine over policies/SUDO.md and
// policies/CLAUDE_CMDS.md), and whether its policy may be trusted:
// the policy files' detached signatures are checked at load. With
// policy.verify_enforce a missing or bad signature stops the service from
// starting (the reason names the file); without it the service starts and
// warns loudly, and /health shows the state.
import type { Config } from "../shared/config.js";
import type { Logger } from "../shared/log.js";
import { loadTrustedKeys, verifyPolicies } from "../shared/policy-signature.js";
import { loadEngine } from "./engine/index.js";
import type { Engine } from "./verdict.js";

export interface LoadedEngine {
  engine: Engine;
  signature: "signed" | "unsigned" | "tampered";
}

export function checkPolicySignatures(config: Config, log: Logger): LoadedEngine["signature"] {
  const result = verifyPolicies(config.policiesDir, loadTrustedKeys(config.keysDir));
  if (result.state === "signed") return "signed";
  const reasons = result.files.filter((f) => f.state !== "signed").map((f) => `${f.file}: ${f.reason}`);
  if (result.files.length === 0) reasons.push(`no policy files in ${config.policiesDir}`);
  if (config.policy.verify_enforce) {
    throw new Error(`policy signature ${result.state} and policy.verify_enforce is on: ${reasons.join("; ")}`);
  }
  log.warn({ state: result.state, reasons }, "POLICY SIGNATURE NOT VALID — serving anyway because policy.verify_enforce is off");
  return result.state;
}

export async function loadClassifierEngine(config: Config, log: Logger): Promise<LoadedEngine> {
  const signature = checkPolicySignatures(config, log);
  return { engine: await loadEngine(config.policiesDir), signature };
}
