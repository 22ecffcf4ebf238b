// Attacks on the executor's socket by a compromised gateway: a real stack,
// the real executor (root), real keys. The executor's shell is a stand-in
// that records the command line and executes nothing, so a hole in the
// executor fails an assertion instead of running `rm -rf /` on this host.
import { generateKeyPairSync, type KeyObject } from "node:crypto";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { credentials, Metadata, status, type ServiceError } from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Attestation } from "../../proto/gen/agent_sudo/v1/decision_pb.js";
import { Role } from "../../proto/gen/agent_sudo/v1/decision_pb.js";
import { ExecutorServiceClient, type ExecuteRequest, type ExecuteResponse } from "../../proto/gen/agent_sudo/v1/executor_pb.js";
import { signDecision } from "../../services/shared/attestation.js";
import { loadPrivateKey, SIGNER_ROLE, type Signer } from "../../services/shared/keys.js";
import type { TierNumber } from "../../services/shared/tier.js";
import { recorderShell, startStack, type Stack } from "../support/stack.js";

const HOST = "primary"; // the stack's default host_id
const QUORUM: Record<TierNumber, Signer[]> = {
  0: ["classifier"],
  1: ["classifier", "breaker"],
  2: ["classifier", "breaker", "sandbox"],
  3: ["classifier", "concurrence", "breaker"],
  4: ["classifier", "concurrence", "breaker", "sandbox"],
};

let stack: Stack;
let recDir: string;
let recorded: string;
let envLog: string;
const keys = {} as Record<Signer, KeyObject>;
let seq = 0;

const socketPath = () => join(stack.home, "run", "executor.sock");
const client = () => new ExecutorServiceClient(`unix://${socketPath()}`, credentials.createInsecure());
const recordedLines = () => readFileSync(recorded, "utf8").split("\n").filter(Boolean);

function request(command: string, over: Partial<ExecuteRequest> = {}): ExecuteRequest {
  seq++;
  return { requestId: `atk-${process.pid}-${seq}`, command, cwd: "/tmp", host: HOST, runAs: "", timeoutS: 10, attestations: [], undoPaths: [], env: {}, ...over };
}

/** What an honest signer would sign for `req` (its binding, unless overridden). */
function attest(signer: Signer, req: ExecuteRequest, tier: TierNumber, opts: { key?: KeyObject; name?: string; ttlS?: number; now?: number; bind?: Partial<ExecuteRequest> } = {}): Attestation {
  const b = { ...req, ...opts.bind };
  return signDecision(opts.name ?? signer, opts.key ?? keys[signer], {
    role: SIGNER_ROLE[signer],
    requestId: b.requestId,
    binding: { command: b.command, cwd: b.cwd, host: b.host, runAs: b.runAs },
    tier,
    ttlS: opts.ttlS ?? 60,
    ...(opts.now !== undefined ? { now: opts.now } : {}),
    ...(signer === "sandbox" ? { trialOk: true } : {}),
  });
}

function signed(req: ExecuteRequest, tier: TierNumber, opts: { ttlS?: number } = {}): ExecuteRequest {
  return { ...req, attestations: QUORUM[tier].map((s) => attest(s, req, tier, opts)) };
}

async function execute(req: ExecuteRequest): Promise<{ err: ServiceError | null; res?: ExecuteResponse }> {
  const c = client();
  try {
    return await new Promise((resolve) => c.execute(req, new Metadata(), { deadline: Date.now() + 15_000 }, (err, res) => resolve({ err, res })));
  } finally {
    c.close();
  }
}

async function expectRefused(req: ExecuteRequest, code: string): Promise<void> {
  const { err, res } = await execute(req);
  expect(res, `accepted: ${JSON.stringify(res?.stdout?.toString())}`).toBeUndefined();
  expect(err?.code).toBe(status.PERMISSION_DENIED);
  expect(err?.details).toBe(code);
}

async function health(): Promise<{ ok: boolean; pid: number } | undefined> {
  const c = client();
  try {
    return await new Promise((resolve) =>
      c.health({}, new Metadata(), { deadline: Date.now() + 2000 }, (err, res) => resolve(err ? undefined : { ok: res.ok, pid: res.pid })),
    );
  } finally {
    c.close();
  }
}

beforeAll(async () => {
  recDir = mkdtempSync("/tmp/agent-sudo-atk-");
  chmodSync(recDir, 0o755);
  const rec = recorderShell(recDir);
  recorded = rec.log;
  // Wrap the recorder: also keep the environment the command would get.
  // Still executes nothing.
  envLog = join(recDir, "env.log");
  const shell = join(recDir, "probe.sh");
  writeFileSync(shell, `#!/bin/sh\n# test stand-in: records, never executes\nenv > '${envLog}'\nexec '${rec.shell}' "$@"\n`, { mode: 0o755 });
  stack = await startStack({ env: { AGENT_SUDO_SHELL: shell, AGENT_SUDO_LEAK_PROBE: "leaked-secret-value" } });
  for (const s of ["classifier", "concurrence", "sandbox", "breaker"] as const) keys[s] = loadPrivateKey(join(stack.home, "keys"), s);
});

afterAll(async () => {
  await stack?.stop();
  if (recDir) rmSync(recDir, { recursive: true, force: true });
});

describe("executor socket, called as a compromised gateway", () => {
  it("runs a valid tier-0 request (the baseline the refusals are measured against)", async () => {
    const { err, res } = await execute(signed(request("echo baseline"), 0));
    expect(err).toBeNull();
    expect(res?.exitCode).toBe(0);
    expect(res?.stdout.toString()).toBe("recorded\n");
    expect(recordedLines()).toContain("echo baseline");
  });

  it("runs the command with a scrubbed environment", async () => {
    const { err } = await execute(signed(request("echo env-probe"), 0));
    expect(err).toBeNull();
    const env = readFileSync(envLog, "utf8");
    expect(env).toContain("PATH=");
    expect(env).not.toContain("AGENT_SUDO_LEAK_PROBE");
    expect(env).not.toContain("leaked-secret-value");
    expect(env).not.toContain("AGENT_SUDO_HOME");
  });

  it("refuses a decision signed by an unpinned key", async () => {
    const req = request("echo unpinned");
    const rogue = generateKeyPairSync("ed25519").privateKey;
    await expectRefused({ ...req, attestations: [attest("classifier", req, 0, { key: rogue, name: "rogue-classifier" })] }, "ATTESTATION_UNPINNED");
    expect(recordedLines()).not.toContain("echo unpinned");
  });

  it("refuses a forged key presented under a pinned signer's name", async () => {
    const req = request("echo forged");
    const rogue = generateKeyPairSync("ed25519").privateKey;
    await expectRefused({ ...req, attestations: [attest("classifier", req, 0, { key: rogue })] }, "ATTESTATION_BAD_SIGNATURE");
    expect(recordedLines()).not.toContain("echo forged");
  });

  it("refuses a replayed decision", async () => {
    const req = signed(request("echo once"), 0);
    const first = await execute(req);
    expect(first.err).toBeNull();
    await expectRefused(req, "ATTESTATION_REPLAYED");
    expect(recordedLines().filter((l) => l === "echo once")).toHaveLength(1);
  });

  it("refuses an expired decision", async () => {
    const req = request("echo expired");
    const now = Math.floor(Date.now() / 1000);
    await expectRefused({ ...req, attestations: [attest("classifier", req, 0, { now: now - 120, ttlS: 30 })] }, "ATTESTATION_EXPIRED");
    expect(recordedLines()).not.toContain("echo expired");
  });

  it("refuses a valid decision presented with a different command", async () => {
    const vetted = signed(request("echo vetted"), 0);
    await expectRefused({ ...vetted, command: "echo swapped" }, "ATTESTATION_MISMATCH");
    expect(recordedLines()).not.toContain("echo swapped");
  });

  it("refuses a valid decision presented with a different cwd or run-as", async () => {
    const vetted = signed(request("echo where"), 0);
    await expectRefused({ ...vetted, cwd: "/" }, "ATTESTATION_MISMATCH");
    const vetted2 = signed(request("echo who"), 0);
    await expectRefused({ ...vetted2, runAs: "nobody" }, "ATTESTATION_MISMATCH");
    expect(recordedLines()).not.toContain("echo where");
    expect(recordedLines()).not.toContain("echo who");
  });

  it("refuses a quorum signed for another host", async () => {
    const req = request("echo elsewhere", { host: "server-01" });
    await expectRefused(signed(req, 0), "ATTESTATION_MISMATCH");
    expect(recordedLines()).not.toContain("echo elsewhere");
  });

  it("refuses tier 1 without a breaker lease and tier 4 with a full quorum", async () => {
    const t1 = request("echo lease-less");
    await expectRefused({ ...t1, attestations: [attest("classifier", t1, 1)] }, "ATTESTATION_MISSING");
    await expectRefused(signed(request("echo tier-four"), 4), "TIER_REFUSED");
    expect(recordedLines()).not.toContain("echo lease-less");
    expect(recordedLines()).not.toContain("echo tier-four");
  });

  it("refuses the classifier key speaking for the breaker", async () => {
    const req = request("echo self-lease");
    const lease = signDecision("classifier", keys.classifier, {
      role: Role.ROLE_BREAKER,
      requestId: req.requestId,
      binding: { command: req.command, cwd: req.cwd, host: req.host, runAs: req.runAs },
      tier: 1,
      ttlS: 60,
    });
    await expectRefused({ ...req, attestations: [attest("classifier", req, 1), lease] }, "ATTESTATION_MISMATCH");
    expect(recordedLines()).not.toContain("echo self-lease");
  });
});

describe("the executor's veto holds against a complete, valid quorum", () => {
  beforeAll(async () => {
    // Safety: these requests must only ever reach the stand-in shell.
    const probe = await execute(signed(request("echo stand-in-probe"), 0));
    if (probe.res?.stdout.toString() !== "recorded\n" || !recordedLines().includes("echo stand-in-probe")) {
      throw new Error("the executor is not using the recorder shell; refusing to send destructive commands");
    }
  });

  async function outcomes(commands: readonly string[], tiers: readonly TierNumber[], cwd = "/"): Promise<string[]> {
    const out: string[] = [];
    for (const command of commands) {
      for (const tier of tiers) {
        const { err, res } = await execute(signed(request(command, { cwd }), tier));
        const got = res ? "EXECUTED" : err?.code === status.PERMISSION_DENIED ? (err.details ?? "") : `grpc ${err?.code}`;
        out.push(`tier ${tier} ${command} -> ${got}`);
      }
    }
    return out;
  }

  it("refuses rm -rf / signed by the real keys at every tier", async () => {
    const got = await outcomes(["rm -rf /"], [0, 1, 3]);
    expect(got).toEqual(got.map((l) => l.replace(/-> .*$/, "-> VETOED")));
    expect(recordedLines().filter((l) => l.includes("rm "))).toEqual([]);
  });

  it("refuses rm -rf / spelled other ways: -Rf, /*, r''m, quoted /, ~, $HOME, /usr", async () => {
    const commands = ["rm -Rf /", "rm -rf /*", "r''m -rf /", "\\rm -rf /", 'rm -rf "/"', "rm -rf ~", "rm -rf $HOME", "rm -rf /usr", "rm -rf --no-preserve-root /"];
    const got = await outcomes(commands, [0]);
    expect(got).toEqual(got.map((l) => l.replace(/-> .*$/, "-> VETOED")));
    const lines = recordedLines();
    expect(commands.filter((c) => lines.includes(c))).toEqual([]);
  });

  it("refuses the other catastrophic commands with a full quorum", async () => {
    const catastrophic = ["rm -fr /", "rm -r /etc", "mkfs.ext4 /dev/sda1", "dd if=/dev/zero of=/dev/sda", "echo x > /dev/sda", ":(){ :|:& };:", "echo b > /proc/sysrq-trigger"];
    const got = await outcomes(catastrophic, [3], "/tmp");
    expect(got).toEqual(got.map((l) => l.replace(/-> .*$/, "-> VETOED")));
    const lines = recordedLines();
    for (const command of catastrophic) expect(lines).not.toContain(command);
  });
});

describe("the executor's RPC surface", () => {
  it("answers an unknown RPC path with UNIMPLEMENTED", async () => {
    const c = client();
    try {
      for (const path of ["/agent_sudo.v1.ExecutorService/Shell", "/agent_sudo.v1.ExecutorService/execute", "/agent_sudo.v1.ClassifierService/Classify", "/grpc.health.v1.Health/Check"]) {
        const err = await new Promise<ServiceError | null>((resolve) =>
          c.makeUnaryRequest(
            path,
            (b: Buffer) => b,
            (b: Buffer) => b,
            Buffer.from("echo hi"),
            new Metadata(),
            { deadline: Date.now() + 5000 },
            (e) => resolve(e),
          ),
        );
        expect(err?.code, path).toBe(status.UNIMPLEMENTED);
      }
    } finally {
      c.close();
    }
    expect(recordedLines()).not.toContain("echo hi");
  });

  it("refuses an oversized request (> 384 KiB: command, quorum, undo plan and secret variables fit below) with RESOURCE_EXHAUSTED and stays up", async () => {
    const before = await health();
    expect(before?.ok).toBe(true);
    const req = signed(request(`echo ${"A".repeat(400 * 1024)}`), 0);
    const { err, res } = await execute(req);
    expect(res).toBeUndefined();
    expect(err?.code).toBe(status.RESOURCE_EXHAUSTED);
    const after = await health();
    expect(after?.ok).toBe(true);
    expect(after?.pid).toBe(before?.pid);
    expect(recordedLines().some((l) => l.startsWith("echo AAAA"))).toBe(false);
    // and it still executes a valid request
    expect((await execute(signed(request("echo still-up"), 0))).err).toBeNull();
  });

  it("refuses a malformed request with INVALID_ARGUMENT", async () => {
    const req = signed(request("echo bad-id", { requestId: "../../etc/passwd" }), 0);
    const { err } = await execute(req);
    expect(err?.code).toBe(status.INVALID_ARGUMENT);
    expect(recordedLines()).not.toContain("echo bad-id");
  });
});

describe("replay memory across an executor restart", () => {
  it("still refuses a replay after the executor is SIGKILLed and restarted", async () => {
    const req = signed(request("echo before-restart"), 0, { ttlS: 120 });
    expect((await execute(req)).err).toBeNull();
    const pid = stack.pids().executor;
    expect(pid).toBeGreaterThan(0);
    process.kill(pid as number, "SIGKILL");

    const t0 = Date.now();
    let now: { ok: boolean; pid: number } | undefined;
    while (Date.now() - t0 < 15_000) {
      const p = stack.pids().executor;
      if (p && p !== pid) {
        now = await health();
        if (now?.ok && now.pid === p) break;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(now?.ok).toBe(true);
    expect(now?.pid).not.toBe(pid);
    await stack.waitHealthy();

    await expectRefused(req, "ATTESTATION_REPLAYED");
    expect(recordedLines().filter((l) => l === "echo before-restart")).toHaveLength(1);
    // a fresh decision still runs
    expect((await execute(signed(request("echo after-restart"), 0))).err).toBeNull();
    expect(recordedLines()).toContain("echo after-restart");
  });
});
