// The policy files' signature state for /health, checked by the gateway
// itself so it can say why when the classifier refused to start over it.
// Re-checked at most every 5 s.
import type { Config } from "../shared/config.js";
import { loadTrustedKeys, verifyPolicies } from "../shared/policy-signature.js";

export function policySignatureHealth(config: Config): () => Record<string, unknown> {
  let cached: { at: number; value: Record<string, unknown> } | undefined;
  return () => {
    if (cached && Date.now() - cached.at < 5000) return cached.value;
    let value: Record<string, unknown>;
    try {
      const result = verifyPolicies(config.policiesDir, loadTrustedKeys(config.keysDir));
      value = {
        signature: result.state,
        enforce: config.policy.verify_enforce,
        files: result.files.map((f) => ({ file: f.file, state: f.state, reason: f.reason })),
      };
    } catch (err) {
      value = { signature: "unknown", enforce: config.policy.verify_enforce, error: (err as Error).message };
    }
    cached = { at: Date.now(), value };
    return value;
  };
}
