// Secrets by reference (constrained-autonomy D3): `/exec` may carry
// `env_secrets: {NAME: "vault://MOUNT/PATH#FIELD"}`; the gateway resolves each
// through Vault KV v2 (`GET /v1/MOUNT/data/PATH` → `data.data[FIELD]`) with a
// short-lived AppRole token and hands the values to the executor as
// environment variables. Off unless configured.
//
// Trusts: Vault for the values; the configured `allowed` prefixes for which
// references a caller may name. Refuses: a malformed reference, a name that
// steers the loader or the shell (LD_*, BASH_ENV, PATH …), a reference outside
// `allowed`, a value that is not a string or holds a NUL. Never: logs, audits
// or returns a value — errors name the variable and the reference only; the
// result object serialises as "[redacted]" (JSON.stringify, pino, inspect)
// while spreading it into an env still works; `redactSecrets` scrubs values
// from output. Limit, stated plainly: a command that is given a secret can
// transform it (base64, rev) past any redaction of its output; what keeps a
// secret in is which callers may reference it (`allowed`) and the Vault
// policy of the gateway's AppRole.
//
// Which names may carry a secret: services/shared/env-names.ts (the same
// check the classifier, the concurrence and the executor make).
//
// `vault://secret/app#key` and `vault://secret/data/app#key` both mean mount
// `secret`, path `app` (the second is the API path as Vault's docs print it).
import { inspect } from "node:util";
import type { Config } from "../shared/config.js";
import { envNameProblem, MAX_ENV_SECRETS } from "../shared/env-names.js";
import { kv2Read, VaultError, type VaultClient, type VaultSettings, withVaultToken } from "../shared/vault-transit.js";
import { answer, type HttpErrorWord } from "./answers.js";
import type { HttpAnswer } from "./refusal.js";

/** The `secrets` config block (services/shared/config.ts). */
export type SecretsSettings = Config["secrets"];

export type SecretsErrorCode =
  | "SECRETS_DISABLED"
  | "SECRET_REF_INVALID"
  | "SECRET_NOT_ALLOWED"
  | "SECRET_NOT_FOUND"
  | "SECRETS_UNAVAILABLE";

/** Maps to HTTP: DISABLED/REF_INVALID 400, NOT_ALLOWED 403, NOT_FOUND 400, UNAVAILABLE 503. */
export class SecretsError extends Error {
  constructor(
    readonly code: SecretsErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "SecretsError";
  }
}

const REF =
  /^vault:\/\/([A-Za-z0-9_-][A-Za-z0-9._-]*)\/((?:[A-Za-z0-9_-][A-Za-z0-9._-]*\/)*[A-Za-z0-9_-][A-Za-z0-9._-]*)#([A-Za-z0-9_.-]{1,128})$/;
export const MAX_SECRETS = MAX_ENV_SECRETS;

export interface SecretRef {
  name: string;
  ref: string;
  mount: string;
  path: string;
  field: string;
}

/** Validate `env_secrets` and split each reference. Throws SecretsError naming the variable. */
export function parseSecretRefs(refs: unknown): SecretRef[] {
  if (refs === null || typeof refs !== "object" || Array.isArray(refs))
    throw new SecretsError("SECRET_REF_INVALID", "env_secrets must be an object of NAME → vault://mount/path#field");
  const entries = Object.entries(refs as Record<string, unknown>);
  if (entries.length > MAX_SECRETS) throw new SecretsError("SECRET_REF_INVALID", `env_secrets: at most ${MAX_SECRETS} names`);
  return entries.map(([name, ref]) => {
    const problem = envNameProblem(name);
    if (problem) throw new SecretsError("SECRET_REF_INVALID", `env_secrets.${name.slice(0, 64)}: ${problem}; it cannot carry a secret`);
    if (typeof ref !== "string") throw new SecretsError("SECRET_REF_INVALID", `env_secrets.${name}: the reference must be a string`);
    const m = REF.exec(ref);
    if (!m || ref.split("/").some((seg) => seg === "." || seg === "..")) {
      throw new SecretsError(
        "SECRET_REF_INVALID",
        `env_secrets.${name}: ${JSON.stringify(ref.slice(0, 200))} is not vault://mount/path#field`,
      );
    }
    const mount = m[1] as string;
    let path = m[2] as string;
    if (path.startsWith("data/") && path.length > 5) path = path.slice(5);
    return { name, ref, mount, path, field: m[3] as string };
  });
}

/** The variable names, for the audit (never the values, never the references' fields' contents). */
export function names(refs: Record<string, string>): string[] {
  return Object.keys(refs).sort();
}

/** Whether `ref` falls under one of the allowed prefixes (a prefix ending in "/" is a directory). */
export function isAllowed(ref: SecretRef, allowed: readonly string[]): boolean {
  const canonical = `vault://${ref.mount}/${ref.path}`;
  return allowed.some((p) => (p.endsWith("/") ? canonical.startsWith(p) : canonical === p || canonical.startsWith(`${p}/`)));
}

/** What resolveEnvSecrets needs from Vault: one KV v2 read. */
export interface KvReader {
  kvRead(mount: string, path: string): Promise<Record<string, unknown>>;
}

/** A KvReader over a logged-in node-vault client (see withVaultToken). */
export function vaultKvReader(vault: VaultClient, settings: VaultSettings): KvReader {
  return { kvRead: (mount, path) => kv2Read(vault, settings, mount, path) };
}

function sealed(values: Record<string, string>): Record<string, string> {
  const redacted = () => Object.fromEntries(Object.keys(values).map((k) => [k, "[redacted]"]));
  Object.defineProperty(values, "toJSON", { value: redacted, enumerable: false });
  Object.defineProperty(values, inspect.custom, { value: () => `SecretValues ${inspect(redacted())}`, enumerable: false });
  return values;
}

/**
 * Resolve every reference; all or nothing. Each (mount, path) is read once.
 * `allowed`: the reference prefixes callers may name ("any" only where Vault's
 * own policy is the whole restriction, e.g. tests).
 */
export async function resolveEnvSecrets(
  refs: Record<string, string>,
  vaultClient: KvReader,
  allowed: readonly string[] | "any",
): Promise<Record<string, string>> {
  const parsed = parseSecretRefs(refs);
  if (allowed !== "any") {
    for (const r of parsed)
      if (!isAllowed(r, allowed))
        throw new SecretsError("SECRET_NOT_ALLOWED", `env_secrets.${r.name}: ${r.ref} is outside the references this gateway may resolve`);
  }
  const documents = new Map<string, Promise<Record<string, unknown>>>();
  const out: Record<string, string> = {};
  for (const r of parsed) {
    const key = `${r.mount}\0${r.path}`;
    if (!documents.has(key)) documents.set(key, vaultClient.kvRead(r.mount, r.path));
    let doc: Record<string, unknown>;
    try {
      doc = await (documents.get(key) as Promise<Record<string, unknown>>);
    } catch (err) {
      if (err instanceof VaultError && (err.code === "VAULT_NOT_FOUND" || err.code === "VAULT_BAD_RESPONSE")) {
        throw new SecretsError("SECRET_NOT_FOUND", `env_secrets.${r.name}: ${r.ref}: no such secret (${err.code})`);
      }
      if (err instanceof VaultError && err.code === "VAULT_DENIED")
        throw new SecretsError("SECRET_NOT_ALLOWED", `env_secrets.${r.name}: ${r.ref}: Vault denied the read`);
      throw new SecretsError(
        "SECRETS_UNAVAILABLE",
        `env_secrets.${r.name}: ${r.ref}: ${err instanceof Error ? err.message : "Vault read failed"}`,
      );
    }
    if (!Object.hasOwn(doc, r.field))
      throw new SecretsError("SECRET_NOT_FOUND", `env_secrets.${r.name}: ${r.ref}: the secret has no field ${r.field}`);
    const value = doc[r.field];
    if (typeof value !== "string")
      throw new SecretsError(
        "SECRET_NOT_FOUND",
        `env_secrets.${r.name}: ${r.ref}: the field is a ${value === null ? "null" : typeof value}, not a string`,
      );
    if (value.includes("\0"))
      throw new SecretsError(
        "SECRET_NOT_FOUND",
        `env_secrets.${r.name}: ${r.ref}: the value holds a NUL byte and cannot go into an environment`,
      );
    out[r.name] = value;
  }
  return sealed(out);
}

/**
 * Resolve through Vault with the configured AppRole: login, read, revoke.
 * Throws SecretsError (SECRETS_DISABLED when off; SECRETS_UNAVAILABLE when Vault is down).
 */
export async function resolveEnvSecretsFromVault(refs: Record<string, string>, settings: SecretsSettings): Promise<Record<string, string>> {
  if (!settings.enabled || !settings.vault) throw new SecretsError("SECRETS_DISABLED", "env_secrets is not enabled on this gateway");
  parseSecretRefs(refs); // refuse malformed input before any Vault traffic
  const vault = settings.vault;
  try {
    return await withVaultToken(vault, (client) => resolveEnvSecrets(refs, vaultKvReader(client, vault), settings.allowed));
  } catch (err) {
    if (err instanceof SecretsError) throw err;
    throw new SecretsError("SECRETS_UNAVAILABLE", err instanceof Error ? err.message : "Vault unavailable");
  }
}

/**
 * What /exec can check before classifying: the feature is on, every name and
 * reference is well formed, every reference is one this gateway may resolve.
 * No Vault traffic. Throws SecretsError.
 */
export function precheckEnvSecrets(refs: unknown, settings: SecretsSettings): void {
  if (!settings.enabled || !settings.vault)
    throw new SecretsError("SECRETS_DISABLED", "env_secrets is not enabled on this gateway (config secrets.enabled)");
  for (const r of parseSecretRefs(refs)) {
    if (!isAllowed(r, settings.allowed))
      throw new SecretsError("SECRET_NOT_ALLOWED", `env_secrets.${r.name}: ${r.ref} is outside the references this gateway may resolve`);
  }
}

const SECRETS_HTTP: Record<SecretsErrorCode, HttpErrorWord> = {
  SECRETS_DISABLED: "bad_request",
  SECRET_REF_INVALID: "bad_request",
  SECRET_NOT_FOUND: "bad_request",
  SECRET_NOT_ALLOWED: "refused",
  SECRETS_UNAVAILABLE: "unavailable",
};

/** The HTTP answer for a SecretsError: names and references only, never a value. */
export function secretsAnswer(err: SecretsError, requestId: string): HttpAnswer {
  const error = SECRETS_HTTP[err.code];
  return answer(error, {
    code: err.code,
    details: err.message,
    request_id: requestId,
    ...(error === "unavailable" ? { component: "vault" } : {}),
  });
}

/** Replace every secret value found in `text` by [redacted:NAME], longest values first. */
export function redactSecrets(text: string, values: Record<string, string>): string {
  const pairs = Object.entries(values)
    .filter(([, v]) => v.length > 0)
    .sort((a, b) => b[1].length - a[1].length);
  let out = text;
  for (const [name, v] of pairs) out = out.split(v).join(`[redacted:${name}]`);
  return out;
}
