// `agent-sudo policy sign|verify|keygen`, local key and Vault transit. The
// Vault side is a STAND-IN HTTP server on 127.0.0.1 (test/policy/vault-stand-in.ts).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { policyCommand } from "../../cli/policy.js";
import { closedPort, startVaultStandIn, type VaultStandIn } from "./vault-stand-in.js";

const SUDO = `# SUDO.md

## Rules

| id | patterns | tier | class | hosts | state | rationale |
|---|---|---|---|---|---|---|
| systemctl-status | \`systemctl status *\` | 0 | read | - | active | service health |
| systemctl-restart | \`systemctl restart *\` | 3 | live-service | primary=4 | active | live restarts |

## Danger veto

- \`disk-wipe\`: \`\\bmkfs\\b\` — formats a filesystem
`;
const CLAUDE = `# CLAUDE_CMDS.md

## Rules

| id | patterns | tier | class | hosts | state | rationale |
|---|---|---|---|---|---|---|
| git-status | \`git status *\` | 0 | read | - | active | read only |
`;

let root: string;
let policies: string;
let env: NodeJS.ProcessEnv;

async function run(args: string[], extraEnv: NodeJS.ProcessEnv = {}): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await policyCommand(args, { out: (l) => out.push(l), err: (l) => err.push(l), env: { ...env, ...extraEnv } });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "policy-cli-"));
  policies = join(root, "policies");
  mkdirSync(policies);
  writeFileSync(join(policies, "SUDO.md"), SUDO);
  writeFileSync(join(policies, "CLAUDE_CMDS.md"), CLAUDE);
  env = { AGENT_SUDO_HOME: join(root, "home") };
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("agent-sudo policy, local backend", () => {
  it("keygen → sign → verify ok; a byte changed → verify exits 1 naming the file and why", async () => {
    const k = await run(["keygen"]);
    expect(k.code).toBe(0);
    expect(k.out).toMatch(/policy signing key local:[0-9a-f]{16}/);
    expect(existsSync(join(root, "home", "keys", "policy.key"))).toBe(true);
    expect((await run(["keygen"])).code).toBe(1);

    const s = await run(["sign", "--policies", policies]);
    expect(s.code).toBe(0);
    expect(s.out).toMatch(/signed SUDO.md\s+sha256 [0-9a-f]{16}…\s+key local:/);
    expect(s.out).toContain(`policies in ${policies}: signed`);

    const v = await run(["verify", "--policies", policies]);
    expect(v.code).toBe(0);
    expect(v.out).toMatch(/SUDO.md: signed — signed by local:/);

    writeFileSync(join(policies, "SUDO.md"), SUDO.replace("| 3 | live-service", "| 1 | live-service"));
    const t = await run(["verify", "--policies", policies]);
    expect(t.code).toBe(1);
    expect(t.err).toMatch(/SUDO.md: TAMPERED — content changed since signing/);
    expect(t.out).toContain("CLAUDE_CMDS.md: signed");
    expect(t.out).toContain(": tampered");
  });

  it("a missing signature → UNSIGNED, exit 1", async () => {
    await run(["keygen"]);
    await run(["sign", "--policies", policies]);
    rmSync(join(policies, "CLAUDE_CMDS.md.sig"));
    const v = await run(["verify", "--policies", policies]);
    expect(v.code).toBe(1);
    expect(v.err).toContain("CLAUDE_CMDS.md: UNSIGNED — no signature file (CLAUDE_CMDS.md.sig)");
  });

  it("refuses to sign a policy the classifier would refuse to load, naming file and line", async () => {
    await run(["keygen"]);
    writeFileSync(join(policies, "SUDO.md"), SUDO.replace("| 0 | read |", "| 9 | read |"));
    const s = await run(["sign", "--policies", policies]);
    expect(s.code).toBe(1);
    expect(s.err).toMatch(/refusing to sign a policy that does not load: .*SUDO.md:7: /);
    expect(existsSync(join(policies, "SUDO.md.sig"))).toBe(false);
  });

  it("sign without keygen says what to do; usage mistakes exit 2", async () => {
    const s = await run(["sign", "--policies", policies]);
    expect(s.code).toBe(1);
    expect(s.err).toContain("run `agent-sudo policy keygen` first");
    expect((await run(["frobnicate"])).code).toBe(2);
    expect((await run(["sign", "--backend", "hsm", "--policies", policies])).code).toBe(2);
    const noVault = await run(["sign", "--backend", "vault-transit", "--policies", policies]);
    expect(noVault.code).toBe(2);
    expect(noVault.err).toContain("AGENT_SUDO_VAULT_ADDR");
  });
});

describe("agent-sudo policy, vault-transit backend against a local Vault stand-in", () => {
  let standIn: VaultStandIn;
  beforeAll(async () => {
    standIn = await startVaultStandIn();
  });
  afterAll(async () => {
    await standIn.close();
  });

  function vaultEnv(addr = standIn.addr): NodeJS.ProcessEnv {
    writeFileSync(join(root, "role_id"), standIn.roleId);
    writeFileSync(join(root, "secret_id"), standIn.secretId, { mode: 0o600 });
    return {
      AGENT_SUDO_POLICY_BACKEND: "vault-transit",
      AGENT_SUDO_VAULT_ADDR: addr,
      AGENT_SUDO_VAULT_ROLE_ID_FILE: join(root, "role_id"),
      AGENT_SUDO_VAULT_SECRET_ID_FILE: join(root, "secret_id"),
      AGENT_SUDO_VAULT_TIMEOUT_MS: "2000",
    };
  }

  it("stand-in: sign via transit, verify offline, rotate, re-sign with v2, old cache flags v2 until refreshed; tokens revoked", async () => {
    const venv = vaultEnv();
    const s = await run(["sign", "--policies", policies], venv);
    expect(s.code).toBe(0);
    expect(s.out).toMatch(/key vault:transit\/agent-sudo-policy:v1/);
    expect(s.out).toContain("transit public keys cached in");
    const sig = JSON.parse(readFileSync(join(policies, "SUDO.md.sig"), "utf8"));
    expect(sig.vault_signature).toMatch(/^vault:v1:/);

    // Offline: verify sends nothing to Vault.
    const before = standIn.requests.length;
    const v = await run(["verify", "--policies", policies], venv);
    expect(v.code).toBe(0);
    expect(standIn.requests.length).toBe(before);

    // An operator rotates the key; a person re-signs: v2, and the cache now holds v1 and v2.
    standIn.rotate("agent-sudo-policy");
    writeFileSync(join(policies, "proposals.json"), '{"proposals":[]}\n');
    const s2 = await run(["sign", "--policies", policies], venv);
    expect(s2.code).toBe(0);
    expect(s2.out).toMatch(/signed proposals.json .*key vault:transit\/agent-sudo-policy:v2/);
    expect((await run(["verify", "--policies", policies], venv)).code).toBe(0);

    // A rotation + signature made elsewhere: the cache lags until --fetch-vault-keys.
    const cache = join(root, "home", "keys", "policy-vault-keys.json");
    const cached = readFileSync(cache, "utf8");
    standIn.rotate("agent-sudo-policy");
    await run(["sign", "--policies", policies], venv);
    writeFileSync(cache, cached);
    const lag = await run(["verify", "--policies", policies], venv);
    expect(lag.code).toBe(1);
    expect(lag.err).toMatch(/signed by key vault:transit\/agent-sudo-policy:v3, which is not trusted here/);
    const fresh = await run(["verify", "--fetch-vault-keys", "--policies", policies], venv);
    expect(fresh.code).toBe(0);
    expect(fresh.out).toMatch(/transit public keys \(v1, v2, v3\) cached/);

    expect(standIn.tokens.size).toBeGreaterThan(0);
    expect([...standIn.tokens.values()].every((t) => !t.live)).toBe(true);
  });

  it("Vault down → sign exits 1 with a clear message and leaves the existing signatures alone", async () => {
    await run(["sign", "--policies", policies], vaultEnv());
    const before = readFileSync(join(policies, "SUDO.md.sig"), "utf8");
    const port = await closedPort();
    writeFileSync(join(policies, "SUDO.md"), `${SUDO}\n`);
    const s = await run(["sign", "--policies", policies], vaultEnv(`http://127.0.0.1:${port}`));
    expect(s.code).toBe(1);
    expect(s.err).toContain(`Vault unreachable at http://127.0.0.1:${port}`);
    expect(readFileSync(join(policies, "SUDO.md.sig"), "utf8")).toBe(before);
  });
});
