import { verify } from "node:crypto";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { closedPort, startVaultStandIn, type VaultStandIn } from "../../test/policy/vault-stand-in.js";
import {
  ed25519FromRaw,
  kv2Read,
  parseVaultSignature,
  transitPublicKeys,
  transitSign,
  VaultError,
  vaultSettingsFromEnv,
  VaultSettingsSchema,
  withVaultToken,
  type VaultSettings,
} from "./vault-transit.js";

let standIn: VaultStandIn;
let dir: string;

function settingsFor(addr: string, secretId?: string): VaultSettings {
  const roleFile = join(dir, "role_id");
  const secretFile = join(dir, `secret_id-${Math.random().toString(36).slice(2)}`);
  writeFileSync(roleFile, `${standIn.roleId}\n`);
  writeFileSync(secretFile, `${secretId ?? standIn.secretId}\n`, { mode: 0o600 });
  return VaultSettingsSchema.parse({ addr, role_id_file: roleFile, secret_id_file: secretFile, timeout_ms: 2000 });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "vault-transit-"));
  standIn = await startVaultStandIn();
});
afterAll(async () => {
  await standIn.close();
  rmSync(dir, { recursive: true, force: true });
});
afterEach(() => {
  standIn.sealed = false;
});

describe("vault-transit against a local Vault stand-in (127.0.0.1)", () => {
  it("stand-in: AppRole login, transit sign, offline verify with the public key from transit/keys, token revoked after", async () => {
    const settings = settingsFor(standIn.addr);
    const data = Buffer.from("policy bytes\n");
    const before = standIn.requests.length;
    const { sig, keys } = await withVaultToken(settings, async (vault) => ({
      sig: await transitSign(vault, settings, data),
      keys: await transitPublicKeys(vault, settings),
    }));
    expect(sig.vaultSignature).toMatch(/^vault:v1:/);
    expect(sig.keyVersion).toBe(1);
    const key = keys.find((k) => k.version === sig.keyVersion);
    expect(key?.keyId).toBe("vault:transit/agent-sudo-policy:v1");
    expect(verify(null, data, ed25519FromRaw(key!.publicKeyB64, "v1"), Buffer.from(sig.signatureB64, "base64"))).toBe(true);

    const mine = standIn.requests.slice(before);
    expect(mine.map((r) => `${r.method} ${r.path}`)).toEqual([
      "POST /v1/auth/approle/login",
      "POST /v1/transit/sign/agent-sudo-policy",
      "GET /v1/transit/keys/agent-sudo-policy",
      "POST /v1/auth/token/revoke-self",
    ]);
    const token = mine[1]?.token;
    expect(token).toBeTruthy();
    expect(standIn.tokens.get(token!)?.live).toBe(false);
  });

  it("stand-in: the login carries no token even when VAULT_TOKEN is set in the environment", async () => {
    const settings = settingsFor(standIn.addr);
    process.env.VAULT_TOKEN = "hvs.from-the-environment";
    try {
      const before = standIn.requests.length;
      await withVaultToken(settings, async () => undefined);
      expect(standIn.requests[before]?.token).toBeNull();
    } finally {
      delete process.env.VAULT_TOKEN;
    }
  });

  it("stand-in: key rotation — the next signature carries v2, both versions stay verifiable", async () => {
    const settings = settingsFor(standIn.addr);
    const data = Buffer.from("after rotation");
    const v1 = await withVaultToken(settings, (vault) => transitSign(vault, settings, data));
    expect(standIn.rotate("agent-sudo-policy")).toBe(2);
    const { v2, keys } = await withVaultToken(settings, async (vault) => ({
      v2: await transitSign(vault, settings, data),
      keys: await transitPublicKeys(vault, settings),
    }));
    expect(v2.vaultSignature).toMatch(/^vault:v2:/);
    expect(keys.map((k) => k.version)).toEqual([1, 2]);
    for (const s of [v1, v2]) {
      const k = keys.find((x) => x.version === s.keyVersion)!;
      expect(verify(null, data, ed25519FromRaw(k.publicKeyB64, "k"), Buffer.from(s.signatureB64, "base64"))).toBe(true);
    }
    // v1's key does not verify v2's signature: the version matters.
    expect(verify(null, data, ed25519FromRaw(keys[0]!.publicKeyB64, "k"), Buffer.from(v2.signatureB64, "base64"))).toBe(false);
  });

  it("stand-in: the token is revoked even when the work fails", async () => {
    const settings = settingsFor(standIn.addr);
    const before = standIn.requests.length;
    await expect(withVaultToken(settings, async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    const mine = standIn.requests.slice(before);
    expect(mine.at(-1)?.path).toBe("/v1/auth/token/revoke-self");
    expect(standIn.tokens.get(mine.at(-1)!.token!)?.live).toBe(false);
  });

  it("Vault down → a clear VAULT_UNREACHABLE error naming the address", async () => {
    const port = await closedPort();
    const settings = settingsFor(`http://127.0.0.1:${port}`);
    const err = await withVaultToken(settings, async () => undefined).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(VaultError);
    expect((err as VaultError).code).toBe("VAULT_UNREACHABLE");
    expect((err as VaultError).message).toContain(`Vault unreachable at http://127.0.0.1:${port}`);
    expect((err as VaultError).message).toContain("AppRole login");
  });

  it("stand-in: sealed → VAULT_SEALED; wrong secret_id → VAULT_LOGIN_REFUSED without echoing it", async () => {
    standIn.sealed = true;
    const sealed = await withVaultToken(settingsFor(standIn.addr), async () => undefined).catch((e: unknown) => e);
    expect((sealed as VaultError).code).toBe("VAULT_SEALED");
    standIn.sealed = false;
    const refused = await withVaultToken(settingsFor(standIn.addr, "not-the-secret-id"), async () => undefined).catch((e: unknown) => e);
    expect((refused as VaultError).code).toBe("VAULT_LOGIN_REFUSED");
    expect((refused as VaultError).message).not.toContain("not-the-secret-id");
  });

  it("refuses a world-readable secret_id file before any request", async () => {
    const settings = settingsFor(standIn.addr);
    chmodSync(settings.secret_id_file, 0o644);
    const before = standIn.requests.length;
    await expect(withVaultToken(settings, async () => undefined)).rejects.toThrow(/world-readable/);
    expect(standIn.requests.length).toBe(before);
  });

  it("stand-in: KV v2 read returns data.data", async () => {
    standIn.kv.set("secret/app", { api_key: "k-123" });
    const settings = settingsFor(standIn.addr);
    const data = await withVaultToken(settings, (vault) => kv2Read(vault, settings, "secret", "app"));
    expect(data).toEqual({ api_key: "k-123" });
    const missing = await withVaultToken(settings, (vault) => kv2Read(vault, settings, "secret", "nope")).catch((e: unknown) => e);
    expect((missing as VaultError).code).toBe("VAULT_NOT_FOUND");
  });

  it("parses vault:vN: signatures strictly", () => {
    const sig = Buffer.alloc(64, 7).toString("base64");
    expect(parseVaultSignature(`vault:v12:${sig}`)).toEqual({ keyVersion: 12, signatureB64: sig });
    expect(() => parseVaultSignature(`vault:v0:${sig}`)).toThrow();
    expect(() => parseVaultSignature(`vault:v1:${Buffer.alloc(32).toString("base64")}`)).toThrow(/64/);
    expect(() => parseVaultSignature("MEUCIQ")).toThrow();
  });

  it("reads its settings from AGENT_SUDO_VAULT_* and names the bad variable", () => {
    expect(vaultSettingsFromEnv({})).toBeNull();
    const s = vaultSettingsFromEnv({
      AGENT_SUDO_VAULT_ADDR: "https://vault.example:8200",
      AGENT_SUDO_VAULT_ROLE_ID_FILE: "/r",
      AGENT_SUDO_VAULT_SECRET_ID_FILE: "/s",
    });
    expect(s).toMatchObject({ transit_mount: "transit", transit_key: "agent-sudo-policy", approle_mount: "approle", timeout_ms: 5000 });
    expect(() => vaultSettingsFromEnv({ AGENT_SUDO_VAULT_ADDR: "https://v", AGENT_SUDO_VAULT_SECRET_ID_FILE: "/s" })).toThrow(
      /AGENT_SUDO_VAULT_ROLE_ID_FILE/,
    );
  });
});
