// The classifier's engine (the policy engine over policies/SUDO.md and
// policies/CLAUDE_CMDS.md), and whether its policy may be trusted:
// the policy files' detached signatures are checked at load. With
// policy.verify_enforce a missing or bad signature makes the service refuse
// every classification (503 at the gateway) while it stays up and says why
// (the reason names the file; /health shows it); without it the service
// serves and warns loudly, and /health shows the state.
import type { Config } from "../shared/config.js";
import type { Logger } from "../shared/log.js";
import { loadTrustedKeys, verifyPolicies } from "../shared/policy-signature.js";
import { loadEngine } from "./engine/index.js";
import type { Engine } from "./verdict.js";

export interface LoadedEngine {
  engine: Engine;
  signature: "signed" | "unsigned" | "tampered";
  /** Set when policy.verify_enforce is on and the signature is not valid: why every classification is refused. */
  refusing?: string;
}

export function checkPolicySignatures(config: Config, log: Logger): { signature: LoadedEngine["signature"]; refusing?: string } {
  const result = verifyPolicies(config.policiesDir, loadTrustedKeys(config.keysDir));
  if (result.state === "signed") return { signature: "signed" };
  const reasons = result.files.filter((f) => f.state !== "signed").map((f) => `${f.file}: ${f.reason}`);
  if (result.files.length === 0) reasons.push(`no policy files in ${config.policiesDir}`);
  if (config.policy.verify_enforce) {
    const refusing = `policy signature ${result.state} and policy.verify_enforce is on: ${reasons.join("; ")}`;
    log.error({ state: result.state, reasons }, `REFUSING EVERY CLASSIFICATION: ${refusing}`);
    return { signature: result.state, refusing };
  }
  log.warn({ state: result.state, reasons }, "POLICY SIGNATURE NOT VALID — serving anyway because policy.verify_enforce is off");
  return { signature: result.state };
}

export async function loadClassifierEngine(config: Config, log: Logger): Promise<LoadedEngine> {
  const checked = checkPolicySignatures(config, log);
  // The state dir the service runs with is secret and guarded for every source, wherever it is.
  return { engine: await loadEngine(config.policiesDir, { stateDir: config.home }), ...checked };
}
