import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { inspect } from "node:util";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closedPort, startVaultStandIn, type VaultStandIn } from "../../test/policy/vault-stand-in.js";
import {
  isAllowed,
  names,
  parseSecretRefs,
  redactSecrets,
  resolveEnvSecrets,
  resolveEnvSecretsFromVault,
  SecretsError,
  type KvReader,
  type SecretsSettings,
} from "./secrets.js";
import { SecretsSettingsSchema } from "../shared/config.js";

const DB_PASSWORD = "pw-Zq8!vault-only";
const API_KEY = "ak-5b1f0e77c2";

let standIn: VaultStandIn;
let dir: string;

function settings(addr: string, allowed = ["vault://secret/agent-sudo/"]): SecretsSettings {
  writeFileSync(join(dir, "role_id"), standIn.roleId);
  writeFileSync(join(dir, "secret_id"), standIn.secretId, { mode: 0o600 });
  return SecretsSettingsSchema.parse({
    enabled: true,
    allowed,
    vault: { addr, role_id_file: join(dir, "role_id"), secret_id_file: join(dir, "secret_id"), timeout_ms: 2000 },
  });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "secrets-"));
  standIn = await startVaultStandIn();
  standIn.kv.set("secret/agent-sudo/db", { password: DB_PASSWORD, port: 5432 });
  standIn.kv.set("secret/agent-sudo/api", { key: API_KEY });
  standIn.kv.set("secret/other/team", { token: "not-ours" });
});
afterAll(async () => {
  await standIn.close();
  rmSync(dir, { recursive: true, force: true });
});

async function failure(p: Promise<unknown>): Promise<SecretsError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SecretsError);
  return err as SecretsError;
}

describe("secrets by reference, against a local Vault stand-in (KV v2 + AppRole + revoke-self)", () => {
  it("stand-in: resolves vault:// references through KV v2; the token is revoked after", async () => {
    const before = standIn.requests.length;
    const values = await resolveEnvSecretsFromVault(
      { DB_PASSWORD: "vault://secret/agent-sudo/db#password", API_KEY: "vault://secret/data/agent-sudo/api#key" },
      settings(standIn.addr),
    );
    expect({ ...values }).toEqual({ DB_PASSWORD, API_KEY });
    const mine = standIn.requests.slice(before);
    expect(mine.map((r) => `${r.method} ${r.path}`)).toEqual([
      "POST /v1/auth/approle/login",
      "GET /v1/secret/data/agent-sudo/db",
      "GET /v1/secret/data/agent-sudo/api",
      "POST /v1/auth/token/revoke-self",
    ]);
    expect(standIn.tokens.get(mine[1]!.token!)?.live).toBe(false);
  });

  it("values never serialise: JSON, pino and inspect show [redacted]; spreading into an env still works", async () => {
    const values = await resolveEnvSecretsFromVault({ DB_PASSWORD: "vault://secret/agent-sudo/db#password" }, settings(standIn.addr));
    expect(JSON.stringify({ env: values })).toBe('{"env":{"DB_PASSWORD":"[redacted]"}}');
    expect(inspect(values)).not.toContain(DB_PASSWORD);
    const lines: string[] = [];
    const log = pino({ base: null }, new Writable({ write: (c, _e, cb) => (lines.push(String(c)), cb()) }));
    log.info({ env: values, names: names({ DB_PASSWORD: "vault://secret/agent-sudo/db#password" }) }, "exec");
    expect(lines.join("")).not.toContain(DB_PASSWORD);
    expect(lines.join("")).toContain('"names":["DB_PASSWORD"]');
    const env = { PATH: "/usr/bin", ...values };
    expect(env.DB_PASSWORD).toBe(DB_PASSWORD);
  });

  it("off unless configured: SECRETS_DISABLED and no Vault traffic", async () => {
    const before = standIn.requests.length;
    const off = SecretsSettingsSchema.parse({});
    const err = await failure(resolveEnvSecretsFromVault({ A_TOKEN: "vault://secret/agent-sudo/db#password" }, off));
    expect(err.code).toBe("SECRETS_DISABLED");
    expect(standIn.requests.length).toBe(before);
    expect(() => SecretsSettingsSchema.parse({ enabled: true })).toThrow(/needs secrets.vault/);
  });

  it("stand-in: a reference outside `allowed` is refused before it is read", async () => {
    const before = standIn.requests.length;
    const err = await failure(resolveEnvSecretsFromVault({ T_TOKEN: "vault://secret/other/team#token" }, settings(standIn.addr)));
    expect(err.code).toBe("SECRET_NOT_ALLOWED");
    expect(standIn.requests.slice(before).some((r) => r.path.includes("/data/"))).toBe(false);
  });

  it("stand-in: a missing secret or field names the variable and the reference, never a value", async () => {
    const s = settings(standIn.addr);
    const a = await failure(resolveEnvSecretsFromVault({ X_KEY: "vault://secret/agent-sudo/nope#k" }, s));
    expect(a.code).toBe("SECRET_NOT_FOUND");
    expect(a.message).toContain("env_secrets.X_KEY: vault://secret/agent-sudo/nope#k");
    const b = await failure(
      resolveEnvSecretsFromVault({ OK_KEY: "vault://secret/agent-sudo/api#key", Y_PASSWORD: "vault://secret/agent-sudo/db#user" }, s),
    );
    expect(b.message).toMatch(/env_secrets.Y_PASSWORD: .* no field user/);
    expect(b.message).not.toContain(API_KEY);
    expect(b.message).not.toContain(DB_PASSWORD);
    const c = await failure(resolveEnvSecretsFromVault({ P_PASSWORD: "vault://secret/agent-sudo/db#port" }, s));
    expect(c.message).toMatch(/is a number, not a string/);
    expect(c.message).not.toContain("5432");
  });

  it("Vault down → SECRETS_UNAVAILABLE with a clear cause", async () => {
    const port = await closedPort();
    const err = await failure(
      resolveEnvSecretsFromVault({ A_TOKEN: "vault://secret/agent-sudo/db#password" }, settings(`http://127.0.0.1:${port}`)),
    );
    expect(err.code).toBe("SECRETS_UNAVAILABLE");
    expect(err.message).toContain(`Vault unreachable at http://127.0.0.1:${port}`);
  });

  it.each([
    [{ LD_PRELOAD: "vault://secret/a/b#c" }, /steers the loader/],
    [{ PATH: "vault://secret/a/b#c" }, /steers the loader/],
    [{ BASH_FUNC_x: "vault://secret/a/b#c" }, /is not a variable name/],
    [{ lower: "vault://secret/a/b#c" }, /is not a variable name/],
    [{ DEBUG: "vault://secret/a/b#c" }, /not named like a credential/],
    [{ A_TOKEN: "vault://secret/a/../b#c" }, /is not vault:\/\/mount\/path#field/],
    [{ A_TOKEN: "vault://secret#c" }, /is not vault:/],
    [{ A_TOKEN: "vault://secret/a/b" }, /is not vault:/],
    [{ A_TOKEN: "bitwarden://item" }, /is not vault:/],
    [{ A_TOKEN: 7 }, /must be a string/],
    [["A"], /must be an object/],
  ])("refuses malformed env_secrets %j", (refs, message) => {
    expect(() => parseSecretRefs(refs)).toThrow(message);
  });

  it("reads each secret document once, all or nothing", async () => {
    const reads: string[] = [];
    const reader: KvReader = {
      kvRead: async (mount, path) => {
        reads.push(`${mount}/${path}`);
        return { u: "user", p: "pass" };
      },
    };
    const v = await resolveEnvSecrets({ U_TOKEN: "vault://kv/app#u", P_PASSWORD: "vault://kv/app#p" }, reader, "any");
    await expect(resolveEnvSecrets({ U_TOKEN: "vault://kv/app#u" }, reader, [])).rejects.toThrow(/outside the references/);
    expect({ ...v }).toEqual({ U_TOKEN: "user", P_PASSWORD: "pass" });
    expect(reads).toEqual(["kv/app"]);
  });

  it("allowed prefixes: a trailing / is a directory, otherwise an exact path or its children", () => {
    const [ref] = parseSecretRefs({ A_TOKEN: "vault://secret/agent-sudo/db#password" });
    expect(isAllowed(ref!, ["vault://secret/agent-sudo/"])).toBe(true);
    expect(isAllowed(ref!, ["vault://secret/agent-sudo"])).toBe(true);
    expect(isAllowed(ref!, ["vault://secret/agent"])).toBe(false);
    expect(isAllowed(ref!, [])).toBe(false);
  });

  it("names() lists variable names only; redactSecrets scrubs values from output", () => {
    expect(names({ B_TOKEN: "vault://x/y#z", A_TOKEN: "vault://x/y#w" })).toEqual(["A_TOKEN", "B_TOKEN"]);
    expect(redactSecrets(`connect ${DB_PASSWORD} and ${API_KEY}${API_KEY}`, { DB_PASSWORD, API_KEY })).toBe(
      "connect [redacted:DB_PASSWORD] and [redacted:API_KEY][redacted:API_KEY]",
    );
  });
});
