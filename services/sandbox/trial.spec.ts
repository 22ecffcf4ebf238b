// The trial flow with a scripted driver: skip, refuse, gap → fill → retry
// once, repeated gaps never retried, driver failure, signature binding.
import { generateKeyPairSync, verify } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Decision } from "../../proto/gen/agent_sudo/v1/decision_pb.js";
import type { TrialRequest } from "../../proto/gen/agent_sudo/v1/sandbox_pb.js";
import { commandDigest, touchedDigest } from "../shared/attestation.js";
import { SandboxSettingsShape } from "./settings.js";
import { type Driver, type DriverRun, TrialRunner } from "./trial.js";

const { privateKey, publicKey } = generateKeyPairSync("ed25519");
const settings = SandboxSettingsShape.parse({});

function run(over: Partial<DriverRun> = {}): DriverRun {
  return {
    exitCode: 0,
    timedOut: false,
    stdout: Buffer.alloc(0),
    stderr: Buffer.alloc(0),
    stdoutTruncated: false,
    stderrTruncated: false,
    changes: [],
    truncated: false,
    maskWrites: [],
    durationMs: 1,
    ...over,
  };
}

function req(command: string): TrialRequest {
  return { requestId: "r1", command, cwd: "/", host: "primary", runAs: "", timeoutS: 10 };
}

function decision(report: { attestation?: { decision: Uint8Array; signature: Uint8Array } }) {
  const a = report.attestation;
  if (!a) throw new Error("no attestation");
  expect(verify(null, a.decision, publicKey, a.signature)).toBe(true);
  return Decision.decode(a.decision);
}

describe("TrialRunner", () => {
  let dir: string;
  let runs: DriverRun[];
  let filled: string[][];
  let driver: Driver;
  const runner = (d: Driver | undefined = driver) => new TrialRunner({ driver: d, settings, manifestDir: dir, key: privateKey, ttlS: 30 });
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "trial-"));
    runs = [];
    filled = [];
    driver = {
      name: "fake",
      describe: () => "fake",
      refuses: (host) => (host === "primary" ? undefined : "no mirror"),
      run: async () => runs.shift() ?? run(),
      fill: async (_h, gaps) => {
        filled.push(gaps.map((g) => `${g.kind} ${g.name}`));
        return true;
      },
    };
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("signs an ok report binding the command and the touched list", async () => {
    runs.push(
      run({
        changes: [
          { path: "/etc/b", kind: "modified" },
          { path: "/etc/a", kind: "created" },
        ],
      }),
    );
    const r = await runner().trial(req("touch /etc/a; echo >> /etc/b"));
    expect(r.ok).toBe(true);
    expect(r.touchedPaths).toEqual(["/etc/a", "/etc/b"]);
    const d = decision(r);
    expect(d.trialOk).toBe(true);
    expect(Buffer.from(d.touchedDigest).equals(touchedDigest(["/etc/b", "/etc/a"]))).toBe(true);
    expect(
      Buffer.from(d.commandDigest).equals(
        commandDigest({ command: "touch /etc/a; echo >> /etc/b", cwd: "/", host: "primary", runAs: "", source: "sudo" }),
      ),
    ).toBe(true);
  });

  it("skips live-service commands without running them", async () => {
    const r = await runner().trial(req("systemctl restart nginx"));
    expect(r.ok).toBe(false);
    expect(r.findings).toContain("skipped: live-service (systemctl restart)");
    expect(decision(r).trialOk).toBe(false);
  });

  it("is not ok on a non-zero exit, a shellcheck error, a forbidden or masked write", async () => {
    runs.push(run({ exitCode: 2 }));
    expect((await runner().trial(req("false"))).findings).toContain("exit code 2");
    expect((await runner().trial(req("if true; then echo"))).ok).toBe(false);
    runs.push(run({ changes: [{ path: "/boot/grub/grub.cfg", kind: "modified" }] }));
    expect((await runner().trial(req("update-grub"))).findings).toContain("modified forbidden path /boot/grub/grub.cfg");
    runs.push(run({ maskWrites: ["/var/lib/postgresql"] }));
    expect((await runner().trial(req("x"))).ok).toBe(false);
    runs.push(run({ changes: [{ path: "/root/.ssh", kind: "created" }] }));
    expect((await runner().trial(req("mkdir /root/.ssh"))).ok).toBe(false);
  });

  it("at capacity (the launcher's busy answer) throws BUSY, a retryable 429 at the gateway, instead of a failed trial", async () => {
    const busy: Driver = { ...driver, run: async () => Promise.reject(new Error("busy: too many trials at once")) };
    await expect(runner(busy).trial(req("touch /tmp/x"))).rejects.toMatchObject({ code: "BUSY" });
    const broken: Driver = { ...driver, run: async () => Promise.reject(new Error("overlay mount failed")) };
    expect((await runner(broken).trial(req("touch /tmp/x"))).findings[0]).toMatch(/driver failed: overlay mount failed/);
  });

  it("refuses hosts it has no mirror of, and no driver at all", async () => {
    expect((await runner().trial({ ...req("true"), host: "server-01" })).findings).toEqual(["no mirror"]);
    const none = new TrialRunner({ driver: undefined, settings, manifestDir: dir, key: privateKey, ttlS: 30 });
    expect((await none.trial(req("true"))).ok).toBe(false);
  });

  it("records a gap, fills it, retries once and passes", async () => {
    runs.push(run({ exitCode: 100, stderr: Buffer.from("E: Unable to locate package jq\n") }), run());
    const r = await runner().trial(req("apt-get install -y jq"));
    expect(filled).toEqual([["package jq"]]);
    expect(r.ok).toBe(true);
  });

  it("reports a gap that survives the rebuild as repeated, and never retries a known gap", async () => {
    const gapRun = () => run({ exitCode: 100, stderr: Buffer.from("E: Unable to locate package jq\n") });
    runs.push(gapRun(), gapRun());
    const first = await runner().trial(req("apt-get install -y jq"));
    expect(first.ok).toBe(false);
    expect(first.gaps).toEqual(["package jq"]);
    expect(first.findings.some((f) => f.startsWith("repeated gap: package jq"))).toBe(true);
    runs.push(gapRun());
    const second = await runner().trial(req("apt-get install -y jq"));
    expect(filled).toHaveLength(1);
    expect(second.findings.some((f) => f.startsWith("repeated gap"))).toBe(true);
  });

  it("turns a driver failure into a signed not-ok report", async () => {
    const broken: Driver = { ...driver, run: () => Promise.reject(new Error("boom")) };
    const r = await runner(broken).trial(req("true"));
    expect(r.ok).toBe(false);
    expect(r.findings[0]).toMatch(/fake driver failed: boom/);
    expect(decision(r).trialOk).toBe(false);
  });
});
