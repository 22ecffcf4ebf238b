// A Vault STAND-IN for tests: a small HTTP server on 127.0.0.1 that answers
// the few endpoints agent-sudo uses, shaped as Vault's API docs describe them.
// It is not Vault and proves nothing about Vault itself; it proves that our
// client sends the documented requests and handles the documented answers.
//
//   POST /v1/auth/approle/login          {role_id, secret_id} → {auth:{client_token, lease_duration, …}}
//   POST /v1/auth/token/revoke-self      → 204, the token is dead afterwards
//   POST /v1/transit/sign/:key           {input (base64), key_version?} → {data:{signature:"vault:vN:…", key_version}}
//   GET  /v1/transit/keys/:key           → {data:{type:"ed25519", keys:{"1":{public_key, …}}, latest_version, …}}
//   POST /v1/transit/keys/:key/rotate    → 204 (a new key version)
//   GET  /v1/:mount/data/:path           → {data:{data:{…}, metadata:{…}}} (KV v2)
import { generateKeyPairSync, sign, type KeyObject } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface StandInRequest {
  method: string;
  path: string;
  token: string | null;
}

export interface VaultStandIn {
  addr: string;
  roleId: string;
  secretId: string;
  requests: StandInRequest[];
  /** Tokens issued, and whether each is still live. */
  tokens: Map<string, { live: boolean }>;
  /** Add a key version, as an operator's `vault write -f transit/keys/KEY/rotate` would. */
  rotate(key: string): number;
  kv: Map<string, Record<string, unknown>>;
  sealed: boolean;
  close(): Promise<void>;
}

interface TransitKey {
  versions: { privateKey: KeyObject; publicKeyB64: string; created: number }[];
}

function newVersion(): TransitKey["versions"][number] {
  const pair = generateKeyPairSync("ed25519");
  const x = pair.publicKey.export({ format: "jwk" }).x as string;
  return {
    privateKey: pair.privateKey,
    publicKeyB64: Buffer.from(x, "base64url").toString("base64"),
    created: Math.floor(Date.now() / 1000),
  };
}

function send(res: ServerResponse, status: number, body?: unknown): void {
  if (body === undefined) {
    res.writeHead(status).end();
    return;
  }
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  return text === "" ? {} : (JSON.parse(text) as Record<string, unknown>);
}

export async function startVaultStandIn(opts: { transitKeys?: string[] } = {}): Promise<VaultStandIn> {
  const keys = new Map<string, TransitKey>();
  for (const k of opts.transitKeys ?? ["agent-sudo-policy"]) keys.set(k, { versions: [newVersion()] });
  const tokens = new Map<string, { live: boolean }>();
  const requests: StandInRequest[] = [];
  const kv = new Map<string, Record<string, unknown>>();
  const roleId = "role-0b5c2d";
  const secretId = "secret-7f1e9a";
  let counter = 0;
  const state = { sealed: false };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? "/", "http://stand-in");
    const path = url.pathname;
    const token = (req.headers["x-vault-token"] as string | undefined) ?? null;
    requests.push({ method: req.method ?? "", path, token });
    if (state.sealed) return send(res, 503, { errors: ["Vault is sealed"] });
    const body = req.method === "POST" ? await readJson(req) : {};

    if (req.method === "POST" && path === "/v1/auth/approle/login") {
      if (body.role_id !== roleId || body.secret_id !== secretId) return send(res, 400, { errors: ["invalid role or secret ID"] });
      const t = `hvs.stand-in-${++counter}`;
      tokens.set(t, { live: true });
      return send(res, 200, {
        auth: { client_token: t, accessor: `acc-${counter}`, policies: ["agent-sudo"], lease_duration: 60, renewable: false },
      });
    }
    if (!token || !tokens.get(token)?.live) return send(res, 403, { errors: ["permission denied"] });

    if (req.method === "POST" && path === "/v1/auth/token/revoke-self") {
      tokens.set(token, { live: false });
      return send(res, 204);
    }
    let m = /^\/v1\/transit\/sign\/([^/]+)$/.exec(path);
    if (req.method === "POST" && m) {
      const key = keys.get(m[1] as string);
      if (!key) return send(res, 400, { errors: ["signing key not found"] });
      if (typeof body.input !== "string") return send(res, 400, { errors: ["missing input"] });
      const version = typeof body.key_version === "number" && body.key_version > 0 ? body.key_version : key.versions.length;
      const v = key.versions[version - 1];
      if (!v) return send(res, 400, { errors: ["invalid key version"] });
      const sig = sign(null, Buffer.from(body.input, "base64"), v.privateKey).toString("base64");
      return send(res, 200, { data: { signature: `vault:v${version}:${sig}`, key_version: version } });
    }
    m = /^\/v1\/transit\/keys\/([^/]+)\/rotate$/.exec(path);
    if (req.method === "POST" && m) {
      const key = keys.get(m[1] as string);
      if (!key) return send(res, 404, { errors: [] });
      key.versions.push(newVersion());
      return send(res, 204);
    }
    m = /^\/v1\/transit\/keys\/([^/]+)$/.exec(path);
    if (req.method === "GET" && m) {
      const key = keys.get(m[1] as string);
      if (!key) return send(res, 404, { errors: [] });
      const versions: Record<string, unknown> = {};
      key.versions.forEach((v, i) => {
        versions[String(i + 1)] = { creation_time: new Date(v.created * 1000).toISOString(), name: "ed25519", public_key: v.publicKeyB64 };
      });
      return send(res, 200, {
        data: {
          type: "ed25519",
          name: m[1],
          keys: versions,
          latest_version: key.versions.length,
          min_decryption_version: 1,
          min_encryption_version: 0,
          deletion_allowed: false,
          derived: false,
          exportable: false,
          supports_signing: true,
          supports_encryption: false,
          supports_decryption: false,
        },
      });
    }
    m = /^\/v1\/([^/]+)\/data\/(.+)$/.exec(path);
    if (req.method === "GET" && m) {
      const data = kv.get(`${m[1]}/${m[2]}`);
      if (!data) return send(res, 404, { errors: [] });
      return send(res, 200, {
        data: { data, metadata: { version: 1, created_time: new Date().toISOString(), deletion_time: "", destroyed: false } },
      });
    }
    return send(res, 404, { errors: [] });
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => send(res, 500, { errors: [String(err)] }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    addr: `http://127.0.0.1:${port}`,
    roleId,
    secretId,
    requests,
    tokens,
    kv,
    get sealed() {
      return state.sealed;
    },
    set sealed(v: boolean) {
      state.sealed = v;
    },
    rotate(key: string) {
      const k = keys.get(key);
      if (!k) throw new Error(`no transit key ${key}`);
      k.versions.push(newVersion());
      return k.versions.length;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A loopback port with nothing listening: Vault "down". */
export async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}
