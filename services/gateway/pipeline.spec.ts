// The /exec pipeline against fake parts: in-process objects with the gRPC
// client methods it calls (each records its name), an in-memory audit trail
// and probe runner. Pins the order of calls per tier and the failure answers.
import { status as grpcStatus } from "@grpc/grpc-js";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import type { ClassifyResponse } from "../../proto/gen/agent_sudo/v1/classifier_pb.js";
import { Tier, type Attestation } from "../../proto/gen/agent_sudo/v1/decision_pb.js";
import { EntryKind, Manifest } from "../../proto/gen/agent_sudo/v1/manifest_pb.js";
import type { Config } from "../shared/config.js";
import type { Notifier, NtfyMessage } from "../shared/ntfy.js";
import { tierFromEnum } from "../shared/tier.js";
import { AuditUnavailable, type AuditContext, type Outcome } from "./audit-trail.js";
import type { ServiceClients } from "./clients.js";
import { effectiveCommand, ExecPipeline } from "./pipeline.js";
import type { ProbeRunner } from "./verify-outcome.js";

describe("effectiveCommand", () => {
  it("runs a mapped caller's command as that caller", () => {
    expect(effectiveCommand("whoami", "deploy")).toEqual({ command: "whoami", runAs: "deploy" });
  });
  it("runs `sudo CMD` as root, without the sudo", () => {
    expect(effectiveCommand("sudo apt-get install -y htop", "deploy")).toEqual({ command: "apt-get install -y htop", runAs: "" });
    expect(effectiveCommand("sudo  ls", "")).toEqual({ command: "ls", runAs: "" });
  });
  it("leaves sudo with options, and sudo-like words, alone", () => {
    expect(effectiveCommand("sudo -u bob id", "deploy")).toEqual({ command: "sudo -u bob id", runAs: "deploy" });
    expect(effectiveCommand("sudoedit /etc/x", "deploy")).toEqual({ command: "sudoedit /etc/x", runAs: "deploy" });
    expect(effectiveCommand("sudo", "deploy")).toEqual({ command: "sudo", runAs: "deploy" });
  });
});

type Handler = (req: Record<string, unknown>) => unknown;
type Calls = Array<{ name: string; req: Record<string, unknown> }>;

const att = (signer: string): Attestation => ({ signer, decision: Buffer.from(signer), signature: Buffer.alloc(64) });
const grpcError = (code: grpcStatus, details: string) => Object.assign(new Error(details), { code, details });

function verdict(tier: Tier, more: Partial<ClassifyResponse> = {}): ClassifyResponse {
  const base = {
    tier,
    rule: `rule-${tierFromEnum(tier)}`,
    reason: "fake",
    policyDigest: Buffer.alloc(32, 7),
    explicit: true,
    undoPaths: [],
  };
  const attrs = { network: false, verify: [], redeploy: [], packageRun: false, liveAction: false, liveMixed: "" };
  return { ...base, ...attrs, attestation: tier === Tier.TIER_REFUSE ? undefined : att("classifier"), ...more };
}

const file = (sha: number) => ({
  kind: EntryKind.ENTRY_KIND_FILE,
  mode: 0o644,
  uid: 0,
  gid: 0,
  size: 2,
  sha256: Buffer.alloc(32, sha),
  target: "",
  xattrs: [],
});
const manifest = Manifest.encode({
  requestId: "r",
  commandDigest: Buffer.alloc(32),
  host: "primary",
  changes: [{ path: "/etc/fake.conf", before: file(1), after: file(2) }],
}).finish();
const judged = (tier: Tier, signer: string) => ({
  tier,
  reasons: [`fake ${signer}`],
  attestation: tier === Tier.TIER_REFUSE ? undefined : att(signer),
});

/** What each fake part answers unless a test says otherwise: every call succeeds. */
const happy: Record<string, Handler> = {
  "executor.resolve": (req) => ({ path: req.path }),
  "classifier.classify": () => verdict(Tier.TIER_READ_ONLY),
  "concurrence.concur": () => verdict(Tier.TIER_LIVE_SERVICE, { rule: "concur" }),
  "breaker.lease": () => ({ armed: true, reason: "armed", lease: att("breaker") }),
  "breaker.report": () => ({}),
  "breaker.rollbackGrant": () => ({ granted: true, reason: "", grant: att("breaker") }),
  "sandbox.run": () => ({
    ok: true,
    exitCode: 0,
    stdout: Buffer.from("ran\n"),
    stderr: Buffer.alloc(0),
    timedOut: false,
    truncated: false,
    durationMs: 1,
    findings: [],
    gaps: [],
    manifest,
    blobs: {},
    attestation: att("sandbox"),
    conflict: false,
  }),
  "sandbox.trial": () => ({ ok: true, exitCode: 0, touchedPaths: ["/var/lib/dpkg"], findings: [], gaps: [], attestation: att("sandbox") }),
  "classifier.judgeEffects": () => judged(Tier.TIER_REVERSIBLE, "classifier-effects"),
  "concurrence.judgeEffects": () => judged(Tier.TIER_REVERSIBLE, "concurrence-effects"),
  "executor.execute": () => ({
    exitCode: 0,
    stdout: Buffer.from("ok\n"),
    stderr: Buffer.alloc(0),
    truncated: false,
    durationMs: 1,
    timedOut: false,
    signal: "",
    undoId: "",
    snapshot: "",
  }),
  "executor.commit": () => ({ undoId: "undo-1", applied: 1, snapshot: "" }),
  "executor.rollback": () => ({ restored: ["/etc/fake.conf"], removed: [], failed: [] }),
};

const METHODS = {
  executor: ["resolve", "execute", "commit", "rollback"],
  classifier: ["classify", "judgeEffects"],
  concurrence: ["concur", "judgeEffects"],
  sandbox: ["run", "trial"],
  breaker: ["lease", "report", "rollbackGrant"],
} as const;

/** Fake gRPC clients: each method has the (req, metadata, options, callback) shape `call` uses. */
function fakeClients(calls: Calls, answers: Record<string, Handler>): ServiceClients {
  const part = (service: string, methods: readonly string[]) =>
    Object.fromEntries(
      methods.map((m) => [
        m,
        (req: Record<string, unknown>, _meta: unknown, _opts: unknown, cb: (err: unknown, res?: unknown) => void) => {
          const name = `${service}.${m}`;
          calls.push({ name, req });
          const handler = answers[name] ?? happy[name];
          Promise.resolve()
            .then(() => handler?.(req))
            .then(
              (res) => cb(null, res),
              (err: unknown) => cb(err),
            );
        },
      ]),
    );
  return Object.fromEntries(Object.entries(METHODS).map(([s, ms]) => [s, part(s, ms)])) as unknown as ServiceClients;
}

/** An in-memory audit trail; `down`: the spool cannot be written. */
function fakeAudit(calls: Calls, down = false) {
  const records: Array<{ phase: string; ctx: AuditContext; outcome?: Outcome }> = [];
  const write = (phase: string, ctx: AuditContext, outcome?: Outcome) => {
    calls.push({ name: `audit.${phase}`, req: {} });
    if (!down) records.push({ phase, ctx: structuredClone(ctx), ...(outcome ? { outcome: structuredClone(outcome) } : {}) });
    return !down;
  };
  let unaudited = 0;
  return {
    records,
    unaudited: () => unaudited,
    async intent(ctx: AuditContext): Promise<void> {
      if (!write("intent", ctx)) throw new AuditUnavailable("ENOSPC");
    },
    async outcome(ctx: AuditContext, o: Outcome): Promise<boolean> {
      return write("outcome", ctx, o);
    },
    async decision(ctx: AuditContext, o: Outcome): Promise<boolean> {
      return write("decision", ctx, o);
    },
    noteUnaudited(): void {
      unaudited++;
    },
  };
}

interface Setup {
  answers?: Record<string, Handler>;
  auditDown?: boolean;
  secrets?: Record<string, unknown>;
  /** Collects what would be sent to ntfy. */
  notified?: NtfyMessage[];
}

async function exec(command: string, setup: Setup = {}, extra: { cwd?: string; env_secrets?: Record<string, string> } = {}) {
  const calls: Calls = [];
  const audit = fakeAudit(calls, setup.auditDown);
  const probes: ProbeRunner = async (probe) => {
    calls.push({ name: "verify", req: { command: probe.command } });
    return { exitCode: 0, stdout: "" };
  };
  const config = {
    host_id: "primary",
    decision_ttl_s: 300,
    secrets: setup.secrets ?? { enabled: false, allowed: [] },
  } as unknown as Config;
  const pipeline = new ExecPipeline(
    fakeClients(calls, setup.answers ?? {}),
    config,
    audit as never,
    pino({ level: "silent" }),
    setup.notified ? ({ notify: (m: NtfyMessage) => setup.notified?.push(m) } as unknown as Notifier) : undefined,
    probes,
  );
  const answer = await pipeline.run({ command, timeout: 30, ...extra }, { name: "agent", runAs: "" });
  // Breaker reports are sent without waiting: let them land.
  await new Promise((r) => setImmediate(r));
  const reports = calls.filter((c) => c.name === "breaker.report").map((c) => c.req);
  return { answer, calls, names: calls.map((c) => c.name), reports, audit };
}

const classifyAs =
  (tier: Tier, more: Partial<ClassifyResponse> = {}): Handler =>
  () =>
    verdict(tier, more);

describe("the pipeline's order of calls, per tier", () => {
  it("tier 0: classify → intent → execute → outcome → report (a clean run's report off the answer's path)", async () => {
    const { answer, names, reports, audit } = await exec("ls /etc", {}, { cwd: "/tmp" });
    expect(answer.status).toBe(200);
    expect(names).toEqual([
      "executor.resolve",
      "classifier.classify",
      "audit.intent",
      "executor.execute",
      "audit.outcome",
      "breaker.report",
    ]);
    expect(reports).toEqual([expect.objectContaining({ tier: Tier.TIER_READ_ONLY, ok: true, refused: false, unaudited: false })]);
    expect(audit.records.map((r) => r.phase)).toEqual(["intent", "outcome"]);
    expect(audit.records[1]?.outcome?.decision).toBe("executed");
    expect(audit.records[1]?.ctx).toMatchObject({
      tier: 0,
      rule: "rule-0",
      evidence: { verdict: { tier: 0 }, signers: ["classifier"], stages_ms: expect.any(Object) },
    });
  });

  it("tier 0 that fails: the breaker hears it before the outcome is written (its failure ratio acts at once)", async () => {
    const answers = { "executor.execute": () => ({ ...(happy["executor.execute"]?.({}) as object), exitCode: 1 }) };
    const { answer, names, reports } = await exec("ls /nonexistent", { answers });
    expect(answer.status).toBe(200);
    expect(names.slice(-2)).toEqual(["breaker.report", "audit.outcome"]);
    expect(reports).toEqual([expect.objectContaining({ tier: Tier.TIER_READ_ONLY, ok: false, refused: false })]);
  });

  it("tier 0 in a cwd given another way: judged and audited where it runs", async () => {
    const { names, calls, audit } = await exec(
      "ls",
      { answers: { "executor.resolve": () => ({ path: "/srv/app" }) } },
      { cwd: "/srv/./app" },
    );
    expect(names[0]).toBe("executor.resolve");
    expect(calls.find((c) => c.name === "classifier.classify")?.req).toMatchObject({ cwd: "/srv/app" });
    expect(audit.records[0]?.ctx).toMatchObject({ cwd: "/srv/app", evidence: { cwd_given: "/srv/./app" } });
  });

  it("tiers 1–2: classify → intent → run in the mirror → both judges and the lease → commit → outcome → report", async () => {
    const { answer, names, reports, audit } = await exec("touch /etc/fake.conf", {
      answers: { "classifier.classify": classifyAs(Tier.TIER_REVERSIBLE) },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ tier: 1, committed: 1, undo_id: "undo-1", output: "ran\n" });
    expect(names.slice(0, 3)).toEqual(["classifier.classify", "audit.intent", "sandbox.run"]);
    expect(names.slice(3, 6).sort()).toEqual(["breaker.lease", "classifier.judgeEffects", "concurrence.judgeEffects"]);
    expect(names.slice(6)).toEqual(["executor.commit", "audit.outcome", "breaker.report"]);
    expect(names).not.toContain("executor.execute");
    expect(reports).toEqual([expect.objectContaining({ tier: Tier.TIER_REVERSIBLE, ok: true, refused: false })]);
    const evidence = audit.records[1]?.ctx.evidence;
    expect(evidence).toMatchObject({
      run: { changed: 1 },
      effects: { classifier: { tier: 1 } },
      signers: expect.arrayContaining(["sandbox"]),
    });
  });

  it("tier 3 live action: classify → concurrence → lease → intent → execute → verify → report → outcome", async () => {
    const answers = { "classifier.classify": classifyAs(Tier.TIER_LIVE_SERVICE, { liveAction: true, verify: ["true"] }) };
    const { answer, names, reports } = await exec("fake-service restart web", { answers });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ tier: 3, verify_passed: true, rolled_back: false });
    expect(names).toEqual([
      "classifier.classify",
      "concurrence.concur",
      "breaker.lease",
      "audit.intent",
      "executor.execute",
      "verify",
      "breaker.report",
      "audit.outcome",
    ]);
    expect(reports).toEqual([expect.objectContaining({ tier: Tier.TIER_LIVE_SERVICE, ok: true })]);
  });

  it("tier 3 whose verify fails: the breaker hears it first, grants the rollback, and is not told twice", async () => {
    const answers = {
      "classifier.classify": classifyAs(Tier.TIER_LIVE_SERVICE, { liveAction: true }),
      "executor.execute": () => ({ ...(happy["executor.execute"]?.({}) as object), exitCode: 1, undoId: "undo-3" }),
    };
    const { answer, names, reports, audit } = await exec("fake-service restart web", { answers });
    expect(answer.body).toMatchObject({ exit_code: 1, verify_passed: false, rolled_back: true });
    expect(names.slice(4)).toEqual(["executor.execute", "breaker.report", "breaker.rollbackGrant", "executor.rollback", "audit.outcome"]);
    expect(reports).toEqual([expect.objectContaining({ tier: Tier.TIER_LIVE_SERVICE, ok: false, undoId: "undo-3" })]);
    expect(audit.records[1]?.outcome).toMatchObject({ decision: "verify_failed", rollbackTaken: true });
  });

  it("a package run: classify → trial → lease → intent → execute → outcome → report", async () => {
    const answers = { "classifier.classify": classifyAs(Tier.TIER_SANDBOX_FIRST, { packageRun: true }) };
    const { answer, names } = await exec("apt-get install -y htop", { answers });
    expect(answer.status).toBe(200);
    expect(names).toEqual([
      "classifier.classify",
      "sandbox.trial",
      "breaker.lease",
      "audit.intent",
      "executor.execute",
      "audit.outcome",
      "breaker.report",
    ]);
  });

  it("tier 4: the ntfy announcement carries no credential literal of the command, even one cut at the 300-character mark", async () => {
    const token = `ghp_${"aB3dE5fG7h".repeat(4)}`;
    // pad 280: the token starts at 286 and the announcement is cut at 300, inside it.
    for (const pad of [0, 280]) {
      const notified: NtfyMessage[] = [];
      const command = `${"x".repeat(pad)} echo ${token} | gh auth login --with-token; rm -rf /`;
      const { answer } = await exec(command, { answers: { "classifier.classify": classifyAs(Tier.TIER_REFUSE) }, notified });
      expect(answer.status).toBe(403);
      expect(notified).toHaveLength(1);
      const text = `${notified[0]?.title}\n${notified[0]?.body}`;
      expect(text).not.toContain(token.slice(0, 8));
      expect(text).toContain("[redacted:");
    }
  });

  it("tier 4: classify → report tier 4 → refusal audited; the executor is never called", async () => {
    const { answer, names, reports, audit } = await exec("rm -rf /", { answers: { "classifier.classify": classifyAs(Tier.TIER_REFUSE) } });
    expect(answer).toMatchObject({ status: 403, body: { error: "refused", tier: 4 } });
    expect(answer.body.audited).toBeUndefined();
    expect(names).toEqual(["classifier.classify", "breaker.report", "audit.decision"]);
    expect(reports).toEqual([expect.objectContaining({ tier: Tier.TIER_REFUSE, ok: false, refused: true, unaudited: false })]);
    expect(audit.records[0]?.outcome).toMatchObject({ decision: "refused", evidence: { http_status: 403 } });
  });
});

describe("the pipeline's failure answers", () => {
  it("audit down: 503 naming the audit, and the executor is never called", async () => {
    const { answer, names, reports } = await exec("ls /etc", { auditDown: true });
    expect(answer).toMatchObject({ status: 503, body: { error: "unavailable", component: "audit" } });
    expect(names).toEqual(["classifier.classify", "audit.intent"]);
    expect(reports).toEqual([]);
  });

  it("audit down on a transactional tier: 503 before the run in the mirror", async () => {
    const { answer, names } = await exec("touch /etc/fake.conf", {
      auditDown: true,
      answers: { "classifier.classify": classifyAs(Tier.TIER_REVERSIBLE) },
    });
    expect(answer.status).toBe(503);
    expect(names).toEqual(["classifier.classify", "audit.intent"]);
  });

  it("a tier-4 refusal that cannot be audited: still 403, audited:false, noted, and the breaker hears it unaudited", async () => {
    const { answer, reports, audit } = await exec("rm -rf /", {
      auditDown: true,
      answers: { "classifier.classify": classifyAs(Tier.TIER_REFUSE) },
    });
    expect(answer).toMatchObject({ status: 403, body: { tier: 4, audited: false } });
    expect(audit.unaudited()).toBe(1);
    // As before the restructuring: the attempt itself, then that it is not on the record (which disarms the breaker).
    expect(reports).toEqual([
      expect.objectContaining({ tier: Tier.TIER_REFUSE, refused: true, unaudited: false }),
      expect.objectContaining({ tier: Tier.TIER_REFUSE, refused: true, unaudited: true }),
    ]);
  });

  it("concurrence says 4: 403, a tier-4 report, the executor never called", async () => {
    const answers = {
      "classifier.classify": classifyAs(Tier.TIER_LIVE_SERVICE, { liveAction: true }),
      "concurrence.concur": classifyAs(Tier.TIER_REFUSE, { reason: "no" }),
    };
    const { answer, names, reports } = await exec("fake-service restart web", { answers });
    expect(answer).toMatchObject({ status: 403, body: { error: "refused", tier: 4 } });
    expect(names).toEqual(["classifier.classify", "concurrence.concur", "breaker.report", "audit.decision"]);
    expect(reports).toEqual([expect.objectContaining({ tier: Tier.TIER_REFUSE, refused: true })]);
  });

  it("executor lost mid-call: 502 outcome_unknown, audited after it, reported as refused", async () => {
    const answers = { "executor.execute": () => Promise.reject(grpcError(grpcStatus.UNAVAILABLE, "Connection dropped")) };
    const { answer, names, reports, audit } = await exec("ls /etc", { answers });
    expect(answer).toMatchObject({ status: 502, body: { error: "outcome_unknown", component: "executor" } });
    expect(names).toEqual(["classifier.classify", "audit.intent", "executor.execute", "breaker.report", "audit.outcome"]);
    expect(reports).toEqual([expect.objectContaining({ tier: Tier.TIER_READ_ONLY, ok: false, refused: true })]);
    expect(audit.records[1]?.outcome).toMatchObject({ decision: "outcome_unknown", evidence: { http_status: 502 } });
  });

  it("the run's diff judged tier 4: 403 and nothing committed", async () => {
    const answers = {
      "classifier.classify": classifyAs(Tier.TIER_REVERSIBLE),
      "concurrence.judgeEffects": () => judged(Tier.TIER_REFUSE, "concurrence-effects"),
    };
    const { answer, names, reports, audit } = await exec("touch /etc/fake.conf", { answers });
    expect(answer).toMatchObject({ status: 403, body: { error: "refused", tier: 4 } });
    expect(String(answer.body.reason)).toMatch(/nothing was committed/);
    expect(names).not.toContain("executor.commit");
    expect(names.slice(-2)).toEqual(["breaker.report", "audit.outcome"]);
    expect(reports).toEqual([expect.objectContaining({ tier: Tier.TIER_REFUSE, refused: true })]);
    expect(audit.records.map((r) => r.phase)).toEqual(["intent", "outcome"]);
  });

  it("a secret outside the allowed references: 403 before any part is asked, its name on the record", async () => {
    const secrets = { enabled: true, vault: { addr: "http://127.0.0.1:1" }, allowed: [] };
    const { answer, names, audit } = await exec("deploy", { secrets }, { env_secrets: { APP_TOKEN: "vault://kv/app#token" } });
    expect(answer).toMatchObject({ status: 403, body: { code: "SECRET_NOT_ALLOWED" } });
    expect(names).toEqual(["audit.decision"]);
    expect(audit.records[0]?.ctx.evidence).toMatchObject({ env_secrets: ["APP_TOKEN"] });
    expect(audit.records[0]?.outcome?.decision).toBe("refused");
  });

  it("a part that is down: 503 naming it, nothing reported", async () => {
    const answers = { "classifier.classify": () => Promise.reject(grpcError(grpcStatus.UNAVAILABLE, "down")) };
    const { answer, names, reports } = await exec("ls /etc", { answers });
    expect(answer).toMatchObject({ status: 503, body: { error: "unavailable", component: "classifier" } });
    expect(names).toEqual(["classifier.classify", "audit.decision"]);
    expect(reports).toEqual([]);
  });

  it("a commit that finds the host changed: 409, audited, reported as refused", async () => {
    const answers = {
      "classifier.classify": classifyAs(Tier.TIER_REVERSIBLE),
      "executor.commit": () => Promise.reject(grpcError(grpcStatus.ABORTED, "CONFLICT: /etc/fake.conf changed")),
    };
    const { answer, names, reports } = await exec("touch /etc/fake.conf", { answers });
    expect(answer).toMatchObject({ status: 409, body: { error: "conflict" } });
    expect(names.slice(-3)).toEqual(["executor.commit", "breaker.report", "audit.outcome"]);
    expect(reports).toEqual([expect.objectContaining({ tier: Tier.TIER_REVERSIBLE, ok: false, refused: true })]);
  });
});
