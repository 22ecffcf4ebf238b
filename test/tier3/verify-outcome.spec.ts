// Auto-verify against stand-in `systemctl` and `docker` executables on PATH
// (not the real tools), scripted to walk through the states a unit or a
// container goes through after a restart.
import { rmSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { localProbeRunner, planVerify, shellQuote, verifyOutcome, type VerifyPlan } from "../../services/gateway/verify-outcome.js";
import { makeStandIns, type StandIns } from "./standins.js";

// Generous for passing cases (a loaded machine forks slowly); failing cases set their own short timeout.
const fast = { timeoutMs: 5000, intervalMs: 20, settleMs: 60 };

describe("planVerify: what to verify after a command", () => {
  it("polls systemd units after start/restart/reload", () => {
    expect(planVerify("systemctl restart nginx")).toMatchObject({ kind: "systemd", units: ["nginx"] });
    expect(planVerify("sudo systemctl reload caddy.service php-fpm && echo ok")).toMatchObject({
      kind: "systemd",
      units: ["caddy.service", "php-fpm"],
    });
    expect(planVerify("service nginx restart")).toMatchObject({ kind: "systemd", units: ["nginx"] });
    expect(planVerify("systemctl stop nginx")).toEqual({ kind: "exit" });
  });

  it("inspects containers after docker start/restart and compose up", () => {
    expect(planVerify("docker restart web worker")).toMatchObject({ kind: "docker", containers: ["web", "worker"] });
    expect(planVerify("docker compose -f /opt/s/compose.yml up -d api", { cwd: "/opt/s" })).toMatchObject({
      kind: "docker",
      containers: [],
      compose: { options: ["-f", "/opt/s/compose.yml"], services: ["api"], cwd: "/opt/s" },
    });
    expect(planVerify("docker-compose up -d")).toMatchObject({ kind: "docker", compose: { options: [], services: [] } });
  });

  it("prefers a rule's own verify command, and defaults to the exit code", () => {
    expect(planVerify("systemctl restart nginx", { ruleVerify: "curl -fsS http://127.0.0.1/health" })).toMatchObject({ kind: "command" });
    expect(planVerify("apt-get install -y jq")).toEqual({ kind: "exit" });
    expect(planVerify("systemctl restart $(cat unit)")).toEqual({ kind: "exit" });
  });

  it("quotes probes for running them through /exec", () => {
    expect(shellQuote(["docker", "inspect", "--format", "{{.State.Status}} x", "web"])).toBe(
      "docker inspect --format '{{.State.Status}} x' web",
    );
  });
});

describe("verifyOutcome (stand-ins on PATH)", () => {
  let s: StandIns;
  const run = () => localProbeRunner(s.env);
  beforeEach(() => {
    s = makeStandIns();
  });
  afterEach(() => rmSync(s.dir, { recursive: true, force: true }));

  it("passes a unit that goes activating → active and stays there", async () => {
    s.script("units/nginx", "activating\nactivating\nactive\n");
    const r = await verifyOutcome({ kind: "systemd", units: ["nginx"], ...fast }, 0, run());
    expect(r).toMatchObject({ passed: true, kind: "systemd" });
    expect(r.attempts).toBeGreaterThanOrEqual(3);
  });

  it("fails a unit that stays failed until the timeout, and one that flaps", async () => {
    s.script("units/nginx", "failed\n");
    const r = await verifyOutcome({ kind: "systemd", units: ["nginx"], ...fast, timeoutMs: 300 }, 0, run());
    expect(r).toMatchObject({ passed: false });
    expect(r.detail).toMatch(/nginx: failed/);
    s.script("units/api", "active\nfailed\n");
    expect((await verifyOutcome({ kind: "systemd", units: ["api"], ...fast, timeoutMs: 300 }, 0, run())).passed).toBe(false);
  });

  it("never verifies a command that itself failed", async () => {
    s.script("units/nginx", "active\n");
    expect(await verifyOutcome({ kind: "systemd", units: ["nginx"], ...fast }, 1, run())).toMatchObject({
      passed: false,
      detail: "command exited 1",
    });
    expect(await verifyOutcome({ kind: "exit" }, 0, run())).toMatchObject({ passed: true });
    expect(await verifyOutcome({ kind: "exit" }, 2, run())).toMatchObject({ passed: false });
  });

  it("passes running containers once healthy (or without a healthcheck)", async () => {
    s.script("containers/web", "running starting\nrunning starting\nrunning healthy\n");
    s.script("containers/worker", "running none\n");
    const plan: VerifyPlan = { kind: "docker", containers: ["web", "worker"], ...fast };
    expect(await verifyOutcome(plan, 0, run())).toMatchObject({ passed: true, kind: "docker" });
  });

  it("fails unhealthy, exited and missing containers", async () => {
    s.script("containers/web", "running unhealthy\n");
    s.script("containers/db", "exited none\n");
    for (const c of ["web", "db", "ghost"]) {
      const r = await verifyOutcome({ kind: "docker", containers: [c], ...fast, timeoutMs: 200 }, 0, run());
      expect(r.passed, c).toBe(false);
    }
  });

  it("checks every container of a compose project", async () => {
    s.script("compose-ps", "abc123\ndef456\n");
    s.script("containers/abc123", "running healthy\n");
    s.script("containers/def456", "running none\n");
    const plan = planVerify("docker compose up -d", { timeoutMs: 1500 });
    expect(await verifyOutcome({ ...plan, intervalMs: 20, settleMs: 60 } as VerifyPlan, 0, run())).toMatchObject({ passed: true });
    s.script("containers/def456", "restarting none\n");
    expect((await verifyOutcome({ ...plan, intervalMs: 20, settleMs: 60, timeoutMs: 200 } as VerifyPlan, 0, run())).passed).toBe(false);
  });

  it("polls a rule's own verify command until it succeeds", async () => {
    s.script("flag", "");
    const cmd = `test -s ${s.dir}/flag || { echo x > ${s.dir}/flag; exit 1; }`;
    const r = await verifyOutcome({ kind: "command", command: cmd, timeoutMs: 2000, intervalMs: 20 }, 0, run());
    expect(r).toMatchObject({ passed: true, kind: "command", attempts: 2 });
    expect((await verifyOutcome({ kind: "command", command: "exit 3", timeoutMs: 100, intervalMs: 20 }, 0, run())).passed).toBe(false);
  });
});
