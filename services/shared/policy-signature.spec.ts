import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startVaultStandIn, type VaultStandIn } from "../../test/policy/vault-stand-in.js";
import {
  generatePolicyKey,
  loadTrustedKeys,
  localSigner,
  saveVaultKeyCache,
  signPolicies,
  transitSigner,
  transitTrustedKeys,
  verifyPolicies,
} from "./policy-signature.js";
import { transitPublicKeys, VaultSettingsSchema, withVaultToken } from "./vault-transit.js";

let root: string;
let policies: string;
let keysDir: string;

function writePolicies(): void {
  writeFileSync(
    join(policies, "SUDO.md"),
    "# SUDO\n\n## Rules\n\n| id | patterns | tier | class | hosts | state | rationale |\n|---|---|---|---|---|---|---|\n| ls | `ls *` | 0 | read | - | active | lists |\n",
  );
  writeFileSync(join(policies, "CLAUDE_CMDS.md"), "# CLAUDE_CMDS\n\nprose only\n");
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "policy-sig-"));
  policies = join(root, "policies");
  keysDir = join(root, "keys");
  mkdirSync(policies);
  writePolicies();
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

describe("policy signatures, local backend", () => {
  it("keygen writes policy.key 0600 and policy.pub 0644, and refuses to overwrite", () => {
    const { keyId } = generatePolicyKey(keysDir);
    expect(keyId).toMatch(/^local:[0-9a-f]{16}$/);
    expect(statSync(join(keysDir, "policy.key")).mode & 0o777).toBe(0o600);
    expect(statSync(join(keysDir, "policy.pub")).mode & 0o777).toBe(0o644);
    expect(() => generatePolicyKey(keysDir)).toThrow(/already exists/);
  });

  it("sign → verify: every file signed", async () => {
    generatePolicyKey(keysDir);
    const { signed } = await signPolicies(policies, localSigner(keysDir));
    expect(signed.map((s) => s.file)).toEqual(["SUDO.md", "CLAUDE_CMDS.md"]);
    const sig = JSON.parse(readFileSync(join(policies, "SUDO.md.sig"), "utf8"));
    expect(sig).toMatchObject({ alg: "ed25519", backend: "local", file: "SUDO.md", key_version: 1 });
    expect(sig.key_id).toMatch(/^local:/);
    const v = verifyPolicies(policies, loadTrustedKeys(keysDir));
    expect(v.state).toBe("signed");
    expect(v.files.map((f) => f.state)).toEqual(["signed", "signed"]);
  });

  it("one byte changed → tampered, naming the file", async () => {
    generatePolicyKey(keysDir);
    await signPolicies(policies, localSigner(keysDir));
    const path = join(policies, "CLAUDE_CMDS.md");
    const bytes = readFileSync(path);
    bytes[3] = bytes[3]! ^ 0x01;
    writeFileSync(path, bytes);
    const v = verifyPolicies(policies, loadTrustedKeys(keysDir));
    expect(v.state).toBe("tampered");
    const bad = v.files.find((f) => f.state === "tampered");
    expect(bad?.file).toBe("CLAUDE_CMDS.md");
    expect(bad?.reason).toMatch(/content changed since signing/);
    expect(v.files.find((f) => f.file === "SUDO.md")?.state).toBe("signed");
  });

  it("a matching sha256 with a forged signature → tampered (the signature itself is checked)", async () => {
    generatePolicyKey(keysDir);
    await signPolicies(policies, localSigner(keysDir));
    const sigPath = join(policies, "SUDO.md.sig");
    const sig = JSON.parse(readFileSync(sigPath, "utf8"));
    sig.signature_b64 = Buffer.alloc(64, 1).toString("base64");
    writeFileSync(sigPath, JSON.stringify(sig));
    const v = verifyPolicies(policies, loadTrustedKeys(keysDir));
    expect(v.files.find((f) => f.file === "SUDO.md")).toMatchObject({
      state: "tampered",
      reason: expect.stringMatching(/does not verify/),
    });
  });

  it("missing signature → unsigned", async () => {
    generatePolicyKey(keysDir);
    await signPolicies(policies, localSigner(keysDir));
    rmSync(join(policies, "SUDO.md.sig"));
    const v = verifyPolicies(policies, loadTrustedKeys(keysDir));
    expect(v.state).toBe("unsigned");
    expect(v.files.find((f) => f.file === "SUDO.md")).toMatchObject({ state: "unsigned", reason: "no signature file (SUDO.md.sig)" });
  });

  it("swapping files and their signatures is caught: the signature binds the file name", async () => {
    generatePolicyKey(keysDir);
    await signPolicies(policies, localSigner(keysDir));
    copyFileSync(join(policies, "SUDO.md"), join(policies, "CLAUDE_CMDS.md"));
    const sig = JSON.parse(readFileSync(join(policies, "SUDO.md.sig"), "utf8"));
    sig.file = "CLAUDE_CMDS.md";
    writeFileSync(join(policies, "CLAUDE_CMDS.md.sig"), JSON.stringify(sig));
    const v = verifyPolicies(policies, loadTrustedKeys(keysDir));
    expect(v.files.find((f) => f.file === "CLAUDE_CMDS.md")?.state).toBe("tampered");
  });

  it("a key that is not trusted here → tampered; a malformed .sig → tampered", async () => {
    generatePolicyKey(keysDir);
    await signPolicies(policies, localSigner(keysDir));
    const otherKeys = join(root, "other-keys");
    generatePolicyKey(otherKeys);
    const v = verifyPolicies(policies, loadTrustedKeys(otherKeys));
    expect(v.state).toBe("tampered");
    expect(v.files[0]?.reason).toMatch(/not trusted here/);
    writeFileSync(join(policies, "SUDO.md.sig"), "{not json");
    expect(verifyPolicies(policies, loadTrustedKeys(keysDir)).files[0]?.reason).toMatch(/malformed/);
  });

  it("proposals.json is signed when present; a stale proposals.json.sig is tampered, and removed by the next sign", async () => {
    generatePolicyKey(keysDir);
    writeFileSync(join(policies, "proposals.json"), '{"proposals":[]}\n');
    const { signed } = await signPolicies(policies, localSigner(keysDir));
    expect(signed.map((s) => s.file)).toContain("proposals.json");
    expect(verifyPolicies(policies, loadTrustedKeys(keysDir)).state).toBe("signed");
    rmSync(join(policies, "proposals.json"));
    const v = verifyPolicies(policies, loadTrustedKeys(keysDir));
    expect(v.files.find((f) => f.file === "proposals.json")).toMatchObject({ state: "tampered" });
    const again = await signPolicies(policies, localSigner(keysDir));
    expect(again.removed).toEqual(["proposals.json.sig"]);
    expect(existsSync(join(policies, "proposals.json.sig"))).toBe(false);
    expect(verifyPolicies(policies, loadTrustedKeys(keysDir)).state).toBe("signed");
  });

  it("a missing policy file is never 'signed'", () => {
    rmSync(join(policies, "CLAUDE_CMDS.md"));
    const v = verifyPolicies(policies, []);
    expect(v.files.find((f) => f.file === "CLAUDE_CMDS.md")).toMatchObject({ state: "unsigned", reason: "policy file missing" });
  });

  it("signing without a key says to run keygen", () => {
    expect(() => localSigner(keysDir)).toThrow(/agent-sudo policy keygen/);
  });
});

describe("policy signatures, vault-transit backend against a local Vault stand-in", () => {
  let standIn: VaultStandIn;
  beforeAll(async () => {
    standIn = await startVaultStandIn();
  });
  afterAll(async () => {
    await standIn.close();
  });

  function settings() {
    const role = join(root, "role_id");
    const secret = join(root, "secret_id");
    writeFileSync(role, standIn.roleId);
    writeFileSync(secret, standIn.secretId, { mode: 0o600 });
    return VaultSettingsSchema.parse({ addr: standIn.addr, role_id_file: role, secret_id_file: secret });
  }

  it("stand-in: sign through transit, cache the public keys, verify offline; rotation keeps old signatures valid", async () => {
    const s = settings();
    const sign = () =>
      withVaultToken(s, async (vault) => {
        await signPolicies(policies, transitSigner(vault, s));
        saveVaultKeyCache(keysDir, s, await transitPublicKeys(vault, s));
      });
    await sign();
    const sig1 = JSON.parse(readFileSync(join(policies, "SUDO.md.sig"), "utf8"));
    expect(sig1).toMatchObject({ backend: "vault-transit", key_id: "vault:transit/agent-sudo-policy:v1", key_version: 1 });
    expect(sig1.vault_signature).toBe(`vault:v1:${sig1.signature_b64}`);
    expect(verifyPolicies(policies, loadTrustedKeys(keysDir)).state).toBe("signed");
    const cached = loadTrustedKeys(keysDir);

    standIn.rotate("agent-sudo-policy");
    writeFileSync(join(policies, "proposals.json"), "[]\n");
    await withVaultToken(s, async (vault) => {
      await signPolicies(policies, transitSigner(vault, s));
    });
    const sig2 = JSON.parse(readFileSync(join(policies, "proposals.json.sig"), "utf8"));
    expect(sig2.key_id).toBe("vault:transit/agent-sudo-policy:v2");
    // The old cache does not know v2 yet: untrusted, with a hint.
    const stale = verifyPolicies(policies, cached);
    expect(stale.state).toBe("tampered");
    expect(stale.files[0]?.reason).toMatch(/v2, which is not trusted here/);
    // Refreshing the cache trusts both versions.
    const keys = await withVaultToken(s, (vault) => transitPublicKeys(vault, s));
    expect(verifyPolicies(policies, transitTrustedKeys(keys)).state).toBe("signed");
    // Every token the stand-in issued has been revoked.
    expect([...standIn.tokens.values()].every((t) => !t.live)).toBe(true);
  });
});
