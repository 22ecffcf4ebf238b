// Attacks on the executor's socket by a compromised gateway: a real stack,
// the real executor (root), real keys. The executor's shell is a stand-in
// that records the command line and executes nothing, so a hole in the
// executor fails an assertion instead of running `rm -rf /` on this host.
//
// What ran is observed where it leaves a trace: tier 0 runs read-only (the
// stand-in cannot append to its log), so its runs are read from the
// executor's journal (an `execute` entry is fsynced right before a command
// starts); tier 3 runs on the host's tree (the stand-in's log, and the
// journal); a tier-1–2 diff reaches the host only through Commit (the
// journal's `commit-begin`/`commit-end`, and the scratch file it writes).
// Commits here only ever write files in this test's own temp dir.
//
// RPCs and their quorums (services/executor/main.ts):
//   Execute   tier 0: classifier; tier 3: classifier + concurrence + lease;
//             tier-2 package run: classifier (package_run) + lease + trial
//   Commit    tiers 1–2: classifier + lease for the final tier + sandbox run
//             report + both effect verdicts, over one manifest digest
//   Rollback  a grant over the undo id: breaker or operator
import { createHash, generateKeyPairSync, type KeyObject } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { credentials, Metadata, status, type ServiceError } from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BreakerServiceClient } from "../../proto/gen/agent_sudo/v1/breaker_pb.js";
import { type Attestation, Role, Tier } from "../../proto/gen/agent_sudo/v1/decision_pb.js";
import {
  type CommitRequest,
  type CommitResponse,
  ExecutorServiceClient,
  type ExecuteRequest,
  type ExecuteResponse,
  type RollbackRequest,
  type RollbackResponse,
} from "../../proto/gen/agent_sudo/v1/executor_pb.js";
import { EntryKind, EntryState, Manifest } from "../../proto/gen/agent_sudo/v1/manifest_pb.js";
import { call } from "../../services/shared/unary.js";
import {
  commandDigest,
  manifestDigest,
  type PolicySource,
  rollbackDigest,
  signDecision,
  touchedDigest,
} from "../../services/shared/attestation.js";
import { loadPrivateKey, SIGNER_ROLE, SIGNERS, type Signer } from "../../services/shared/keys.js";
import type { TierNumber } from "../../services/shared/tier.js";
import { committedCommands, executedCommands, journalEntries } from "../support/journal.js";
import { EXECUTE_QUORUM } from "../support/quorum.js";
import { recorderShell, startStack, type Stack } from "../support/stack.js";

const HOST = "primary"; // the stack's default host_id

let stack: Stack;
let recDir: string;
let scratch: string;
let recorded: string;
const keys = {} as Record<Signer, KeyObject>;
let seq = 0;

const socketPath = () => join(stack.home, "run", "executor.sock");
const client = () => new ExecutorServiceClient(`unix://${socketPath()}`, credentials.createInsecure());
const recordedLines = () => readFileSync(recorded, "utf8").split("\n").filter(Boolean);
/** Every command that ran or was committed, by every trace it can leave. */
const ran = () => [...executedCommands(stack.home), ...committedCommands(stack.home), ...recordedLines()];
const nextId = () => `atk-${process.pid}-${++seq}`;

function request(command: string, over: Partial<ExecuteRequest> = {}): ExecuteRequest {
  return {
    requestId: nextId(),
    command,
    cwd: "/tmp",
    host: HOST,
    runAs: "",
    timeoutS: 10,
    attestations: [],
    undoPaths: [],
    env: {},
    ...over,
  };
}

type Bindable = { requestId: string; command: string; cwd: string; host: string; runAs: string; envNames?: readonly string[] };

interface AttestOpts {
  key?: KeyObject;
  name?: string;
  role?: Role;
  ttlS?: number;
  now?: number;
  bind?: Partial<Bindable>;
  source?: PolicySource;
  manifest?: Buffer;
  trialOk?: boolean;
  touched?: readonly string[];
  network?: boolean;
  packageRun?: boolean;
  /** The classifier's live_action flag; by default set on its tier-3 decisions (what a live action gets). */
  liveAction?: boolean;
}

/** What an honest signer would sign for `req` (its binding, unless overridden). */
function attest(signer: Signer, req: Bindable, tier: TierNumber, o: AttestOpts = {}): Attestation {
  const b = { ...req, ...o.bind };
  return signDecision(o.name ?? signer, o.key ?? keys[signer], {
    role: o.role ?? SIGNER_ROLE[signer],
    requestId: b.requestId,
    binding: { command: b.command, cwd: b.cwd, host: b.host, runAs: b.runAs, envNames: b.envNames ?? [], source: o.source ?? "sudo" },
    tier,
    ttlS: o.ttlS ?? 60,
    ...(o.now !== undefined ? { now: o.now } : {}),
    ...(o.manifest ? { manifestDigest: o.manifest } : {}),
    ...(o.trialOk !== undefined ? { trialOk: o.trialOk } : signer === "sandbox" ? { trialOk: true } : {}),
    ...(o.touched ? { touchedDigest: touchedDigest(o.touched) } : {}),
    ...(o.network ? { network: true } : {}),
    ...(o.packageRun ? { packageRun: true } : {}),
    ...((o.liveAction ?? (signer === "classifier" && tier === 3 && (o.role ?? SIGNER_ROLE[signer]) === Role.ROLE_CLASSIFIER))
      ? { liveAction: true }
      : {}),
  });
}

/** The full quorum an honest gateway would gather for Execute at `tier` (the classifier signs the undo plan from tier 1). */
function signed(req: ExecuteRequest, tier: TierNumber, o: AttestOpts = {}): ExecuteRequest {
  return {
    ...req,
    attestations: EXECUTE_QUORUM[tier].map((s) =>
      attest(s, req, tier, { ...o, ...(s === "classifier" && tier >= 1 ? { touched: req.undoPaths } : {}) }),
    ),
  };
}

function rpc<Req, Res>(method: "execute" | "commit" | "rollback" | "resolve", req: Req): Promise<{ err: ServiceError | null; res?: Res }> {
  const c = client();
  const fn = (
    c[method] as unknown as (r: Req, m: Metadata, o: { deadline: number }, cb: (e: ServiceError | null, r?: Res) => void) => void
  ).bind(c);
  return new Promise<{ err: ServiceError | null; res?: Res }>((resolve) =>
    fn(req, new Metadata(), { deadline: Date.now() + 30_000 }, (err, res) => resolve({ err, res })),
  ).finally(() => c.close());
}
const execute = (req: ExecuteRequest) => rpc<ExecuteRequest, ExecuteResponse>("execute", req);
const commit = (req: CommitRequest) => rpc<CommitRequest, CommitResponse>("commit", req);
const rollback = (req: RollbackRequest) => rpc<RollbackRequest, RollbackResponse>("rollback", req);

async function expectRefused(p: Promise<{ err: ServiceError | null; res?: unknown }>, code: string): Promise<void> {
  const { err, res } = await p;
  expect(res, `accepted: ${JSON.stringify(res)?.slice(0, 200)}`).toBeUndefined();
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

// ---- transactional runs: a manifest that creates one scratch file --------------------------

const sha = (b: Uint8Array) => createHash("sha256").update(b).digest();

interface Diff {
  req: CommitRequest;
  target: string;
  content: Buffer;
  digest: Buffer;
}

/**
 * A tier-1–2 run's diff as the sandbox would sign it: `target` (a new file
 * in this test's scratch dir) created with `content`. Nothing is signed yet.
 */
function diff(
  command?: string,
  o: { target?: string; requestId?: string; content?: string; manifestRequestId?: string; bind?: Partial<Bindable> } = {},
): Diff {
  const requestId = o.requestId ?? nextId();
  const target = o.target ?? join(scratch, `${requestId}.committed`);
  const content = Buffer.from(o.content ?? `committed by ${requestId}\n`);
  const b = {
    requestId,
    command: command ?? `echo x > ${target}`,
    cwd: scratch,
    host: HOST,
    runAs: "",
    envNames: [] as string[],
    ...o.bind,
  };
  const manifest = Manifest.create({
    requestId: o.manifestRequestId ?? requestId,
    commandDigest: commandDigest({ ...b, source: "sudo" }),
    host: HOST,
    changes: [
      {
        path: target,
        before: EntryState.create({ kind: EntryKind.ENTRY_KIND_ABSENT }),
        after: EntryState.create({
          kind: EntryKind.ENTRY_KIND_FILE,
          mode: 0o644,
          uid: 0,
          gid: 0,
          size: content.length,
          sha256: sha(content),
        }),
      },
    ],
  });
  const encoded = Buffer.from(Manifest.encode(manifest).finish());
  return {
    req: { ...b, attestations: [], manifest: encoded, blobs: { [sha(content).toString("hex")]: content } },
    target,
    content,
    digest: manifestDigest(encoded),
  };
}

interface CommitQuorum {
  /** The classifier's predicted tier (1 or 2 for a commit). */
  predicted?: TierNumber;
  /** Both effect verdicts' tier. */
  effects?: TierNumber;
  /** The lease's tier (default: the worst of predicted and effects). */
  lease?: TierNumber;
  /** Roles left out. */
  omit?: Role[];
  /** Manifest digest each signer binds (default: the diff's). */
  manifest?: Buffer;
  trialOk?: boolean;
  source?: PolicySource;
  classifierPackageRun?: boolean;
  /** The classifier's live_action flag (default: set at tier 3, as for a live action). */
  classifierLiveAction?: boolean;
}

/** The five attestations an honest gateway gathers for a commit. */
function commitQuorum(d: Diff, q: CommitQuorum = {}): Attestation[] {
  const predicted = q.predicted ?? 1;
  const effects = q.effects ?? predicted;
  const leased = q.lease ?? (Math.max(predicted, effects) as TierNumber);
  const m = q.manifest ?? d.digest;
  const all: Array<[Role, () => Attestation]> = [
    [
      Role.ROLE_CLASSIFIER,
      () =>
        attest("classifier", d.req, predicted, {
          ...(q.source ? { source: q.source } : {}),
          ...(q.classifierPackageRun ? { packageRun: true } : {}),
          ...(q.classifierLiveAction !== undefined ? { liveAction: q.classifierLiveAction } : {}),
        }),
    ],
    [Role.ROLE_BREAKER, () => attest("breaker", d.req, leased)],
    [Role.ROLE_SANDBOX, () => attest("sandbox", d.req, 2, { manifest: m, trialOk: q.trialOk ?? true })],
    [Role.ROLE_CLASSIFIER_EFFECTS, () => attest("classifier", d.req, effects, { role: Role.ROLE_CLASSIFIER_EFFECTS, manifest: m })],
    [Role.ROLE_CONCURRENCE_EFFECTS, () => attest("concurrence", d.req, effects, { role: Role.ROLE_CONCURRENCE_EFFECTS, manifest: m })],
  ];
  return all.filter(([role]) => !q.omit?.includes(role)).map(([, make]) => make());
}

const withQuorum = (d: Diff, q: CommitQuorum = {}): CommitRequest => ({ ...d.req, attestations: commitQuorum(d, q) });

/** Nothing of `d` reached the host: no file, no commit in the journal. */
function expectNotCommitted(d: Diff): void {
  expect(existsSync(d.target), `${d.target} was written`).toBe(false);
  expect(journalEntries(stack.home).filter((e) => e.request_id === d.req.requestId && String(e.event).startsWith("commit"))).toEqual([]);
}

beforeAll(async () => {
  recDir = realpathSync(mkdtempSync("/tmp/agent-sudo-atk-"));
  chmodSync(recDir, 0o755);
  scratch = join(recDir, "scratch");
  mkdirSync(scratch, { mode: 0o755 });
  const rec = recorderShell(recDir);
  recorded = rec.log;
  // Wrap the recorder: also print the environment the command would get
  // (on stderr, which reaches the answer: tier 0 cannot write a file).
  // Still executes nothing.
  const shell = join(recDir, "probe.sh");
  writeFileSync(shell, `#!/bin/sh\n# test stand-in: records, never executes\nenv >&2\nexec '${rec.shell}' "$@"\n`, { mode: 0o755 });
  stack = await startStack({ env: { AGENT_SUDO_SHELL: shell, AGENT_SUDO_LEAK_PROBE: "leaked-secret-value" } });
  for (const s of SIGNERS) keys[s] = loadPrivateKey(join(stack.home, "keys"), s);
});

afterAll(async () => {
  await stack?.stop();
  if (recDir) rmSync(recDir, { recursive: true, force: true });
});

describe("executor socket, called as a compromised gateway", () => {
  it("runs a valid tier-0 request (the baseline the refusals are measured against)", async () => {
    const req = signed(request("echo baseline"), 0);
    const { err, res } = await execute(req);
    expect(err).toBeNull();
    expect(res?.exitCode).toBe(0);
    expect(res?.stdout.toString()).toBe("recorded\n");
    const entry = journalEntries(stack.home, "execute").find((e) => e.request_id === req.requestId);
    expect(entry).toMatchObject({ command: "echo baseline", tier: 0, signers: ["classifier"] });
    // Tier 0 is read-only: the stand-in's append to its log vanished.
    expect(recordedLines()).not.toContain("echo baseline");
  });

  it("runs a valid tier-3 request in the live envelope (its write lands)", async () => {
    const req = signed(request("echo tier-three-baseline"), 3);
    const { err, res } = await execute(req);
    expect(err).toBeNull();
    expect(res?.stdout.toString()).toBe("recorded\n");
    expect(recordedLines()).toContain("echo tier-three-baseline");
    expect(journalEntries(stack.home, "execute").find((e) => e.request_id === req.requestId)).toMatchObject({
      tier: 3,
      signers: ["classifier", "concurrence", "breaker"],
    });
  });

  it("runs the command with a scrubbed environment", async () => {
    const { err, res } = await execute(signed(request("echo env-probe"), 0));
    expect(err).toBeNull();
    const env = Buffer.from(res?.stderr ?? []).toString();
    expect(env).toContain("PATH=");
    expect(env).not.toContain("AGENT_SUDO_LEAK_PROBE");
    expect(env).not.toContain("leaked-secret-value");
    expect(env).not.toContain("AGENT_SUDO_HOME");
  });

  it("refuses a decision signed by an unpinned key", async () => {
    const req = request("echo unpinned");
    const rogue = generateKeyPairSync("ed25519").privateKey;
    await expectRefused(
      execute({ ...req, attestations: [attest("classifier", req, 0, { key: rogue, name: "rogue-classifier" })] }),
      "ATTESTATION_UNPINNED",
    );
    expect(ran()).not.toContain("echo unpinned");
  });

  it("refuses a forged key presented under a pinned signer's name", async () => {
    const req = request("echo forged");
    const rogue = generateKeyPairSync("ed25519").privateKey;
    await expectRefused(execute({ ...req, attestations: [attest("classifier", req, 0, { key: rogue })] }), "ATTESTATION_BAD_SIGNATURE");
    expect(ran()).not.toContain("echo forged");
  });

  it("refuses a replayed decision", async () => {
    const req = signed(request("echo once"), 0);
    const first = await execute(req);
    expect(first.err).toBeNull();
    await expectRefused(execute(req), "ATTESTATION_REPLAYED");
    expect(ran().filter((l) => l === "echo once")).toHaveLength(1);
  });

  it("refuses an expired decision", async () => {
    const req = request("echo expired");
    const now = Math.floor(Date.now() / 1000);
    await expectRefused(
      execute({ ...req, attestations: [attest("classifier", req, 0, { now: now - 120, ttlS: 30 })] }),
      "ATTESTATION_EXPIRED",
    );
    expect(ran()).not.toContain("echo expired");
  });

  it("refuses a valid decision presented with a different command", async () => {
    const vetted = signed(request("echo vetted"), 0);
    await expectRefused(execute({ ...vetted, command: "echo swapped" }), "ATTESTATION_MISMATCH");
    expect(ran()).not.toContain("echo swapped");
  });

  it("refuses a valid decision presented with a different cwd or run-as", async () => {
    const vetted = signed(request("echo where"), 0);
    await expectRefused(execute({ ...vetted, cwd: "/" }), "ATTESTATION_MISMATCH");
    const vetted2 = signed(request("echo who"), 0);
    await expectRefused(execute({ ...vetted2, runAs: "nobody" }), "ATTESTATION_MISMATCH");
    expect(ran()).not.toContain("echo where");
    expect(ran()).not.toContain("echo who");
  });

  it("refuses a quorum signed for another host", async () => {
    const req = request("echo elsewhere", { host: "server-01" });
    await expectRefused(execute(signed(req, 0)), "ATTESTATION_MISMATCH");
    expect(ran()).not.toContain("echo elsewhere");
  });

  it("refuses tiers 1 and 2 on Execute even with their full quorum, tier 3 without a lease or that is not a live action, and tier 4 with a full quorum", async () => {
    // Tiers 1–2 reach the host only as a committed diff.
    await expectRefused(execute(signed(request("echo tier-one-direct"), 1)), "ATTESTATION_MISMATCH");
    await expectRefused(execute(signed(request("echo tier-two-direct"), 2)), "ATTESTATION_MISMATCH");
    const t1 = request("echo lease-less-one");
    await expectRefused(execute({ ...t1, attestations: [attest("classifier", t1, 1, { touched: [] })] }), "ATTESTATION_MISMATCH");
    const t3 = request("echo lease-less");
    await expectRefused(
      execute({ ...t3, attestations: [attest("classifier", t3, 3, { touched: [] }), attest("concurrence", t3, 3)] }),
      "ATTESTATION_MISSING",
    );
    const t3low = request("echo lease-too-low");
    await expectRefused(
      execute({
        ...t3low,
        attestations: [attest("classifier", t3low, 3, { touched: [] }), attest("concurrence", t3low, 3), attest("breaker", t3low, 2)],
      }),
      "ATTESTATION_MISMATCH",
    );
    await expectRefused(execute(signed(request("echo tier-four"), 4)), "TIER_REFUSED");
    // A tier 3 that is not a live action (raised by what it writes) with its full quorum: only as a diff.
    await expectRefused(execute(signed(request("echo tier-three-writer"), 3, { liveAction: false })), "ATTESTATION_MISMATCH");
    for (const c of [
      "echo tier-one-direct",
      "echo tier-two-direct",
      "echo lease-less-one",
      "echo lease-less",
      "echo lease-too-low",
      "echo tier-four",
      "echo tier-three-writer",
    ])
      expect(ran()).not.toContain(c);
  });

  it("refuses a tier-2 package run without the sandbox's ok trial, and a package_run flag from anyone but the classifier", async () => {
    const noTrial = request("apt-get install -y hello-atk");
    await expectRefused(
      execute({
        ...noTrial,
        attestations: [
          attest("classifier", noTrial, 2, { packageRun: true }),
          attest("breaker", noTrial, 2),
          attest("sandbox", noTrial, 2, { trialOk: false, touched: [] }),
        ],
      }),
      "ATTESTATION_MISSING",
    );
    const flagElsewhere = request("apt-get install -y hello-atk2");
    await expectRefused(
      execute({
        ...flagElsewhere,
        attestations: [
          attest("classifier", flagElsewhere, 2),
          attest("breaker", flagElsewhere, 2, { packageRun: true }),
          attest("sandbox", flagElsewhere, 2, { packageRun: true, touched: [] }),
        ],
      }),
      "ATTESTATION_MISMATCH",
    );
    expect(ran().filter((l) => l.includes("hello-atk"))).toEqual([]);
  });

  it("refuses the classifier key speaking for the breaker", async () => {
    const req = request("echo self-lease");
    const lease = attest("classifier", req, 3, { role: Role.ROLE_BREAKER });
    await expectRefused(
      execute({ ...req, attestations: [attest("classifier", req, 3, { touched: [] }), attest("concurrence", req, 3), lease] }),
      "ATTESTATION_MISMATCH",
    );
    expect(ran()).not.toContain("echo self-lease");
  });

  it("refuses a decision the classifier made with the hook's policy (source claude)", async () => {
    const t0 = request("echo judged-for-the-hook");
    await expectRefused(execute({ ...t0, attestations: [attest("classifier", t0, 0, { source: "claude" })] }), "ATTESTATION_MISMATCH");
    const t3 = request("echo judged-for-the-hook-3");
    await expectRefused(execute(signed(t3, 3, { source: "claude" })), "ATTESTATION_MISMATCH");
    // Only the classifier's decision made with CLAUDE_CMDS.md, the rest honest for /exec.
    const mixed = request("echo judged-for-the-hook-mixed");
    await expectRefused(
      execute({
        ...mixed,
        attestations: [
          attest("classifier", mixed, 3, { source: "claude", touched: [] }),
          attest("concurrence", mixed, 3),
          attest("breaker", mixed, 3),
        ],
      }),
      "ATTESTATION_MISMATCH",
    );
    for (const c of ["echo judged-for-the-hook", "echo judged-for-the-hook-3", "echo judged-for-the-hook-mixed"])
      expect(ran()).not.toContain(c);
  });

  it("refuses a cwd through a symlink, even when every signer bound that path", async () => {
    const real = join(recDir, "real-dir");
    mkdirSync(real, { recursive: true });
    const link = join(recDir, "link-dir");
    if (!existsSync(link)) symlinkSync(real, link);
    mkdirSync(join(real, "sub"), { recursive: true });
    // The executor tells the gateway the canonical form…
    const resolved = await rpc<{ path: string }, { path: string }>("resolve", { path: join(link, "sub") });
    expect(resolved.res?.path).toBe(join(real, "sub"));
    // … and runs nowhere else.
    for (const [cwd, tier] of [
      [link, 0],
      [join(link, "sub"), 0],
      [link, 3],
      ["/tmp/../tmp", 0],
    ] as const) {
      const req = signed(request(`echo through-a-link-${tier}-${cwd.length}`, { cwd }), tier);
      const { err, res } = await execute(req);
      expect(res, cwd).toBeUndefined();
      expect(err?.code, cwd).toBe(status.INVALID_ARGUMENT);
      expect(err?.details, cwd).toMatch(/^BAD_REQUEST: cwd is not canonical/);
      expect(ran()).not.toContain(req.command);
    }
  });

  it("a signed cwd in a masked path (the stack's own state) is refused before root looks, every refusal alike", async () => {
    const home = realpathSync(stack.home);
    const link = join(recDir, "to-the-state");
    if (!existsSync(link)) symlinkSync(home, link);
    const answers = new Set<string>();
    for (const cwd of [join(home, "keys"), join(home, "no-such-dir"), home, join(link, "keys"), join(link, "no-such-dir")]) {
      const req = signed(request(`echo masked-cwd-${cwd.length}`, { cwd }), 0);
      const { err, res } = await execute(req);
      expect(res, cwd).toBeUndefined();
      answers.add(`${err?.code} ${err?.details}`);
      expect(ran()).not.toContain(req.command);
    }
    // Whether a name under the mask exists is not told: one answer for all.
    expect([...answers]).toEqual([`${status.INVALID_ARGUMENT} BAD_REQUEST: cwd is not canonical, not there or masked: resolve it first`]);
  });
});

describe("Commit: a tier-1–3 diff reaches the host only with its whole quorum", () => {
  it("commits a fully signed diff exactly (the baseline the refusals are measured against)", async () => {
    const d = diff();
    const { err, res } = await commit(withQuorum(d));
    expect(err).toBeNull();
    expect(res?.applied).toBe(1);
    expect(readFileSync(d.target)).toEqual(d.content);
    const begin = journalEntries(stack.home, "commit-begin").find((e) => e.request_id === d.req.requestId);
    expect(begin).toMatchObject({ tier: 1, command: d.req.command, undo_id: res?.undoId });
    expect([...(begin?.signers ?? [])].sort()).toEqual(["breaker", "classifier", "classifier", "concurrence", "sandbox"]);
    expect(committedCommands(stack.home)).toContain(d.req.command);
  });

  it("commits the diff of a tier-3 command that is not a live action (a tier 3 raised by what it writes), under a tier-3 lease only", async () => {
    const low = diff();
    await expectRefused(commit(withQuorum(low, { predicted: 3, classifierLiveAction: false, lease: 2 })), "ATTESTATION_MISMATCH");
    expectNotCommitted(low);
    const d = diff();
    const { err, res } = await commit(withQuorum(d, { predicted: 3, classifierLiveAction: false }));
    expect(err).toBeNull();
    expect(res?.applied).toBe(1);
    expect(readFileSync(d.target)).toEqual(d.content);
    expect(journalEntries(stack.home, "commit-begin").find((e) => e.request_id === d.req.requestId)).toMatchObject({ tier: 3 });
  });

  it.each([
    ["the classifier's decision", Role.ROLE_CLASSIFIER],
    ["the lease", Role.ROLE_BREAKER],
    ["the sandbox's run report", Role.ROLE_SANDBOX],
    ["the classifier's effect verdict", Role.ROLE_CLASSIFIER_EFFECTS],
    ["the concurrence's effect verdict", Role.ROLE_CONCURRENCE_EFFECTS],
  ])("refuses a commit without %s", async (_what, role) => {
    const d = diff();
    await expectRefused(commit(withQuorum(d, { omit: [role] })), "ATTESTATION_MISSING");
    expectNotCommitted(d);
  });

  it("refuses a diff judged tier 4 by either judge, and a lease below the judged tier", async () => {
    const d4 = diff();
    await expectRefused(commit(withQuorum(d4, { effects: 4, lease: 3 })), "TIER_REFUSED");
    expectNotCommitted(d4);
    const one4 = diff();
    const q = commitQuorum(one4);
    q[4] = attest("concurrence", one4.req, 4, { role: Role.ROLE_CONCURRENCE_EFFECTS, manifest: one4.digest });
    await expectRefused(commit({ ...one4.req, attestations: q }), "TIER_REFUSED");
    expectNotCommitted(one4);
    const d3 = diff();
    await expectRefused(commit(withQuorum(d3, { effects: 3, lease: 2 })), "ATTESTATION_MISMATCH");
    expectNotCommitted(d3);
  });

  it("refuses a commit for a command predicted tier 0 or 4, a tier-3 live action, or a package run", async () => {
    for (const predicted of [0, 3] as const) {
      // Tier 3 here is a live action (the classifier signed live_action): it runs on the host or not at all.
      const d = diff();
      await expectRefused(commit(withQuorum(d, { predicted, lease: 3 })), "ATTESTATION_MISMATCH");
      expectNotCommitted(d);
    }
    const d4 = diff();
    await expectRefused(commit(withQuorum(d4, { predicted: 4, lease: 3 })), "ATTESTATION_MISMATCH");
    expectNotCommitted(d4);
    const pkg = diff();
    await expectRefused(commit(withQuorum(pkg, { predicted: 2, classifierPackageRun: true })), "ATTESTATION_MISMATCH");
    expectNotCommitted(pkg);
  });

  it("refuses a run report that is not ok", async () => {
    const d = diff();
    await expectRefused(commit(withQuorum(d, { trialOk: false })), "ATTESTATION_MISSING");
    expectNotCommitted(d);
  });

  it("refuses another manifest than the one every signer saw, and content that is not the signed content", async () => {
    // Signed over manifest A, presented with manifest B (same request, another file).
    const a = diff();
    const b = diff(a.req.command, { requestId: a.req.requestId, target: join(scratch, `${a.req.requestId}.swapped`) });
    await expectRefused(commit({ ...b.req, attestations: commitQuorum(a) }), "ATTESTATION_MISMATCH");
    expectNotCommitted(a);
    expectNotCommitted(b);
    // One judge rated another manifest.
    const c = diff();
    const q = commitQuorum(c);
    q[3] = attest("classifier", c.req, 1, {
      role: Role.ROLE_CLASSIFIER_EFFECTS,
      manifest: manifestDigest(Buffer.from("another manifest")),
    });
    await expectRefused(commit({ ...c.req, attestations: q }), "ATTESTATION_MISMATCH");
    expectNotCommitted(c);
    // The blob is not the content the manifest's sha256 names.
    const t = diff();
    const tampered = { ...withQuorum(t), blobs: { [sha(t.content).toString("hex")]: Buffer.from("#!/bin/sh\nsomething else\n") } };
    const r = await commit(tampered);
    expect(r.res).toBeUndefined();
    expect(r.err?.code).toBe(status.INVALID_ARGUMENT);
    expect(r.err?.details).toMatch(/not what was signed/);
    expectNotCommitted(t);
  });

  it("refuses a manifest of another request, and a quorum presented with another command, cwd or host", async () => {
    const other = diff(undefined, { manifestRequestId: "someone-elses-run" });
    await expectRefused(commit(withQuorum(other)), "ATTESTATION_MISMATCH");
    expectNotCommitted(other);
    for (const swap of [{ command: "echo swapped > /tmp/x" }, { cwd: "/" }, { runAs: "nobody" }, { host: "server-01" }] as const) {
      const d = diff();
      await expectRefused(commit({ ...withQuorum(d), ...swap }), "ATTESTATION_MISMATCH");
      expectNotCommitted(d);
    }
  });

  it("refuses unpinned and forged keys, a key speaking for another role, the hook's policy, and a replay", async () => {
    const rogue = generateKeyPairSync("ed25519").privateKey;
    const forge = (d: Diff, i: number, a: Attestation) => {
      const q = commitQuorum(d);
      q[i] = a;
      return { ...d.req, attestations: q };
    };
    const u = diff();
    await expectRefused(
      commit(forge(u, 2, attest("sandbox", u.req, 2, { key: rogue, name: "rogue-sandbox", manifest: u.digest }))),
      "ATTESTATION_UNPINNED",
    );
    const f = diff();
    await expectRefused(
      commit(forge(f, 4, attest("concurrence", f.req, 1, { key: rogue, role: Role.ROLE_CONCURRENCE_EFFECTS, manifest: f.digest }))),
      "ATTESTATION_BAD_SIGNATURE",
    );
    // The sandbox's key signing the concurrence's effect verdict; the classifier's signing a lease.
    const s = diff();
    await expectRefused(
      commit(forge(s, 4, attest("sandbox", s.req, 1, { role: Role.ROLE_CONCURRENCE_EFFECTS, manifest: s.digest }))),
      "ATTESTATION_MISMATCH",
    );
    const l = diff();
    await expectRefused(commit(forge(l, 1, attest("classifier", l.req, 1, { role: Role.ROLE_BREAKER }))), "ATTESTATION_MISMATCH");
    // A grant (operator) has no place in a commit's quorum.
    const g = diff();
    await expectRefused(
      commit({ ...withQuorum(g), attestations: [...commitQuorum(g), attest("operator", g.req, 1)] }),
      "ATTESTATION_MALFORMED",
    );
    const c = diff();
    await expectRefused(commit(withQuorum(c, { source: "claude" })), "ATTESTATION_MISMATCH");
    const e = diff();
    const now = Math.floor(Date.now() / 1000);
    await expectRefused(commit(forge(e, 0, attest("classifier", e.req, 1, { now: now - 120, ttlS: 30 }))), "ATTESTATION_EXPIRED");
    for (const d of [u, f, s, l, g, c, e]) expectNotCommitted(d);
    // A replay of a commit that went through.
    const r = diff();
    const once = withQuorum(r);
    expect((await commit(once)).err).toBeNull();
    rmSync(r.target); // the host is back to the diff's `before`: only the replay memory stands in the way
    await expectRefused(commit(once), "ATTESTATION_REPLAYED");
    expect(existsSync(r.target)).toBe(false);
    expect(journalEntries(stack.home, "commit-begin").filter((x) => x.request_id === r.req.requestId)).toHaveLength(1);
  });

  it("refuses (409, nothing written) a diff whose host path changed since the run", async () => {
    const d = diff();
    writeFileSync(d.target, "written on the host after the run\n");
    const { err, res } = await commit(withQuorum(d));
    expect(res).toBeUndefined();
    expect(err?.code).toBe(status.ABORTED);
    expect(err?.details).toBe("CONFLICT");
    expect(readFileSync(d.target, "utf8")).toBe("written on the host after the run\n");
    expect(committedCommands(stack.home)).not.toContain(d.req.command);
  });
});

describe("Rollback: only a grant over exactly that undo id, from the breaker or a person", () => {
  let d: Diff;
  let undoId: string;
  const grantFor = (id: string, o: { signer?: Signer; role?: Role; host?: string; key?: KeyObject; name?: string } = {}) =>
    signDecision(o.name ?? o.signer ?? "operator", o.key ?? keys[o.signer ?? "operator"], {
      role: o.role ?? Role.ROLE_OPERATOR,
      requestId: nextId(),
      binding: { command: "", cwd: "", host: o.host ?? HOST, runAs: "", source: "sudo" },
      commandDigest: rollbackDigest(id, o.host ?? HOST),
      tier: 0,
      ttlS: 30,
      rule: "operator rollback",
    });
  const rolledBack = () => journalEntries(stack.home).filter((e) => String(e.event).startsWith("rollback") && e.undo_id === undoId);

  beforeAll(async () => {
    d = diff();
    const { err, res } = await commit(withQuorum(d));
    expect(err).toBeNull();
    undoId = res?.undoId ?? "";
    expect(undoId).toMatch(/^[0-9a-f-]{36}$/);
    expect(existsSync(d.target)).toBe(true);
  });

  it("refuses a rollback without a grant", async () => {
    await expectRefused(rollback({ requestId: nextId(), undoId, grant: undefined }), "ATTESTATION_MISSING");
    expect(existsSync(d.target)).toBe(true);
    expect(rolledBack()).toEqual([]);
  });

  it("refuses a grant for another undo id, or for another host", async () => {
    const other = "0f8fad5b-d9cb-469f-a165-70867728950e";
    await expectRefused(rollback({ requestId: nextId(), undoId, grant: grantFor(other) }), "ATTESTATION_MISMATCH");
    await expectRefused(rollback({ requestId: nextId(), undoId, grant: grantFor(undoId, { host: "server-01" }) }), "ATTESTATION_MISMATCH");
    expect(existsSync(d.target)).toBe(true);
    expect(rolledBack()).toEqual([]);
  });

  it("refuses a lease, or any command decision, presented as a grant", async () => {
    // The commit's own lease and the classifier's decision: breaker- and classifier-signed, bound to the command.
    const q = commitQuorum(d);
    for (const a of [q[1], q[0], q[2]]) await expectRefused(rollback({ requestId: nextId(), undoId, grant: a }), "ATTESTATION_MISMATCH");
    expect(existsSync(d.target)).toBe(true);
    expect(rolledBack()).toEqual([]);
  });

  it("refuses a grant signed by a key that may not grant (classifier, concurrence, sandbox), under its own role or the operator's, and a forged operator key", async () => {
    for (const signer of ["classifier", "concurrence", "sandbox"] as const) {
      await expectRefused(
        rollback({ requestId: nextId(), undoId, grant: grantFor(undoId, { signer, role: SIGNER_ROLE[signer] }) }),
        "ATTESTATION_MISMATCH",
      );
      await expectRefused(
        rollback({ requestId: nextId(), undoId, grant: grantFor(undoId, { signer, role: Role.ROLE_OPERATOR }) }),
        "ATTESTATION_MISMATCH",
      );
    }
    await expectRefused(
      rollback({ requestId: nextId(), undoId, grant: grantFor(undoId, { key: generateKeyPairSync("ed25519").privateKey }) }),
      "ATTESTATION_BAD_SIGNATURE",
    );
    expect(existsSync(d.target)).toBe(true);
    expect(rolledBack()).toEqual([]);
  });

  it("the breaker grants no rollback of an undo record it heard no failed tier-3 verify for", async () => {
    const breaker = new BreakerServiceClient(`unix://${join(stack.home, "run", "breaker.sock")}`, credentials.createInsecure());
    try {
      const g = await call(breaker, breaker.rollbackGrant, { requestId: nextId(), undoId }, 3000);
      expect(g.granted).toBe(false);
      expect(g.grant).toBeUndefined();
    } finally {
      breaker.close();
    }
  });

  it("refuses the breaker's grant a compromised gateway obtains by reporting a failed tier-3 verify for a committed diff's undo id", async () => {
    // The breaker signs on the gateway's word: the gateway reports any undo id it has seen (here a tier-1
    // commit's, under the commit's own request id) as a failed tier-3 verify, and the breaker grants.
    // The executor takes that grant only for a recent live action's own record. (One report only: three
    // tier-3 failures would disarm the breaker for the tests after this one.)
    const breaker = new BreakerServiceClient(`unix://${join(stack.home, "run", "breaker.sock")}`, credentials.createInsecure());
    const requestId = d.req.requestId;
    try {
      const outcome = { requestId, tier: Tier.TIER_LIVE_SERVICE, ok: false, refused: false, undoId, unaudited: false };
      await call(breaker, breaker.report, outcome, 3000);
      // The grant names the request that reported the failure: another request cannot ask for it.
      expect((await call(breaker, breaker.rollbackGrant, { requestId: nextId(), undoId }, 3000)).granted).toBe(false);
      const g = await call(breaker, breaker.rollbackGrant, { requestId, undoId }, 3000);
      expect(g.granted).toBe(true);
      await expectRefused(rollback({ requestId, undoId, grant: g.grant }), "ATTESTATION_MISMATCH");
    } finally {
      breaker.close();
    }
    expect(existsSync(d.target)).toBe(true);
    expect(rolledBack()).toEqual([]);
  });

  it("refuses a breaker lease asked for over the rollback digest (a lease is not a grant)", async () => {
    // A compromised gateway holds the breaker's socket: it may ask for a
    // lease over any 32-byte digest — here the one a grant binds. (Its own
    // undo record, so the baseline below stands whatever happens here.)
    const mine = diff();
    const committed = await commit(withQuorum(mine));
    expect(committed.err).toBeNull();
    const undoId = committed.res?.undoId ?? "";
    const breaker = new BreakerServiceClient(`unix://${join(stack.home, "run", "breaker.sock")}`, credentials.createInsecure());
    let lease: Attestation | undefined;
    try {
      const l = await call(
        breaker,
        breaker.lease,
        { requestId: nextId(), commandDigest: rollbackDigest(undoId, HOST), tier: Tier.TIER_REVERSIBLE, host: HOST },
        3000,
      );
      expect(l.armed).toBe(true);
      lease = l.lease;
    } finally {
      breaker.close();
    }
    expect(lease).toBeDefined();
    await expectRefused(rollback({ requestId: nextId(), undoId, grant: lease }), "ATTESTATION_MISMATCH");
    expect(existsSync(mine.target)).toBe(true);
    expect(journalEntries(stack.home).filter((e) => String(e.event).startsWith("rollback") && e.undo_id === undoId)).toEqual([]);
  });

  it("rolls back with the operator's grant, once (the baseline), and refuses its replay", async () => {
    const grant = grantFor(undoId);
    const { err, res } = await rollback({ requestId: nextId(), undoId, grant });
    expect(err).toBeNull();
    expect(res?.failed).toEqual([]);
    expect(res?.removed).toContain(d.target);
    expect(existsSync(d.target)).toBe(false);
    await expectRefused(rollback({ requestId: nextId(), undoId, grant }), "ATTESTATION_REPLAYED");
    expect(rolledBack().filter((e) => e.event === "rollback-begin")).toHaveLength(1);
  });
});

describe("the executor's veto holds against a complete, valid quorum", () => {
  beforeAll(async () => {
    // Safety: these requests must only ever reach the stand-in shell, in both envelopes.
    const probe = signed(request("echo stand-in-probe"), 0);
    const p0 = await execute(probe);
    if (p0.res?.stdout.toString() !== "recorded\n" || !executedCommands(stack.home).includes("echo stand-in-probe")) {
      throw new Error("the executor is not using the recorder shell; refusing to send destructive commands");
    }
    const p3 = await execute(signed(request("echo stand-in-probe-3"), 3));
    if (p3.res?.stdout.toString() !== "recorded\n" || !recordedLines().includes("echo stand-in-probe-3")) {
      throw new Error("the executor's live envelope is not using the recorder shell; refusing to send destructive commands");
    }
  });

  async function outcomes(commands: readonly string[], tiers: readonly TierNumber[], cwd = "/"): Promise<string[]> {
    const out: string[] = [];
    const label = (err: ServiceError | null, res: unknown) =>
      res ? "EXECUTED" : err?.code === status.PERMISSION_DENIED ? (err.details ?? "") : `grpc ${err?.code}`;
    for (const command of commands) {
      for (const tier of tiers) {
        const { err, res } = await execute(signed(request(command, { cwd }), tier));
        out.push(`Execute tier ${tier} ${command} -> ${label(err, res)}`);
      }
      // Commit: a complete, valid quorum over a harmless diff (a scratch file), bound to the command.
      for (const predicted of [1, 2] as const) {
        const d = diff(command, { bind: { cwd } });
        const { err, res } = await commit(withQuorum(d, { predicted }));
        out.push(`Commit tier ${predicted} ${command} -> ${label(err, res)}`);
        expectNotCommitted(d);
      }
    }
    return out;
  }

  it("refuses rm -rf / signed by the real keys at every tier, on Execute and on Commit", async () => {
    const got = await outcomes(["rm -rf /"], [0, 1, 2, 3]);
    // Execute never serves tiers 1–2 but a package run: refused by the quorum check, before the veto reads the command.
    const expected = (l: string) => l.replace(/-> .*$/, /^Execute tier [12] /.test(l) ? "-> ATTESTATION_MISMATCH" : "-> VETOED");
    expect(got).toEqual(got.map(expected));
    const pkg = request("rm -rf /");
    const packageRun = [
      attest("classifier", pkg, 2, { packageRun: true }),
      attest("breaker", pkg, 2),
      attest("sandbox", pkg, 2, { touched: [] }),
    ];
    await expectRefused(execute({ ...pkg, attestations: packageRun }), "VETOED");
    expect(ran().filter((l) => l.includes("rm "))).toEqual([]);
  });

  it("refuses rm -rf / spelled other ways: -Rf, /*, r''m, quoted /, ~, $HOME, /usr", async () => {
    const commands = [
      "rm -Rf /",
      "rm -rf /*",
      "r''m -rf /",
      "\\rm -rf /",
      'rm -rf "/"',
      "rm -rf ~",
      "rm -rf $HOME",
      "rm -rf /usr",
      "rm -rf --no-preserve-root /",
    ];
    const got = await outcomes(commands, [0]);
    expect(got).toEqual(got.map((l) => l.replace(/-> .*$/, "-> VETOED")));
    const lines = ran();
    expect(commands.filter((c) => lines.includes(c))).toEqual([]);
  });

  it("refuses the other catastrophic commands with a full quorum", async () => {
    const catastrophic = [
      "rm -fr /",
      "rm -r /etc",
      "mkfs.ext4 /dev/sda1",
      "dd if=/dev/zero of=/dev/sda",
      "echo x > /dev/sda",
      ":(){ :|:& };:",
      "echo b > /proc/sysrq-trigger",
    ];
    const got = await outcomes(catastrophic, [3], "/tmp");
    expect(got).toEqual(got.map((l) => l.replace(/-> .*$/, "-> VETOED")));
    const lines = ran();
    for (const command of catastrophic) expect(lines).not.toContain(command);
  });
});

describe("the executor's RPC surface", () => {
  it("answers an unknown RPC path with UNIMPLEMENTED", async () => {
    const c = client();
    try {
      for (const path of [
        "/agent_sudo.v1.ExecutorService/Shell",
        "/agent_sudo.v1.ExecutorService/execute",
        "/agent_sudo.v1.ExecutorService/commit",
        "/agent_sudo.v1.ClassifierService/Classify",
        "/grpc.health.v1.Health/Check",
      ]) {
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
    expect(ran()).not.toContain("echo hi");
  });

  it("refuses an oversized request: a command over 16 KiB with INVALID_ARGUMENT, a message over 80 MiB with RESOURCE_EXHAUSTED, and stays up", async () => {
    const before = await health();
    expect(before?.ok).toBe(true);
    const big = await execute(signed(request(`echo ${"A".repeat(400 * 1024)}`), 0));
    expect(big.res).toBeUndefined();
    expect(big.err?.code).toBe(status.INVALID_ARGUMENT);
    // The largest message the executor takes is a commit's (manifest ≤ 8 MiB, blobs ≤ 64 MiB).
    const d = diff();
    const huge = await commit({ ...withQuorum(d), blobs: { ["0".repeat(64)]: Buffer.alloc(81 * 1024 * 1024, 0x41) } });
    expect(huge.res).toBeUndefined();
    expect(huge.err?.code).toBe(status.RESOURCE_EXHAUSTED);
    const after = await health();
    expect(after?.ok).toBe(true);
    expect(after?.pid).toBe(before?.pid);
    expect(ran().some((l) => l.startsWith("echo AAAA"))).toBe(false);
    expectNotCommitted(d);
    // and it still executes a valid request
    expect((await execute(signed(request("echo still-up"), 0))).err).toBeNull();
  });

  it("refuses a malformed request with INVALID_ARGUMENT", async () => {
    const req = signed(request("echo bad-id", { requestId: "../../etc/passwd" }), 0);
    const { err } = await execute(req);
    expect(err?.code).toBe(status.INVALID_ARGUMENT);
    const d = diff(undefined, { requestId: "../../etc/passwd", target: join(scratch, "bad-id.committed") });
    const c = await commit(withQuorum(d));
    expect(c.err?.code).toBe(status.INVALID_ARGUMENT);
    const r = await rollback({ requestId: nextId(), undoId: "../../../etc/passwd-0000000000000000000", grant: undefined });
    expect(r.err?.code).toBe(status.INVALID_ARGUMENT);
    expect(ran()).not.toContain("echo bad-id");
    expect(existsSync(d.target)).toBe(false);
  });
});

describe("replay memory across an executor restart", () => {
  it("still refuses a replay after the executor is SIGKILLed and restarted", async () => {
    const req = signed(request("echo before-restart"), 0, { ttlS: 120 });
    expect((await execute(req)).err).toBeNull();
    const d = diff();
    const once = withQuorum(d);
    expect((await commit(once)).err).toBeNull();
    rmSync(d.target);
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

    await expectRefused(execute(req), "ATTESTATION_REPLAYED");
    expect(executedCommands(stack.home).filter((l) => l === "echo before-restart")).toHaveLength(1);
    await expectRefused(commit(once), "ATTESTATION_REPLAYED");
    expect(existsSync(d.target)).toBe(false);
    // a fresh decision still runs
    expect((await execute(signed(request("echo after-restart"), 0))).err).toBeNull();
    expect(executedCommands(stack.home)).toContain("echo after-restart");
  });
});

describe("before any signature is checked, the executor tells an unsigned caller nothing of the host (review 36)", () => {
  /** An unsigned commit whose manifest says the run deleted the directory `dir`. */
  function deletes(dir: string, extra: Array<{ path: string; content?: Buffer }> = []): CommitRequest {
    const requestId = nextId();
    const b = { requestId, command: `rm -r ${dir}`, cwd: scratch, host: HOST, runAs: "", envNames: [] as string[] };
    const state = (kind: EntryKind, content?: Buffer) =>
      EntryState.create({ kind, mode: 0o644, ...(content ? { size: content.length, sha256: sha(content) } : {}) });
    const manifest = Manifest.create({
      requestId,
      commandDigest: commandDigest({ ...b, source: "sudo" }),
      host: HOST,
      changes: [
        { path: dir, before: state(EntryKind.ENTRY_KIND_DIR), after: state(EntryKind.ENTRY_KIND_ABSENT) },
        ...extra.map((e) => ({
          path: e.path,
          before: state(EntryKind.ENTRY_KIND_ABSENT),
          after: state(e.content ? EntryKind.ENTRY_KIND_FILE : EntryKind.ENTRY_KIND_ABSENT, e.content),
        })),
      ],
    });
    return { ...b, attestations: [], manifest: Buffer.from(Manifest.encode(manifest).finish()), blobs: {} };
  }

  it("Commit: the manifest is neither decoded nor checked, nor its directories listed as root, before the quorum is", async () => {
    const secret = join(recDir, "root-only-listing");
    mkdirSync(join(secret, "empty"), { recursive: true });
    mkdirSync(join(secret, "full"), { recursive: true });
    writeFileSync(join(secret, "full", "id_ed25519"), "");
    chmodSync(secret, 0o700);
    const probes: Array<[string, CommitRequest]> = [
      ["a directory with an entry", deletes(join(secret, "full"))],
      ["the same, its entry guessed", deletes(join(secret, "full"), [{ path: join(secret, "full", "id_ed25519") }])],
      ["an empty directory", deletes(join(secret, "empty"))],
      ["no directory", deletes(join(secret, "absent"))],
      ["the executor's own state (masked)", deletes(join(stack.home, "state", "executor"))],
      ["content not what it names", deletes(join(secret, "absent"), [{ path: join(secret, "x"), content: Buffer.from("x") }])],
      ["a /proc path", deletes("/proc/1")],
      ["an undecodable manifest", { ...deletes(join(secret, "absent")), manifest: Buffer.from([0xff, 0xff, 0xff]) }],
    ];
    for (const [what, req] of probes) {
      const { err, res } = await commit(req);
      expect(res, what).toBeUndefined();
      // One answer whatever the manifest says: the quorum is missing.
      expect(`${status[err?.code ?? 0]} ${err?.details}`, what).toBe("PERMISSION_DENIED ATTESTATION_MISSING");
    }
    expect(
      journalEntries(stack.home).filter((e) => String(e.event).startsWith("commit") && e.command?.startsWith(`rm -r ${secret}`)),
    ).toEqual([]);
  });

  it("Execute and Commit: the command is not read (the veto's patterns) before the quorum is verified", async () => {
    // Unsigned: the answer is the missing quorum, never the veto's, so the veto has not run.
    await expectRefused(execute(request("rm -rf /")), "ATTESTATION_MISSING");
    const d = diff("rm -rf / ; echo x");
    await expectRefused(commit(d.req), "ATTESTATION_MISSING");
    // 16 KiB a veto pattern backtracks on for seconds: four of them, unsigned, answered at once.
    const slow = `a(){ ${"a".repeat(16 * 1024 - 6)}`;
    const t0 = performance.now();
    const answers = await Promise.all([0, 1, 2, 3].map(() => execute(request(slow))));
    for (const a of answers) expect(a.err?.details).toBe("ATTESTATION_MISSING");
    expect(performance.now() - t0).toBeLessThan(2000);
    // Signed, the veto still holds (the suite above: "the executor's veto holds against a complete, valid quorum").
    await expectRefused(execute(signed(request("rm -rf /"), 0)), "VETOED");
  });

  it("Execute and Commit: entries of a repeated or map field are counted on the wire, before any is decoded", async () => {
    const before = await health();
    const env = Object.fromEntries(Array.from({ length: 200_000 }, (_, i) => [`K${i}_TOKEN`, "v"]));
    const many = await execute(request("echo many-env", { env }));
    expect(`${status[many.err?.code ?? 0]} ${many.err?.details}`).toBe("INVALID_ARGUMENT BAD_REQUEST");
    const paths = await execute(request("echo many-paths", { undoPaths: Array.from({ length: 4097 }, (_, i) => `/p${i}`) }));
    expect(`${status[paths.err?.code ?? 0]} ${paths.err?.details}`).toBe("INVALID_ARGUMENT BAD_REQUEST");
    const d = diff();
    const blobs = Object.fromEntries(
      Array.from({ length: 4097 }, (_, i) => [sha(Buffer.from(String(i))).toString("hex"), Buffer.alloc(0)]),
    );
    const c = await commit({ ...withQuorum(d), blobs });
    expect(`${status[c.err?.code ?? 0]} ${c.err?.details}`).toBe("INVALID_ARGUMENT BAD_REQUEST");
    expectNotCommitted(d);
    // What an honest gateway sends still passes: 32 secret variables are counted, then judged by name.
    const ok = Object.fromEntries(Array.from({ length: 32 }, (_, i) => [`K${i}_TOKEN`, "v"]));
    const judged = await execute(signed(request("echo ok-env", { env: ok }), 0));
    expect(judged.err?.details).not.toBe("BAD_REQUEST");
    expect((await health())?.pid).toBe(before?.pid);
    expect(ran()).not.toContain("echo many-env");
  });

  it("Rollback: the undo record is not read before a grant's signature holds", async () => {
    // A record the executor cannot parse: reading it shows as INTERNAL; an unread one leaves the signature's answer.
    const id = "0badc0de-0000-4000-8000-000000000036";
    const dir = join(stack.home, "state", "executor", "undo", id);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(join(dir, "manifest.json"), "{ not json", { mode: 0o600 });
    try {
      await expectRefused(rollback({ requestId: nextId(), undoId: id, grant: undefined }), "ATTESTATION_MISSING");
      const forged = signDecision("breaker", generateKeyPairSync("ed25519").privateKey, {
        role: Role.ROLE_BREAKER_GRANT,
        requestId: nextId(),
        binding: { command: "", cwd: "", host: HOST, runAs: "", source: "sudo" },
        commandDigest: rollbackDigest(id, HOST),
        tier: 0,
        ttlS: 30,
      });
      await expectRefused(rollback({ requestId: nextId(), undoId: id, grant: forged }), "ATTESTATION_BAD_SIGNATURE");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("Resolve: a cwd in a directory the gateway's user cannot search answers as given, whatever is there", async () => {
    const secret = join(recDir, "root-only-resolve");
    mkdirSync(join(secret, "present"), { recursive: true });
    writeFileSync(join(secret, "file"), "");
    if (!existsSync(join(secret, "link"))) symlinkSync("/etc", join(secret, "link"));
    chmodSync(secret, 0o700);
    for (const name of ["present", "absent", "file", "link", "link/ssh"]) {
      const { err, res } = await rpc<{ path: string }, { path: string }>("resolve", { path: join(secret, name) });
      expect(err, name).toBeNull();
      expect(res?.path, name).toBe(join(secret, name));
    }
    // What the gateway's user may look at is still resolved (the symlinked-cwd test above), and told when absent.
    const absent = await rpc<{ path: string }, { path: string }>("resolve", { path: join(recDir, "absent") });
    expect(absent.err?.details).toBe("BAD_REQUEST: cwd does not exist");
  });
});
