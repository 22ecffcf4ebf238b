// The breaker started for real (dist/services/breaker/main.js) on its
// sockets in a temp state dir, with a loopback stand-in for ntfy.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { verify } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { credentials, status as grpcStatus, type ServiceError } from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BreakerAdminServiceClient, BreakerRearmServiceClient } from "../../proto/gen/agent_sudo/v1/breaker_admin_pb.js";
import { BreakerServiceClient } from "../../proto/gen/agent_sudo/v1/breaker_pb.js";
import { Decision, Role, Tier } from "../../proto/gen/agent_sudo/v1/decision_pb.js";
import { prepareHome } from "../../cli/home.js";
import { commandDigest } from "../shared/attestation.js";
import { loadConfig } from "../shared/config.js";
import { loadPublicKey } from "../shared/keys.js";
import { lookupUser } from "../shared/privilege.js";
import { call } from "../shared/unary.js";
import { startNtfySink, type NtfySink } from "../../test/tier3/ntfy-sink.js";

const repo = join(import.meta.dirname, "..", "..");
const entry = join(repo, "dist", "services", "breaker", "main.js");
const root = process.getuid?.() === 0;

interface Running {
  child: ChildProcess;
  log: () => string;
}

function startBreaker(home: string, env: Record<string, string>): Promise<Running> {
  let out = "";
  const child = spawn(process.execPath, [entry], {
    env: { ...process.env, AGENT_SUDO_HOME: home, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (c: Buffer) => (out += c.toString()));
  child.stderr?.on("data", (c: Buffer) => (out += c.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`breaker not serving in 10 s:\n${out}`)), 10_000);
    const poll = setInterval(() => {
      if (out.includes('"msg":"serving"')) {
        clearInterval(poll);
        clearTimeout(timer);
        resolve({ child, log: () => out });
      }
    }, 20);
    child.once("exit", (code) => {
      clearInterval(poll);
      clearTimeout(timer);
      reject(new Error(`breaker exited ${code}:\n${out}`));
    });
  });
}

async function kill(r: Running, signal: NodeJS.Signals): Promise<void> {
  if (r.child.exitCode !== null || r.child.signalCode !== null) return;
  const exited = new Promise((res) => r.child.once("exit", res));
  r.child.kill(signal);
  await exited;
}

describe("the breaker service, for real on its sockets", () => {
  let home: string;
  let sink: NtfySink;
  let brk: Running;
  let client: BreakerServiceClient;
  let admin: BreakerAdminServiceClient;
  let rearm: BreakerRearmServiceClient;
  const env = (): Record<string, string> => ({
    AGENT_SUDO_NTFY_URL: sink.url,
    AGENT_SUDO_NTFY_BACKOFF_MS: "50",
    AGENT_SUDO_BREAKER_TRIP_ON_TIER4: "1",
  });
  const binding = { command: "systemctl restart nginx", cwd: "/", host: "primary", runAs: "", source: "sudo" as const };
  const lease = (requestId: string, tier = Tier.TIER_LIVE_SERVICE) =>
    call(client, client.lease, { requestId, commandDigest: commandDigest(binding), tier, host: "primary" }, 3000);
  const report = (requestId: string, tier: Tier, ok: boolean) =>
    call(client, client.report, { requestId, tier, ok, refused: false, undoId: "", unaudited: false }, 3000);

  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), "agent-sudo-breaker-"));
    prepareHome(loadConfig(home), () => undefined);
    sink = await startNtfySink();
    brk = await startBreaker(home, env());
    client = new BreakerServiceClient(`unix://${join(home, "run", "breaker.sock")}`, credentials.createInsecure());
    admin = new BreakerAdminServiceClient(`unix://${join(home, "run", "breaker-admin.sock")}`, credentials.createInsecure());
    rearm = new BreakerRearmServiceClient(`unix://${join(home, "run", "breaker-rearm.sock")}`, credentials.createInsecure());
  });
  afterAll(async () => {
    client?.close();
    admin?.close();
    rearm?.close();
    if (brk) await kill(brk, "SIGTERM");
    await sink?.close();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it("issues a signed 10 s lease binding the request id, digest, tier and host", async () => {
    const res = await lease("req-lease-1");
    expect(res.armed).toBe(true);
    const att = res.lease;
    expect(att?.signer).toBe("breaker");
    const pub = loadPublicKey(join(home, "keys"), "breaker");
    expect(verify(null, att!.decision, pub, att!.signature)).toBe(true);
    const d = Decision.decode(att!.decision);
    expect(d).toMatchObject({ role: Role.ROLE_BREAKER, requestId: "req-lease-1", tier: Tier.TIER_LIVE_SERVICE, host: "primary" });
    expect(Buffer.from(d.commandDigest).equals(commandDigest(binding))).toBe(true);
    expect(d.expiresAt - d.issuedAt).toBe(10);
    expect(d.nonce).toHaveLength(16);
  });

  it("refuses a second lease for the same request id, and malformed requests", async () => {
    await lease("req-dup");
    await expect(lease("req-dup")).rejects.toMatchObject({ code: grpcStatus.PERMISSION_DENIED, details: "REFUSED" });
    await expect(lease("req-t0", Tier.TIER_READ_ONLY)).rejects.toMatchObject({ code: grpcStatus.INVALID_ARGUMENT });
    await expect(
      call(
        client,
        client.lease,
        { requestId: "bad id!", commandDigest: Buffer.alloc(32), tier: Tier.TIER_REVERSIBLE, host: "primary" },
        3000,
      ),
    ).rejects.toMatchObject({
      code: grpcStatus.INVALID_ARGUMENT,
    });
    await expect(
      call(client, client.lease, { requestId: "short", commandDigest: Buffer.alloc(3), tier: Tier.TIER_REVERSIBLE, host: "primary" }, 3000),
    ).rejects.toMatchObject({
      code: grpcStatus.INVALID_ARGUMENT,
    });
  });

  it.skipIf(!root)("keeps its state dir 0700 under its own user and its admin sockets root-only", () => {
    const brkUser = lookupUser("agent-sudo-brk");
    const dir = join(home, "state", "breaker");
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(dir).uid).toBe(brkUser?.uid);
    expect(statSync(join(dir, "state.json")).uid).toBe(brkUser?.uid);
    for (const sock of ["breaker-admin.sock", "breaker-rearm.sock"]) {
      const st = statSync(join(home, "run", sock));
      expect(st.isSocket()).toBe(true);
      expect(st.mode & 0o777, sock).toBe(0o600);
      expect(st.uid, sock).toBe(0);
    }
    // Another service's user cannot even connect to them.
    const gw = lookupUser("agent-sudo-gw");
    for (const sock of ["breaker-admin.sock", "breaker-rearm.sock"]) {
      const probe = spawnSync(
        process.execPath,
        [
          "-e",
          `require("net").connect(${JSON.stringify(join(home, "run", sock))}).on("error",e=>{console.log(e.code);process.exit(3)}).on("connect",()=>{console.log("connected");process.exit(0)})`,
        ],
        { uid: gw?.uid, gid: gw?.gid, encoding: "utf8" },
      );
      expect(probe.stdout.trim(), sock).toBe("EACCES");
    }
  });

  it("trips on 3 tier-3 failures: no leases, an urgent ntfy, persisted across SIGKILL", async () => {
    await report("r-ok", Tier.TIER_LIVE_SERVICE, true);
    await report("r-f1", Tier.TIER_LIVE_SERVICE, false);
    await report("r-f2", Tier.TIER_LIVE_SERVICE, false);
    expect((await lease("req-still-armed")).armed).toBe(true);
    await report("r-f3", Tier.TIER_LIVE_SERVICE, false);
    const refused = await lease("req-after-trip");
    expect(refused.armed).toBe(false);
    expect(refused.lease).toBeUndefined();
    expect(refused.reason).toMatch(/tier3-failures/);

    const msg = await sink.waitFor((r) => String(r.headers.title).includes("tripped"));
    expect(msg.headers.priority).toBe("5");
    expect(String(msg.headers.tags)).toContain("rotating_light");
    expect(msg.body).toMatch(/tier-3 failures/);

    const health = await call(client, client.health, {}, 3000);
    expect(health.detail).toMatch(/^disarmed by tier3-failures/);

    await kill(brk, "SIGKILL");
    brk = await startBreaker(home, env());
    const afterRestart = await lease("req-after-restart");
    expect(afterRestart.armed).toBe(false);
    const st = await call(admin, admin.status, {}, 3000);
    expect(st).toMatchObject({ armed: false, rule: "tier3-failures" });
  });

  it("re-arms only through the rearm socket, with the reason recorded and announced", async () => {
    await expect(call(rearm, rearm.rearm, { reason: "", by: "x" }, 3000)).rejects.toMatchObject({ code: grpcStatus.INVALID_ARGUMENT });
    const st = await call(rearm, rearm.rearm, { reason: "checked the failing units", by: "root (uid 0)" }, 3000);
    expect(st.armed).toBe(true);
    expect(st.rearms.at(-1)).toMatchObject({ kind: "rearm", reason: "checked the failing units", by: "root (uid 0)" });
    expect((await lease("req-rearmed")).armed).toBe(true);
    await sink.waitFor((r) => String(r.headers.title).includes("re-armed"));
    expect(brk.log()).toContain("BREAKER RE-ARMED BY A PERSON");
    const file = JSON.parse(readFileSync(join(home, "state", "breaker", "state.json"), "utf8")) as {
      armed: boolean;
      events: Array<{ kind: string }>;
    };
    expect(file.armed).toBe(true);
    expect(file.events.map((e) => e.kind)).toEqual(["trip", "rearm"]);
  });

  it("can be tripped by anyone on the admin socket, and on a tier-4 attempt", async () => {
    const st = await call(admin, admin.trip, { reason: "monitor saw an anomaly", by: "hermes" }, 3000);
    expect(st).toMatchObject({ armed: false, rule: "manual", reason: "monitor saw an anomaly" });
    expect((await lease("req-manual")).armed).toBe(false);
    await call(rearm, rearm.rearm, { reason: "anomaly explained", by: "root" }, 3000);

    await call(
      client,
      client.report,
      { requestId: "r-t4", tier: Tier.TIER_REFUSE, ok: false, refused: true, undoId: "", unaudited: false },
      3000,
    );
    const t4 = await lease("req-after-t4");
    expect(t4.armed).toBe(false);
    expect(t4.reason).toMatch(/tier4-attempt/);
    await call(rearm, rearm.rearm, { reason: "tier-4 attempt reviewed", by: "root" }, 3000);
    expect((await lease("req-final")).armed).toBe(true);
  });

  it("answers nothing outside its tables", async () => {
    const err = await new Promise<ServiceError>((resolve) => {
      // Trip is not served on the gateway's socket: a raw call to that path there.
      client.makeUnaryRequest(
        "/agent_sudo.v1.BreakerAdminService/Trip",
        () => Buffer.alloc(0),
        (b: Buffer) => b,
        {},
        (e) => resolve(e as ServiceError),
      );
    });
    expect(err.code).toBe(grpcStatus.UNIMPLEMENTED);
    expect(existsSync(join(home, "run", "breaker.sock"))).toBe(true);
  });
});

describe("the breaker with trip_on_tier4 off", () => {
  let home: string;
  let sink: NtfySink;
  let brk: Running;
  let client: BreakerServiceClient;
  const binding = { command: "systemctl restart nginx", cwd: "/", host: "primary", runAs: "", source: "sudo" as const };
  const lease = (requestId: string) =>
    call(client, client.lease, { requestId, commandDigest: commandDigest(binding), tier: Tier.TIER_LIVE_SERVICE, host: "primary" }, 3000);
  const t4 = (requestId: string, unaudited: boolean) =>
    call(client, client.report, { requestId, tier: Tier.TIER_REFUSE, ok: false, refused: true, undoId: "", unaudited }, 3000);
  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), "agent-sudo-breaker-t4off-"));
    prepareHome(loadConfig(home), () => undefined);
    sink = await startNtfySink();
    brk = await startBreaker(home, {
      AGENT_SUDO_NTFY_URL: sink.url,
      AGENT_SUDO_NTFY_BACKOFF_MS: "50",
      AGENT_SUDO_BREAKER_TRIP_ON_TIER4: "0",
    });
    client = new BreakerServiceClient(`unix://${join(home, "run", "breaker.sock")}`, credentials.createInsecure());
  });
  afterAll(async () => {
    client?.close();
    if (brk) await kill(brk, "SIGTERM");
    await sink?.close();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it("an audited tier-4 attempt leaves it armed; one that could not be audited disarms it anyway", async () => {
    await t4("r-audited", false);
    expect((await lease("after-audited")).armed).toBe(true);
    await t4("r-unaudited", true);
    const after = await lease("after-unaudited");
    expect(after.armed).toBe(false);
    expect(after.reason).toMatch(/unaudited-tier4/);
  });
});
