// The sandbox service as deployed: started as root, its gRPC half drops to
// agent-sudo-sbx while the launcher it forked beforehand stays root in its
// own mount namespace; a Trial over the Unix socket comes back signed, and
// nothing of the trial machinery shows in the host's mount table.
import { type ChildProcess, spawn } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { credentials } from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SandboxServiceClient, type TrialReport } from "../../proto/gen/agent_sudo/v1/sandbox_pb.js";
import type { HealthResponse } from "../../proto/gen/agent_sudo/v1/decision_pb.js";
import { ensureKeys } from "../../services/shared/keys.js";
import { lookupUser } from "../../services/shared/privilege.js";
import { call } from "../../services/shared/unary.js";
import { repoRoot } from "../support/stack.js";
import { canRun } from "./fixture.js";

const mainJs = join(repoRoot, "dist", "services", "sandbox", "main.js");
const sbxUser = lookupUser("agent-sudo-sbx");

function uidOf(pid: number): number {
  const line =
    readFileSync(`/proc/${pid}/status`, "utf8")
      .split("\n")
      .find((l) => l.startsWith("Uid:")) ?? "";
  return Number(line.split(/\s+/)[2]);
}

function childrenOf(pid: number): number[] {
  const path = `/proc/${pid}/task/${pid}/children`;
  return existsSync(path) ? readFileSync(path, "utf8").trim().split(/\s+/).filter(Boolean).map(Number) : [];
}

describe.skipIf(!canRun || !sbxUser || !lookupUser("agent-sudo-gw"))("sandbox service: unprivileged front, root launcher", () => {
  let home: string;
  let child: ChildProcess;
  let client: SandboxServiceClient;
  let log = "";
  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), "agent-sudo-sbx-svc-"));
    chmodSync(home, 0o711);
    mkdirSync(join(home, "state"), { mode: 0o711 });
    ensureKeys(join(home, "keys"));
    child = spawn(process.execPath, [mainJs], { env: { ...process.env, AGENT_SUDO_HOME: home }, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout?.on("data", (c: Buffer) => (log += c.toString()));
    child.stderr?.on("data", (c: Buffer) => (log += c.toString()));
    const deadline = Date.now() + 20_000;
    while (!log.includes('"msg":"serving"')) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`sandbox did not start:\n${log}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    client = new SandboxServiceClient(`unix://${join(home, "run", "sandbox.sock")}`, credentials.createInsecure());
  });
  afterAll(async () => {
    client?.close();
    if (child && child.exitCode === null) {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await exited;
    }
    rmSync(home, { recursive: true, force: true });
  });

  it("serves as agent-sudo-sbx; its launcher child is root in a mount namespace of its own", () => {
    const pid = child.pid ?? 0;
    expect(uidOf(pid)).toBe(sbxUser?.uid);
    const [launcher] = childrenOf(pid);
    expect(launcher).toBeDefined();
    expect(uidOf(launcher ?? 0)).toBe(0);
    expect(readlinkSync(`/proc/${launcher}/ns/mnt`)).not.toBe(readlinkSync("/proc/self/ns/mnt"));
    // The trials tmpfs lives only in the launcher's namespace.
    expect(readFileSync("/proc/self/mountinfo", "utf8")).not.toContain(join(home, "run", "sandbox-trials"));
  });

  it("answers Health with the driver", async () => {
    const h = await call<object, HealthResponse>(client, client.health, {}, 5000);
    expect(h.detail).toMatch(/^driver: overlay \(primary: overlay of \//);
  });

  it("trials a command and returns the signed report; the host is untouched", async () => {
    const r = await call<object, TrialReport>(
      client,
      client.trial,
      {
        requestId: "svc1",
        command: "echo x > /etc/agent-sudo-trial-test",
        cwd: "/",
        host: "primary",
        runAs: "",
        timeoutS: 30,
        envNames: [],
      },
      30_000,
    );
    expect(r.ok, r.findings.join("; ")).toBe(true);
    expect(r.touchedPaths).toEqual(["/etc/agent-sudo-trial-test"]);
    expect(r.attestation?.signer).toBe("sandbox");
    expect(existsSync("/etc/agent-sudo-trial-test")).toBe(false);
  });

  it("refuses a host it has no mirror of with a signed not-ok report", async () => {
    const r = await call<object, TrialReport>(
      client,
      client.trial,
      { requestId: "svc2", command: "true", cwd: "/", host: "server-01", runAs: "", timeoutS: 30, envNames: [] },
      30_000,
    );
    expect(r.ok).toBe(false);
    expect(r.findings[0]).toMatch(/no overlay mirror of host "server-01"/);
  });
});
