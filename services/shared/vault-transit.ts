// Vault, as agent-sudo uses it: AppRole login for a short-lived token, the
// transit engine's ed25519 sign and public-key read, then `revoke-self`.
// node-vault carries the HTTP; it has no transit helper, so sign is a plain
// `write('transit/sign/KEY', {input})`.
//
// Trusts: the Vault address it is configured with (TLS when https). Refuses:
// a world-readable secret_id file, a key that is not ed25519, a signature
// string that is not `vault:vN:<base64>`. Fails: every Vault problem becomes a
// VaultError whose message names the address and the step (unreachable,
// sealed, login refused, permission denied); secret_id and tokens never
// appear in a message or a log line (node-vault's debug output is silenced).
import { createPublicKey, type KeyObject } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import NodeVault from "node-vault";
import { z } from "zod";

import { VaultSettingsSchema, type VaultSettings } from "./vault-settings.js";

export { VaultSettingsSchema, type VaultSettings };

/**
 * Until the config keys land: AGENT_SUDO_VAULT_ADDR, _ROLE_ID_FILE,
 * _SECRET_ID_FILE, _APPROLE_MOUNT, _TRANSIT_MOUNT, _TRANSIT_KEY, _CA_FILE,
 * _TIMEOUT_MS. Returns null when AGENT_SUDO_VAULT_ADDR is unset.
 */
export function vaultSettingsFromEnv(env: NodeJS.ProcessEnv): VaultSettings | null {
  if (!env.AGENT_SUDO_VAULT_ADDR) return null;
  const raw: Record<string, unknown> = {
    addr: env.AGENT_SUDO_VAULT_ADDR,
    role_id_file: env.AGENT_SUDO_VAULT_ROLE_ID_FILE,
    secret_id_file: env.AGENT_SUDO_VAULT_SECRET_ID_FILE,
    approle_mount: env.AGENT_SUDO_VAULT_APPROLE_MOUNT,
    transit_mount: env.AGENT_SUDO_VAULT_TRANSIT_MOUNT,
    transit_key: env.AGENT_SUDO_VAULT_TRANSIT_KEY,
    ca_file: env.AGENT_SUDO_VAULT_CA_FILE,
    timeout_ms: env.AGENT_SUDO_VAULT_TIMEOUT_MS === undefined ? undefined : Number(env.AGENT_SUDO_VAULT_TIMEOUT_MS),
  };
  for (const k of Object.keys(raw)) if (raw[k] === undefined) delete raw[k];
  const parsed = VaultSettingsSchema.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${envName(String(i.path[0] ?? ""))}: ${i.message}`).join("; ");
    throw new VaultError("VAULT_CONFIG", `Vault settings from the environment: ${issues}`);
  }
  return parsed.data;
}

function envName(key: string): string {
  return `AGENT_SUDO_VAULT_${key.toUpperCase()}`;
}

export type VaultErrorCode =
  | "VAULT_CONFIG"
  | "VAULT_UNREACHABLE"
  | "VAULT_SEALED"
  | "VAULT_LOGIN_REFUSED"
  | "VAULT_DENIED"
  | "VAULT_NOT_FOUND"
  | "VAULT_BAD_RESPONSE";

export class VaultError extends Error {
  constructor(
    readonly code: VaultErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "VaultError";
  }
}

/** A node-vault client holding a token that `withVaultToken` revokes. */
export type VaultClient = NodeVault.client;

function readCredential(file: string, what: string): string {
  let mode: number;
  try {
    mode = statSync(file).mode;
  } catch (err) {
    throw new VaultError(
      "VAULT_CONFIG",
      `cannot read the AppRole ${what} file ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    );
  }
  if (what === "secret_id" && (mode & 0o004) !== 0) {
    throw new VaultError("VAULT_CONFIG", `${file} (the AppRole secret_id) is world-readable; chmod 600 it`);
  }
  const value = readFileSync(file, "utf8").trim();
  if (value === "" || /\s/.test(value))
    throw new VaultError("VAULT_CONFIG", `${file}: the AppRole ${what} file must hold one value on one line`);
  return value;
}

function client(settings: VaultSettings): VaultClient {
  const options: NodeVault.VaultOptions & { rpDefaults: { timeout: number; strictSSL: boolean } } = {
    endpoint: settings.addr,
    apiVersion: "v1",
    // node-vault's debug logs request bodies (the secret_id among them).
    debug: () => undefined,
    // strictSSL: VAULT_SKIP_VERIFY in the environment must not turn off TLS checks.
    rpDefaults: { timeout: settings.timeout_ms, strictSSL: true },
    ...(settings.ca_file ? { requestOptions: { ca: readFileSync(settings.ca_file) } } : {}),
  };
  const vault = NodeVault(options);
  // node-vault falls back to VAULT_TOKEN / VAULT_PREFIX from the environment;
  // this client authenticates by AppRole only and uses the documented paths.
  vault.token = "";
  (vault as unknown as { pathPrefix: string }).pathPrefix = "";
  return vault;
}

/** Turn whatever node-vault threw into a VaultError that says what to do. */
export function describeVaultFailure(err: unknown, settings: VaultSettings, step: string): VaultError {
  if (err instanceof VaultError) return err;
  const e = err as { code?: string; message?: string; response?: { statusCode?: number; body?: { errors?: unknown[] } } };
  const status = e.response?.statusCode;
  if (status === undefined) {
    const why = e.code ?? e.message ?? "no answer";
    return new VaultError(
      "VAULT_UNREACHABLE",
      `Vault unreachable at ${settings.addr} (${why}) during ${step}: is Vault running and AGENT_SUDO_VAULT_ADDR / policy.vault.addr right?`,
    );
  }
  const said = Array.isArray(e.response?.body?.errors) ? e.response.body.errors.map(String).join("; ") : "";
  const detail = said ? `: ${said}` : "";
  if (status === 503)
    return new VaultError("VAULT_SEALED", `Vault at ${settings.addr} is sealed or in standby (503) during ${step}${detail}`);
  if (status === 404) return new VaultError("VAULT_NOT_FOUND", `Vault at ${settings.addr} has no such path during ${step} (404)${detail}`);
  if (status === 403)
    return new VaultError("VAULT_DENIED", `Vault at ${settings.addr} denied ${step} (403)${detail}: check the AppRole's policy`);
  return new VaultError("VAULT_BAD_RESPONSE", `Vault at ${settings.addr} answered ${status} during ${step}${detail}`);
}

const LoginAnswer = z.object({ auth: z.object({ client_token: z.string().min(1), lease_duration: z.number().optional() }) });

/**
 * Log in by AppRole, run `fn` with the token, then revoke the token
 * (`auth/token/revoke-self`) whatever `fn` did. A failed revoke after a
 * successful `fn` is reported (the token still expires with its short TTL).
 */
export async function withVaultToken<T>(settings: VaultSettings, fn: (vault: VaultClient) => Promise<T>): Promise<T> {
  const roleId = readCredential(settings.role_id_file, "role_id");
  const secretId = readCredential(settings.secret_id_file, "secret_id");
  const vault = client(settings);
  let login: unknown;
  try {
    login = await vault.approleLogin({ mount_point: settings.approle_mount, role_id: roleId, secret_id: secretId });
  } catch (err) {
    const e = describeVaultFailure(err, settings, "AppRole login");
    if (e.code === "VAULT_BAD_RESPONSE" || e.code === "VAULT_DENIED") {
      throw new VaultError("VAULT_LOGIN_REFUSED", `${e.message} (AppRole login refused: check role_id / secret_id)`);
    }
    throw e;
  }
  const parsed = LoginAnswer.safeParse(login);
  if (!parsed.success)
    throw new VaultError("VAULT_BAD_RESPONSE", `Vault at ${settings.addr}: AppRole login answered without a client token`);
  vault.token = parsed.data.auth.client_token;
  let result: T;
  try {
    result = await fn(vault);
  } catch (err) {
    await revoke(vault).catch(() => undefined);
    throw err;
  }
  try {
    await revoke(vault);
  } catch (err) {
    throw describeVaultFailure(err, settings, "token revoke-self (the token will still expire with its TTL)");
  }
  return result;
}

async function revoke(vault: VaultClient): Promise<void> {
  await vault.tokenRevokeSelf();
  vault.token = "";
}

export interface TransitSignature {
  keyVersion: number;
  /** The raw 64-byte ed25519 signature, base64. */
  signatureB64: string;
  /** Exactly what Vault returned: `vault:vN:<base64>`. */
  vaultSignature: string;
}

const SIGNATURE = /^vault:v([1-9][0-9]*):([A-Za-z0-9+/]+={0,2})$/;

/** Split `vault:vN:<base64>` into its key version and raw signature. */
export function parseVaultSignature(value: string): { keyVersion: number; signatureB64: string } {
  const m = SIGNATURE.exec(value);
  if (!m) throw new VaultError("VAULT_BAD_RESPONSE", `not a transit signature: ${JSON.stringify(value.slice(0, 40))}`);
  const sig = Buffer.from(m[2] as string, "base64");
  if (sig.length !== 64) throw new VaultError("VAULT_BAD_RESPONSE", `transit signature is ${sig.length} bytes, an ed25519 signature is 64`);
  return { keyVersion: Number(m[1]), signatureB64: sig.toString("base64") };
}

const SignAnswer = z.object({ data: z.object({ signature: z.string() }) });

/** `transit/sign/KEY` over `data` (sent base64, as the API wants). */
export async function transitSign(vault: VaultClient, settings: VaultSettings, data: Buffer): Promise<TransitSignature> {
  const path = `${settings.transit_mount}/sign/${settings.transit_key}`;
  let answer: unknown;
  try {
    answer = await vault.write(path, { input: data.toString("base64") });
  } catch (err) {
    throw describeVaultFailure(err, settings, `sign with ${path}`);
  }
  const parsed = SignAnswer.safeParse(answer);
  if (!parsed.success) throw new VaultError("VAULT_BAD_RESPONSE", `Vault at ${settings.addr}: ${path} answered without data.signature`);
  const { keyVersion, signatureB64 } = parseVaultSignature(parsed.data.data.signature);
  return { keyVersion, signatureB64, vaultSignature: parsed.data.data.signature };
}

export interface TransitPublicKey {
  /** `vault:<mount>/<key>:v<N>` — what a signature file's key_id names. */
  keyId: string;
  version: number;
  /** Raw 32-byte ed25519 public key, base64 (Vault's `public_key`). */
  publicKeyB64: string;
}

const KeysAnswer = z.object({
  data: z.object({
    type: z.string(),
    keys: z.record(z.string(), z.unknown()),
    min_decryption_version: z.number().int().optional(),
  }),
});
const KeyVersion = z.object({ public_key: z.string().min(1) });

export function transitKeyId(settings: Pick<VaultSettings, "transit_mount" | "transit_key">, version: number): string {
  return `vault:${settings.transit_mount}/${settings.transit_key}:v${version}`;
}

/**
 * Read `transit/keys/KEY`: every version's public key, for offline
 * verification. Versions below `min_decryption_version` are left out: Vault
 * itself no longer verifies signatures made with them.
 */
export async function transitPublicKeys(vault: VaultClient, settings: VaultSettings): Promise<TransitPublicKey[]> {
  const path = `${settings.transit_mount}/keys/${settings.transit_key}`;
  let answer: unknown;
  try {
    answer = await vault.read(path);
  } catch (err) {
    throw describeVaultFailure(err, settings, `read ${path}`);
  }
  const parsed = KeysAnswer.safeParse(answer);
  if (!parsed.success) throw new VaultError("VAULT_BAD_RESPONSE", `Vault at ${settings.addr}: ${path} answered without data.keys`);
  const key = parsed.data.data;
  if (key.type !== "ed25519") throw new VaultError("VAULT_BAD_RESPONSE", `${path} is a ${key.type} key; policy signing needs type=ed25519`);
  const min = key.min_decryption_version ?? 1;
  const out: TransitPublicKey[] = [];
  for (const [v, entry] of Object.entries(key.keys)) {
    const version = Number(v);
    if (!Number.isInteger(version) || version < 1)
      throw new VaultError("VAULT_BAD_RESPONSE", `${path}: key version ${JSON.stringify(v)} is not a number`);
    if (version < min) continue;
    const entryKey = KeyVersion.safeParse(entry);
    if (!entryKey.success) throw new VaultError("VAULT_BAD_RESPONSE", `${path}: version ${v} carries no public_key`);
    ed25519FromRaw(entryKey.data.public_key, `${path} v${v}`);
    out.push({ keyId: transitKeyId(settings, version), version, publicKeyB64: entryKey.data.public_key });
  }
  if (out.length === 0) throw new VaultError("VAULT_BAD_RESPONSE", `${path}: no usable key versions`);
  return out.sort((a, b) => a.version - b.version);
}

/** A raw 32-byte ed25519 public key (base64) as a KeyObject. */
export function ed25519FromRaw(publicKeyB64: string, what: string): KeyObject {
  const raw = Buffer.from(publicKeyB64, "base64");
  if (raw.length !== 32) throw new VaultError("VAULT_BAD_RESPONSE", `${what}: public key is ${raw.length} bytes, an ed25519 key is 32`);
  return createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x: raw.toString("base64url") }, format: "jwk" });
}

const KvAnswer = z.object({ data: z.object({ data: z.record(z.string(), z.unknown()).nullable() }) });

/** KV v2 read: `GET <mount>/data/<path>` → `data.data`. */
export async function kv2Read(vault: VaultClient, settings: VaultSettings, mount: string, path: string): Promise<Record<string, unknown>> {
  const apiPath = `${mount}/data/${path}`;
  let answer: unknown;
  try {
    answer = await vault.read(apiPath);
  } catch (err) {
    throw describeVaultFailure(err, settings, `read ${apiPath}`);
  }
  const parsed = KvAnswer.safeParse(answer);
  if (!parsed.success || parsed.data.data.data === null) {
    throw new VaultError(
      "VAULT_BAD_RESPONSE",
      `Vault at ${settings.addr}: ${apiPath} answered without data.data (deleted version, or not a KV v2 mount?)`,
    );
  }
  return parsed.data.data.data;
}
