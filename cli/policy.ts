// `agent-sudo policy …`: sign and verify the policy files, make the local key.
//
//   sign   [--backend local|vault-transit] [--policies DIR]
//          checks both policies parse, signs SUDO.md, CLAUDE_CMDS.md and
//          proposals.json (when present), writes FILE.sig beside each, then
//          verifies what it wrote. vault-transit: AppRole login, transit sign,
//          read the public keys into <home>/keys/policy-vault-keys.json (for
//          offline verification), revoke the token.
//   verify [--policies DIR] [--fetch-vault-keys]
//          checks every signature against the trusted keys (<home>/keys/policy.pub
//          and the cached transit keys); says which file and why.
//   keygen creates the local signing key <home>/keys/policy.key (0600) + .pub.
//
// Signing is a person's act: it widens nothing by itself, but a signed policy
// is what the services will trust. Exit codes: 0 ok, 1 failure (a file not
// signed, Vault error, no key), 2 usage.
// Until the config keys land, settings come from the environment:
// AGENT_SUDO_POLICY_BACKEND (local|vault-transit), AGENT_SUDO_VAULT_ADDR,
// AGENT_SUDO_VAULT_ROLE_ID_FILE, AGENT_SUDO_VAULT_SECRET_ID_FILE,
// AGENT_SUDO_VAULT_TRANSIT_KEY (default agent-sudo-policy),
// AGENT_SUDO_VAULT_TRANSIT_MOUNT (transit), AGENT_SUDO_VAULT_APPROLE_MOUNT
// (approle), AGENT_SUDO_VAULT_CA_FILE, AGENT_SUDO_VAULT_TIMEOUT_MS.
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { checkUnique, parsePolicy, PolicyError } from "../services/classifier/engine/policy.js";
import { defaultHome, loadConfig } from "../services/shared/config.js";
import {
  BACKENDS,
  type Backend,
  generatePolicyKey,
  loadTrustedKeys,
  localSigner,
  POLICY_FILES,
  PROPOSALS_FILE,
  saveVaultKeyCache,
  signPolicies,
  transitSigner,
  verifyPolicies,
} from "../services/shared/policy-signature.js";
import { transitPublicKeys, vaultSettingsFromEnv, type VaultSettings, withVaultToken } from "../services/shared/vault-transit.js";
import { policyDiffCommand } from "./policy-diff.js";
import { dispatch, UsageError } from "./command.js";

export interface PolicyIo {
  out: (line: string) => void;
  err: (line: string) => void;
  env: NodeJS.ProcessEnv;
}

const USAGE = `usage: agent-sudo policy sign [--backend local|vault-transit] [--policies DIR]
       agent-sudo policy verify [--policies DIR] [--fetch-vault-keys]
       agent-sudo policy keygen
       agent-sudo policy diff OLD_DIR NEW_DIR [--last N] [--commands FILE]`;

function stdio(): PolicyIo {
  return { out: (l) => process.stdout.write(`${l}\n`), err: (l) => process.stderr.write(`${l}\n`), env: process.env };
}

function locations(io: PolicyIo, policiesFlag: string | undefined): { keysDir: string; policiesDir: string } {
  const home = io.env.AGENT_SUDO_HOME ? resolve(io.env.AGENT_SUDO_HOME) : defaultHome();
  const config = loadConfig(home);
  return { keysDir: config.keysDir, policiesDir: policiesFlag ? resolve(policiesFlag) : config.policiesDir };
}

function vaultSettings(io: PolicyIo): VaultSettings {
  const s = vaultSettingsFromEnv(io.env);
  if (!s) {
    throw new UsageError(
      "the vault-transit backend needs AGENT_SUDO_VAULT_ADDR, AGENT_SUDO_VAULT_ROLE_ID_FILE and AGENT_SUDO_VAULT_SECRET_ID_FILE (and AGENT_SUDO_VAULT_TRANSIT_KEY unless the key is agent-sudo-policy)",
    );
  }
  return s;
}

/** Refuse to sign what the classifier would refuse to load. */
function checkParses(dir: string): string | null {
  try {
    const parsed = POLICY_FILES.map((f) => {
      const path = join(dir, f);
      if (!existsSync(path)) throw new PolicyError(`${path}: policy file missing`);
      return parsePolicy(readFileSync(path, "utf8"), path);
    });
    checkUnique(parsed);
    const proposals = join(dir, PROPOSALS_FILE);
    if (existsSync(proposals)) {
      try {
        JSON.parse(readFileSync(proposals, "utf8"));
      } catch (err) {
        throw new PolicyError(`${proposals}: not valid JSON (${(err as Error).message})`);
      }
    }
    return null;
  } catch (err) {
    if (err instanceof PolicyError) return err.message;
    throw err;
  }
}

function report(io: PolicyIo, dir: string, keysDir: string): number {
  const result = verifyPolicies(dir, loadTrustedKeys(keysDir));
  for (const f of result.files) {
    const line = `${f.file}: ${f.state === "signed" ? "signed" : f.state.toUpperCase()} — ${f.reason}`;
    if (f.state === "signed") io.out(line);
    else io.err(line);
  }
  io.out(`policies in ${dir}: ${result.state}`);
  return result.state === "signed" ? 0 : 1;
}

async function sign(args: string[], io: PolicyIo): Promise<number> {
  const { values } = parseArgs({ args, options: { backend: { type: "string" }, policies: { type: "string" } } });
  const backend = (values.backend ?? io.env.AGENT_SUDO_POLICY_BACKEND ?? "local") as Backend;
  if (!(BACKENDS as readonly string[]).includes(backend))
    throw new UsageError(`--backend: ${backend} is not one of ${BACKENDS.join(", ")}`);
  const { keysDir, policiesDir } = locations(io, values.policies);
  const problem = checkParses(policiesDir);
  if (problem) {
    io.err(`policy sign: refusing to sign a policy that does not load: ${problem}`);
    return 1;
  }
  let result: Awaited<ReturnType<typeof signPolicies>>;
  if (backend === "local") {
    result = await signPolicies(policiesDir, localSigner(keysDir));
  } else {
    const settings = vaultSettings(io);
    result = await withVaultToken(settings, async (vault) => {
      const r = await signPolicies(policiesDir, transitSigner(vault, settings));
      const cache = saveVaultKeyCache(keysDir, settings, await transitPublicKeys(vault, settings));
      io.out(`transit public keys cached in ${cache}`);
      return r;
    });
  }
  for (const s of result.signed) io.out(`signed ${s.file}  sha256 ${s.sha256.slice(0, 16)}…  key ${s.keyId}`);
  for (const r of result.removed) io.out(`removed stale ${r}`);
  return report(io, policiesDir, keysDir);
}

async function verifyCommand(args: string[], io: PolicyIo): Promise<number> {
  const { values } = parseArgs({ args, options: { policies: { type: "string" }, "fetch-vault-keys": { type: "boolean" } } });
  const { keysDir, policiesDir } = locations(io, values.policies);
  if (values["fetch-vault-keys"]) {
    const settings = vaultSettings(io);
    const keys = await withVaultToken(settings, (vault) => transitPublicKeys(vault, settings));
    io.out(`transit public keys (${keys.map((k) => `v${k.version}`).join(", ")}) cached in ${saveVaultKeyCache(keysDir, settings, keys)}`);
  }
  return report(io, policiesDir, keysDir);
}

function keygen(args: string[], io: PolicyIo): number {
  parseArgs({ args, options: {} });
  const { keysDir } = locations(io, undefined);
  const k = generatePolicyKey(keysDir);
  io.out(`policy signing key ${k.keyId}`);
  io.out(`  private ${k.privateKey} (0600: keep it to the person who signs; no service needs it)`);
  io.out(`  public  ${k.publicKey}`);
  io.out("next: agent-sudo policy sign");
  return 0;
}

export async function policyCommand(argv: string[], io: PolicyIo = stdio()): Promise<number> {
  return dispatch(
    "policy",
    USAGE,
    { sign: (a) => sign(a, io), verify: (a) => verifyCommand(a, io), keygen: (a) => keygen(a, io), diff: (a) => policyDiffCommand(a, io) },
    argv,
    io,
  );
}
