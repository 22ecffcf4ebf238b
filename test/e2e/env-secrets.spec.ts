// Secrets by reference through the whole stack, against a Vault STAND-IN
// (test/policy/vault-stand-in.ts: KV v2 + AppRole + revoke-self on
// 127.0.0.1; no Vault server can run here). `env_secrets` names are bound
// into every signer's command digest and judged by the classifier; the
// executor re-checks them and refuses names no signer bound; values reach
// only the command's environment — never the answer, the logs, the spool,
// the journal or the audit database.
import { credentials } from "@grpc/grpc-js";
import { createHash, randomUUID } from "node:crypto";
import { chmodSync, chownSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Source } from "../../proto/gen/agent_sudo/v1/classifier_pb.js";
import { ClassifierServiceClient } from "../../proto/gen/agent_sudo/v1/classifier_pb.js";
import { Role, Tier } from "../../proto/gen/agent_sudo/v1/decision_pb.js";
import { ExecutorServiceClient } from "../../proto/gen/agent_sudo/v1/executor_pb.js";
import { call } from "../../services/shared/unary.js";
import { signDecision } from "../../services/shared/attestation.js";
import { lookupUser } from "../../services/shared/privilege.js";
import { loadPrivateKey } from "../../services/shared/keys.js";
import { startVaultStandIn, type VaultStandIn } from "../policy/vault-stand-in.js";
import { auditRecords } from "../support/audit-spool.js";
import { filesContaining } from "../support/files-containing.js";
import { startStack, type Stack } from "../support/stack.js";

const root = process.getuid?.() === 0;
const VALUE = `pw-${randomUUID()}-only-in-vault`;

describe.skipIf(!root)("env_secrets end to end (Vault stand-in)", () => {
  let vault: VaultStandIn;
  let stack: Stack;
  let dir: string;
  const marker = `/tmp/agent-sudo-env-secrets-must-not-exist-${process.pid}`;

  beforeAll(async () => {
    vault = await startVaultStandIn();
    vault.kv.set("secret/agent-sudo/db", { password: VALUE });
    dir = mkdtempSync(join(tmpdir(), "agent-sudo-env-secrets-"));
    chmodSync(dir, 0o755);
    // The gateway reads these after dropping to its own user.
    writeFileSync(join(dir, "role_id"), vault.roleId, { mode: 0o644 });
    writeFileSync(join(dir, "secret_id"), vault.secretId, { mode: 0o600 });
    const home = mkdtempSync(join(tmpdir(), "agent-sudo-test-"));
    const secrets = {
      enabled: true,
      allowed: ["vault://secret/agent-sudo/"],
      vault: { addr: vault.addr, role_id_file: join(dir, "role_id"), secret_id_file: join(dir, "secret_id"), timeout_ms: 2000 },
    };
    writeFileSync(join(home, "config.json"), JSON.stringify({ secrets }));
    stack = await startStack({ home, env: { AGENT_SUDO_BREAKER_TRIP_ON_TIER4: "0" } });
    // 0600 and the gateway's own (its user exists once the stack has started).
    const gw = lookupUser("agent-sudo-gw");
    if (gw) chownSync(join(dir, "secret_id"), gw.uid, gw.gid);
  });
  afterAll(async () => {
    await stack?.stop();
    if (stack) rmSync(stack.home, { recursive: true, force: true });
    await vault?.close();
    rmSync(dir, { recursive: true, force: true });
    rmSync(marker, { force: true });
  });

  const secretRef = { DB_PASSWORD: "vault://secret/agent-sudo/db#password" };

  it("the command gets the value; the answer shows it redacted; the Vault token is revoked", async () => {
    // The command names the variable, never the value (commands are audited).
    const res = await stack.exec({ command: 'printf %s "$DB_PASSWORD" | sha256sum; echo "$DB_PASSWORD"', env_secrets: secretRef });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const digest = createHash("sha256").update(VALUE).digest("hex");
    expect(res.body).toMatchObject({ exit_code: 0, output: `${digest}  -\n[redacted:DB_PASSWORD]\n` });
    expect(JSON.stringify(res.body)).not.toContain(VALUE);
    expect(vault.tokens.size).toBeGreaterThan(0);
    expect([...vault.tokens.values()].every((t) => !t.live)).toBe(true);
  });

  it("a command without env_secrets gets no such variable", async () => {
    const res = await stack.exec({ command: 'echo "[${DB_PASSWORD:-unset}]"' });
    expect(res.body).toMatchObject({ exit_code: 0, output: "[unset]\n" });
  });

  it.each([
    ["a name that steers the loader", { LD_PRELOAD: "vault://secret/agent-sudo/db#password" }, 400, "SECRET_REF_INVALID"],
    ["a name not shaped like a credential", { EDITOR: "vault://secret/agent-sudo/db#password" }, 400, "SECRET_REF_INVALID"],
    ["a malformed reference", { DB_PASSWORD: "vault://secret/../db#password" }, 400, "SECRET_REF_INVALID"],
    ["a reference outside the allowed prefixes", { DB_PASSWORD: "vault://secret/other-team/db#password" }, 403, "SECRET_NOT_ALLOWED"],
    ["a secret that does not exist", { DB_PASSWORD: "vault://secret/agent-sudo/nope#password" }, 400, "SECRET_NOT_FOUND"],
  ])("refuses %s before anything runs", async (_name, refs, status, code) => {
    const before = vault.requests.length;
    const res = await stack.exec({ command: `touch ${marker}`, env_secrets: refs });
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    expect(res.body.code).toBe(code);
    expect(existsSync(marker)).toBe(false);
    // Malformed or not allowed: refused before any Vault traffic.
    if (code !== "SECRET_NOT_FOUND") expect(vault.requests.length).toBe(before);
  });

  it("Vault down (sealed) → 503 naming vault, and nothing ran", async () => {
    vault.sealed = true;
    try {
      const res = await stack.exec({ command: `touch ${marker}`, env_secrets: secretRef });
      expect(res.status, JSON.stringify(res.body)).toBe(503);
      expect(res.body).toMatchObject({ error: "unavailable", component: "vault", code: "SECRETS_UNAVAILABLE" });
      expect(existsSync(marker)).toBe(false);
    } finally {
      vault.sealed = false;
    }
  });

  it("the classifier judges the names: a steering name is tier 4 and unsigned", async () => {
    const client = new ClassifierServiceClient(`unix://${join(stack.home, "run", "classifier.sock")}`, credentials.createInsecure());
    try {
      const req = { requestId: randomUUID(), command: "echo hi", cwd: "/tmp", host: "primary", runAs: "", source: Source.SOURCE_SUDO };
      const bad = await call(client, client.classify, { ...req, envNames: ["GIT_SSH_COMMAND"] }, 3000);
      expect(bad.tier).toBe(Tier.TIER_REFUSE);
      expect(bad.attestation).toBeUndefined();
      const ok = await call(client, client.classify, { ...req, envNames: ["DB_PASSWORD"] }, 3000);
      expect(ok.tier).toBe(Tier.TIER_READ_ONLY);
    } finally {
      client.close();
    }
  });

  describe("a compromised gateway calling the executor directly", () => {
    const execute = (env: Record<string, string>, boundNames: string[]) => {
      const client = new ExecutorServiceClient(`unix://${join(stack.home, "run", "executor.sock")}`, credentials.createInsecure());
      const requestId = randomUUID();
      const binding = {
        command: `touch ${marker}`,
        cwd: "/tmp",
        host: "primary",
        runAs: "",
        envNames: boundNames,
        source: "sudo" as const,
      };
      const att = signDecision("classifier", loadPrivateKey(join(stack.home, "keys"), "classifier"), {
        role: Role.ROLE_CLASSIFIER,
        requestId,
        binding,
        tier: 0,
        ttlS: 30,
      });
      return call(
        client,
        client.execute,
        {
          requestId,
          command: binding.command,
          cwd: binding.cwd,
          host: "primary",
          runAs: "",
          timeoutS: 5,
          attestations: [att],
          undoPaths: [],
          env,
        },
        5000,
      )
        .then(
          () => "ran",
          (e: { details?: string }) => e.details ?? "error",
        )
        .finally(() => client.close());
    };

    it("cannot add a variable no signer bound", async () => {
      expect(await execute({ DB_PASSWORD: "x" }, [])).toMatch(/^ATTESTATION_MISMATCH/);
      expect(existsSync(marker)).toBe(false);
    });

    it("cannot add a steering variable even with a decision that binds it", async () => {
      expect(await execute({ LD_PRELOAD: "/tmp/evil.so" }, ["LD_PRELOAD"])).toMatch(/^VETOED/);
      expect(await execute({ GIT_SSH_COMMAND: "sh -c id" }, ["GIT_SSH_COMMAND"])).toMatch(/^VETOED/);
      expect(existsSync(marker)).toBe(false);
    });

    it("cannot drop a bound variable either (the names must match exactly)", async () => {
      expect(await execute({}, ["DB_PASSWORD"])).toMatch(/^ATTESTATION_MISMATCH/);
      expect(existsSync(marker)).toBe(false);
    });
  });

  it("the value is nowhere in the state dir (logs, spool, journal, audit database); the audit has the name", async () => {
    // Let the shipper move the spool into PostgreSQL, then look everywhere.
    await new Promise((r) => setTimeout(r, 2000));
    expect(filesContaining(stack.home, VALUE)).toEqual([]);
    // The name is on the record (shipped rows, or the spool when not yet shipped).
    const named = (await auditRecords(stack.home)).filter((r) => JSON.stringify(r.evidence).includes('"env_secrets":["DB_PASSWORD"]'));
    expect(named.length).toBeGreaterThan(0);
    expect(JSON.stringify(await auditRecords(stack.home))).not.toContain(VALUE);
  });
});
