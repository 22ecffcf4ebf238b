// Detached signatures over the policy files: SUDO.md, CLAUDE_CMDS.md and,
// when present, proposals.json. Each FILE gets FILE.sig beside it:
//
//   {"version":1,"file":"SUDO.md","alg":"ed25519","backend":"local"|"vault-transit",
//    "key_id":"local:…"|"vault:transit/KEY:vN","key_version":N,
//    "sha256":"<hex of the file's exact bytes>","signature_b64":"<64-byte ed25519 signature>",
//    "vault_signature":"vault:vN:…" (vault-transit only),"signed_at":"ISO time"}
//
// What is signed: the exact bytes of the file, prefixed by a context that
// names it — "agent-sudo policy signature v1\0<file name>\0<bytes>" — so a
// signature for CLAUDE_CMDS.md cannot be passed off as one for SUDO.md. Vault
// transit signs the same message (ed25519 signs the input itself, not a hash).
//
// Trusts: the public keys it is handed (the local policy.pub, the cached
// transit public keys), never a key named by the signature file. Verdicts:
// "signed" (every file verifies), "unsigned" (a file has no signature),
// "tampered" (a file changed, a signature is malformed, by an untrusted key,
// or does not verify). Does not detect rollback to an older signed version.
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { ed25519FromRaw, transitKeyId, transitSign, type TransitPublicKey, type VaultClient, type VaultSettings } from "./vault-transit.js";

export const POLICY_FILES = ["SUDO.md", "CLAUDE_CMDS.md"] as const;
export const PROPOSALS_FILE = "proposals.json";
export const SIGNATURE_SUFFIX = ".sig";
export const BACKENDS = ["local", "vault-transit"] as const;
export type Backend = (typeof BACKENDS)[number];

/** The `policy` block proposed for services/shared/config.ts (the vault block is VaultSettingsSchema). */
export const POLICY_SIGNING_DEFAULTS = { signing_backend: "local", verify_enforce: false } as const;

const CONTEXT = "agent-sudo policy signature v1";
const MAX_POLICY_BYTES = 4 * 1024 * 1024;

const SignatureFileSchema = z
  .object({
    version: z.literal(1),
    file: z.string().min(1),
    alg: z.literal("ed25519"),
    backend: z.enum(BACKENDS),
    key_id: z.string().min(1).max(200),
    key_version: z.number().int().min(1),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
    signature_b64: z.string().regex(/^[A-Za-z0-9+/]{86}==$/, "not a 64-byte base64 signature"),
    vault_signature: z.string().optional(),
    signed_at: z.string(),
  })
  .strict();

export type SignatureFile = z.infer<typeof SignatureFileSchema>;

export interface TrustedKey {
  keyId: string;
  backend: Backend;
  publicKey: KeyObject;
}

export type FileState = "signed" | "unsigned" | "tampered";

export interface FileVerification {
  file: string;
  state: FileState;
  /** Why, in words fit for a log line and the CLI. */
  reason: string;
  keyId?: string;
}

export interface PolicyVerification {
  state: FileState;
  files: FileVerification[];
}

/** The message a signature covers: a context naming the file, then its exact bytes. */
export function signedMessage(file: string, bytes: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`${CONTEXT}\0${file}\0`, "utf8"), bytes]);
}

function sha256(bytes: Buffer): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** The files to sign or verify in `dir`: both policies, and proposals.json when present. */
export function policyFilesIn(dir: string): string[] {
  const files: string[] = [...POLICY_FILES];
  if (existsSync(join(dir, PROPOSALS_FILE)) || existsSync(join(dir, PROPOSALS_FILE + SIGNATURE_SUFFIX))) files.push(PROPOSALS_FILE);
  return files;
}

function readBounded(path: string): Buffer {
  const bytes = readFileSync(path);
  if (bytes.length > MAX_POLICY_BYTES) throw new Error(`${path} is over ${MAX_POLICY_BYTES} bytes`);
  return bytes;
}

// ---- verification --------------------------------------------------------

function verifyOne(dir: string, file: string, ring: ReadonlyMap<string, TrustedKey>): FileVerification | null {
  const path = join(dir, file);
  const sigPath = path + SIGNATURE_SUFFIX;
  const hasFile = existsSync(path);
  const hasSig = existsSync(sigPath);
  const required = (POLICY_FILES as readonly string[]).includes(file);
  if (!hasFile && !hasSig) return required ? { file, state: "unsigned", reason: "policy file missing" } : null;
  if (!hasFile) return { file, state: "tampered", reason: `signature ${file}${SIGNATURE_SUFFIX} present but the file is missing` };
  if (!hasSig) return { file, state: "unsigned", reason: `no signature file (${file}${SIGNATURE_SUFFIX})` };
  let sig: SignatureFile;
  try {
    const parsed = SignatureFileSchema.safeParse(JSON.parse(readFileSync(sigPath, "utf8")));
    if (!parsed.success) throw new Error(parsed.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; "));
    sig = parsed.data;
  } catch (err) {
    return { file, state: "tampered", reason: `signature file is malformed: ${(err as Error).message}` };
  }
  let bytes: Buffer;
  try {
    bytes = readBounded(path);
  } catch (err) {
    return { file, state: "tampered", reason: `cannot read the file: ${(err as Error).message}` };
  }
  const keyId = sig.key_id;
  if (sig.file !== file) return { file, state: "tampered", reason: `signature names ${JSON.stringify(sig.file)}, not ${file}`, keyId };
  const now = sha256(bytes);
  if (now !== sig.sha256) {
    return {
      file,
      state: "tampered",
      reason: `content changed since signing (sha256 signed ${sig.sha256.slice(0, 12)}…, now ${now.slice(0, 12)}…)`,
      keyId,
    };
  }
  if (sig.vault_signature !== undefined && sig.vault_signature !== `vault:v${sig.key_version}:${sig.signature_b64}`) {
    return { file, state: "tampered", reason: "vault_signature disagrees with key_version / signature_b64", keyId };
  }
  const key = ring.get(keyId);
  if (!key) {
    const hint = ring.size === 0 ? "no trusted policy keys are configured" : `trusted: ${[...ring.keys()].join(", ")}`;
    return { file, state: "tampered", reason: `signed by key ${keyId}, which is not trusted here (${hint})`, keyId };
  }
  if (key.backend !== sig.backend)
    return { file, state: "tampered", reason: `key ${keyId} is a ${key.backend} key, the signature says ${sig.backend}`, keyId };
  const ok = verify(null, signedMessage(file, bytes), key.publicKey, Buffer.from(sig.signature_b64, "base64"));
  if (!ok) return { file, state: "tampered", reason: `signature does not verify with key ${keyId}`, keyId };
  return { file, state: "signed", reason: `signed by ${keyId}`, keyId };
}

/** Verify every policy file in `dir` against the trusted key(s). */
export function verifyPolicies(dir: string, keys: TrustedKey | readonly TrustedKey[]): PolicyVerification {
  const ring = new Map<string, TrustedKey>();
  for (const k of Array.isArray(keys) ? keys : [keys as TrustedKey]) ring.set(k.keyId, k);
  const files = policyFilesIn(dir)
    .map((f) => verifyOne(dir, f, ring))
    .filter((v): v is FileVerification => v !== null);
  // No policy files at all is not "signed".
  const state: FileState = files.some((f) => f.state === "tampered")
    ? "tampered"
    : files.length === 0 || files.some((f) => f.state === "unsigned")
      ? "unsigned"
      : "signed";
  return { state, files };
}

// ---- signing -------------------------------------------------------------

export interface Signature {
  keyId: string;
  keyVersion: number;
  signatureB64: string;
  vaultSignature?: string;
}

export interface PolicySigner {
  backend: Backend;
  sign(message: Buffer): Promise<Signature>;
}

export interface SignedFile {
  file: string;
  sha256: string;
  keyId: string;
}

function writeAtomic(path: string, data: string, mode: number): void {
  const tmp = `${path}.tmp-${process.pid}`;
  writeFileSync(tmp, data, { mode });
  chmodSync(tmp, mode);
  renameSync(tmp, path);
}

/**
 * Sign every policy file in `dir`. All signatures are obtained before any
 * .sig is written, so a failure half-way leaves the old signatures in place.
 * A stale proposals.json.sig (its file gone) is removed.
 */
export async function signPolicies(
  dir: string,
  signer: PolicySigner,
  now: () => Date = () => new Date(),
): Promise<{ signed: SignedFile[]; removed: string[] }> {
  const pending: { file: string; sig: SignatureFile }[] = [];
  const removed: string[] = [];
  for (const file of policyFilesIn(dir)) {
    const path = join(dir, file);
    if (!existsSync(path)) {
      if ((POLICY_FILES as readonly string[]).includes(file)) throw new Error(`${path}: policy file missing, nothing to sign`);
      removed.push(file + SIGNATURE_SUFFIX);
      continue;
    }
    const bytes = readBounded(path);
    const s = await signer.sign(signedMessage(file, bytes));
    pending.push({
      file,
      sig: {
        version: 1,
        file,
        alg: "ed25519",
        backend: signer.backend,
        key_id: s.keyId,
        key_version: s.keyVersion,
        sha256: sha256(bytes),
        signature_b64: s.signatureB64,
        ...(s.vaultSignature !== undefined ? { vault_signature: s.vaultSignature } : {}),
        signed_at: now().toISOString(),
      },
    });
  }
  for (const p of pending) writeAtomic(join(dir, p.file + SIGNATURE_SUFFIX), `${JSON.stringify(p.sig, null, 2)}\n`, 0o644);
  for (const r of removed) rmSync(join(dir, r), { force: true });
  return { signed: pending.map((p) => ({ file: p.file, sha256: p.sig.sha256, keyId: p.sig.key_id })), removed };
}

// ---- the local backend: an ed25519 key pair in the state dir -------------

export function policyKeyPaths(keysDir: string): { privateKey: string; publicKey: string; vaultKeys: string } {
  return {
    privateKey: join(keysDir, "policy.key"),
    publicKey: join(keysDir, "policy.pub"),
    vaultKeys: join(keysDir, "policy-vault-keys.json"),
  };
}

/** `local:` + the first 16 hex digits of sha256 over the raw 32-byte public key. */
export function localKeyId(publicKey: KeyObject): string {
  const raw = Buffer.from(publicKey.export({ format: "jwk" }).x as string, "base64url");
  return `local:${sha256(raw).slice(0, 16)}`;
}

/** Create keys/policy.key (0600) and policy.pub (0644). Refuses to replace an existing pair. */
export function generatePolicyKey(keysDir: string): { keyId: string; privateKey: string; publicKey: string } {
  const paths = policyKeyPaths(keysDir);
  if (existsSync(paths.privateKey) || existsSync(paths.publicKey)) {
    throw new Error(
      `a policy key already exists in ${keysDir}; replacing it invalidates every signature made with it — remove policy.key and policy.pub yourself to rotate, then re-sign`,
    );
  }
  mkdirSync(keysDir, { recursive: true, mode: 0o755 });
  const pair = generateKeyPairSync("ed25519");
  writeAtomic(paths.privateKey, pair.privateKey.export({ format: "pem", type: "pkcs8" }).toString(), 0o600);
  writeAtomic(paths.publicKey, pair.publicKey.export({ format: "pem", type: "spki" }).toString(), 0o644);
  return { keyId: localKeyId(pair.publicKey), privateKey: paths.privateKey, publicKey: paths.publicKey };
}

function loadEd25519(path: string, kind: "private" | "public"): KeyObject {
  const pem = readFileSync(path);
  const key = kind === "private" ? createPrivateKey(pem) : createPublicKey(pem);
  if (key.asymmetricKeyType !== "ed25519") throw new Error(`${path} is not an ed25519 key`);
  return key;
}

/** The local signer; fails when `agent-sudo policy keygen` has not been run. */
export function localSigner(keysDir: string): PolicySigner {
  const paths = policyKeyPaths(keysDir);
  if (!existsSync(paths.privateKey)) throw new Error(`no local policy key (${paths.privateKey}): run \`agent-sudo policy keygen\` first`);
  const privateKey = loadEd25519(paths.privateKey, "private");
  const keyId = localKeyId(createPublicKey(privateKey));
  return {
    backend: "local",
    sign: async (message) => ({ keyId, keyVersion: 1, signatureB64: sign(null, message, privateKey).toString("base64") }),
  };
}

// ---- the vault-transit backend -------------------------------------------

/** A signer over a logged-in Vault client (see withVaultToken, which revokes the token after). */
export function transitSigner(vault: VaultClient, settings: VaultSettings): PolicySigner {
  return {
    backend: "vault-transit",
    sign: async (message) => {
      const s = await transitSign(vault, settings, message);
      return {
        keyId: transitKeyId(settings, s.keyVersion),
        keyVersion: s.keyVersion,
        signatureB64: s.signatureB64,
        vaultSignature: s.vaultSignature,
      };
    },
  };
}

// ---- the cached transit public keys, for offline verification ------------

const VaultKeyCacheSchema = z
  .object({
    addr: z.string(),
    transit_mount: z.string(),
    transit_key: z.string(),
    fetched_at: z.string(),
    keys: z.array(z.object({ key_id: z.string(), version: z.number().int().min(1), public_key_b64: z.string() }).strict()),
  })
  .strict();

export function saveVaultKeyCache(
  keysDir: string,
  settings: VaultSettings,
  keys: readonly TransitPublicKey[],
  now: Date = new Date(),
): string {
  const path = policyKeyPaths(keysDir).vaultKeys;
  mkdirSync(keysDir, { recursive: true, mode: 0o755 });
  const body = {
    addr: settings.addr,
    transit_mount: settings.transit_mount,
    transit_key: settings.transit_key,
    fetched_at: now.toISOString(),
    keys: keys.map((k) => ({ key_id: k.keyId, version: k.version, public_key_b64: k.publicKeyB64 })),
  };
  writeAtomic(path, `${JSON.stringify(body, null, 2)}\n`, 0o644);
  return path;
}

/** Transit public keys as trusted keys. */
export function transitTrustedKeys(keys: readonly TransitPublicKey[]): TrustedKey[] {
  return keys.map((k) => ({ keyId: k.keyId, backend: "vault-transit" as const, publicKey: ed25519FromRaw(k.publicKeyB64, k.keyId) }));
}

/** Every key this state dir trusts for policies: policy.pub and the cached transit keys. */
export function loadTrustedKeys(keysDir: string): TrustedKey[] {
  const paths = policyKeyPaths(keysDir);
  const out: TrustedKey[] = [];
  if (existsSync(paths.publicKey)) {
    const publicKey = loadEd25519(paths.publicKey, "public");
    out.push({ keyId: localKeyId(publicKey), backend: "local", publicKey });
  }
  if (existsSync(paths.vaultKeys)) {
    const parsed = VaultKeyCacheSchema.safeParse(JSON.parse(readFileSync(paths.vaultKeys, "utf8")));
    if (!parsed.success)
      throw new Error(
        `${paths.vaultKeys}: malformed (${parsed.error.issues[0]?.message ?? "?"}); refresh it with \`agent-sudo policy verify --fetch-vault-keys\``,
      );
    out.push(...transitTrustedKeys(parsed.data.keys.map((k) => ({ keyId: k.key_id, version: k.version, publicKeyB64: k.public_key_b64 }))));
  }
  return out;
}
