// Fuzz properties shared by test/fuzz/*.spec.ts (fixed seed, bounded runs,
// in `npm test`) and bench/fuzz/run.ts (many more runs). Each `fuzz…`
// function runs fast-check with the given seed and run count, throws the
// shrunk counterexample on the first failure, and returns what it saw.
//
//   body      services/gateway/body.ts: parseJson, parseExecBody, readBody
//   decision  Decision.decode / Attestation.decode / ExecuteRequest.decode
//             and the executor's checkQuorum (services/executor/verify.ts)
//   hook      HookJudge.preToolUse with stub clients: the parsing and the
//             mapping of a verdict to an answer, never an allow it should not give
//
// The classifier's input is fuzzed in test/classifier/fuzz.spec.ts.
import { randomBytes, sign } from "node:crypto";
import { readFileSync } from "node:fs";
import type { IncomingMessage } from "node:http";
import { dirname, join } from "node:path";
import { Readable } from "node:stream";
import fc from "fast-check";
import type { ClassifyRequest, ClassifyResponse } from "../../proto/gen/agent_sudo/v1/classifier_pb.js";
import { Attestation, Decision, Role, Tier } from "../../proto/gen/agent_sudo/v1/decision_pb.js";
import { ExecuteRequest } from "../../proto/gen/agent_sudo/v1/executor_pb.js";
import { checkExecute } from "../../services/executor/verify.js";
import { ReplayMemory } from "../../services/executor/replay.js";
import { MAX_BODY_BYTES, MAX_COMMAND_BYTES, parseExecBody, parseJson, readBody, type ExecRequest } from "../../services/gateway/body.js";
import type { ServiceClients } from "../../services/gateway/clients.js";
import { HookJudge } from "../../services/gateway/hook.js";
import type { AuditTrail } from "../../services/gateway/audit-trail.js";
import { commandDigest, touchedDigest, type CommandBinding } from "../../services/shared/attestation.js";
import type { Config } from "../../services/shared/config.js";
import { CodedError } from "../../services/shared/errors.js";
import { SIGNER_ROLE, SIGNER_ROLES, SIGNERS, type Signer } from "../../services/shared/keys.js";
import type { Logger } from "../../services/shared/log.js";
import { tierToEnum, type TierNumber } from "../../services/shared/tier.js";
import { attestBytes, EXECUTE_QUORUM, testSigners } from "../support/quorum.js";

export interface FuzzOptions {
  seed: number;
  numRuns: number;
}

/** Counters a property fills in, reported by the bench. */
export type Seen = Record<string, number>;
const bump = (seen: Seen, key: string) => {
  seen[key] = (seen[key] ?? 0) + 1;
};

// ---- corpus ------------------------------------------------------------------

function findCorpusDir(from: string): string {
  for (let dir = from; dir !== dirname(dir); dir = dirname(dir)) {
    try {
      readFileSync(join(dir, "test", "fuzz", "corpus", "exec-body.jsonl"));
      return join(dir, "test", "fuzz", "corpus");
    } catch {
      // keep climbing (this file also runs from dist/test/fuzz)
    }
  }
  throw new Error(`no test/fuzz/corpus above ${from}`);
}
export const corpusDir = findCorpusDir(import.meta.dirname);

export interface CorpusEntry {
  note: string;
  /** The input: text (UTF-8), b64 (raw bytes), hex (raw bytes) or json (serialised). */
  text?: string;
  b64?: string;
  hex?: string;
  json?: unknown;
  /** Synthesised input: `repeat` of a string `times` over, wrapped in `wrap` ("{}" marks the spot). */
  repeat?: string;
  times?: number;
  wrap?: string;
  expect: string;
}

export function corpusBytes(e: CorpusEntry): Buffer {
  if (e.b64 !== undefined) return Buffer.from(e.b64, "base64");
  if (e.hex !== undefined) return Buffer.from(e.hex, "hex");
  if (e.json !== undefined) return Buffer.from(JSON.stringify(e.json), "utf8");
  if (e.repeat !== undefined) {
    const body = e.repeat.repeat(e.times ?? 1);
    return Buffer.from(e.wrap ? e.wrap.replace("{}", body) : body, "utf8");
  }
  return Buffer.from(e.text ?? "", "utf8");
}

export function loadCorpus(name: string): CorpusEntry[] {
  return readFileSync(join(corpusDir, name), "utf8")
    .split("\n")
    .filter((l) => l.trim() && !l.startsWith("//"))
    .map((l) => JSON.parse(l) as CorpusEntry);
}

// ---- the gateway's body parser ---------------------------------------------------

export type BodyVerdict = { ok: ExecRequest } | { code: string; detail: string };

/** parseExecBody, with the invariants of an accepted body checked; any other throw fails. */
export function execBodyVerdict(raw: Buffer): BodyVerdict {
  let parsed: ExecRequest;
  try {
    parsed = parseExecBody(raw);
  } catch (err) {
    if (!(err instanceof CodedError)) throw new Error(`parseExecBody threw a non-CodedError: ${String(err)}`);
    if (err.code !== "BAD_REQUEST" && err.code !== "TOO_LARGE") throw new Error(`parseExecBody threw ${err.code}`);
    return { code: err.code, detail: err.detail ?? "" };
  }
  const c = parsed.command;
  if (typeof c !== "string" || c.length === 0) throw new Error("accepted an empty or non-string command");
  if (c.includes("\0")) throw new Error("accepted a command with NUL");
  if (Buffer.byteLength(c, "utf8") > MAX_COMMAND_BYTES) throw new Error("accepted an over-long command");
  if (!Number.isInteger(parsed.timeout) || parsed.timeout < 1 || parsed.timeout > 3600)
    throw new Error(`accepted timeout ${parsed.timeout}`);
  if (
    parsed.cwd !== undefined &&
    (typeof parsed.cwd !== "string" || !parsed.cwd.startsWith("/") || parsed.cwd.includes("\0") || parsed.cwd.length > 4096)
  ) {
    throw new Error(`accepted cwd ${JSON.stringify(parsed.cwd)}`);
  }
  // Never more than what was sent: the body must itself say what was accepted.
  const text = new TextDecoder("utf-8", { fatal: true }).decode(raw);
  const json = JSON.parse(text) as Record<string, unknown>;
  if (json.command !== c) throw new Error("accepted a command the body does not carry");
  return { ok: parsed };
}

/** A model of the rules, independent of zod: what the verdict must be for a JSON value. */
export function expectedVerdict(raw: Buffer): "ok" | "BAD_REQUEST" | "TOO_LARGE" {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(raw);
  } catch {
    return "BAD_REQUEST";
  }
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return "BAD_REQUEST";
  }
  if (typeof v !== "object" || v === null || Array.isArray(v)) return "BAD_REQUEST";
  const o = v as Record<string, unknown>;
  if (typeof o.command !== "string" || o.command.length === 0 || o.command.includes("\0")) return "BAD_REQUEST";
  if (o.timeout !== undefined && !(typeof o.timeout === "number" && Number.isInteger(o.timeout) && o.timeout >= 1 && o.timeout <= 3600))
    return "BAD_REQUEST";
  if (o.cwd !== undefined && !(typeof o.cwd === "string" && o.cwd.length <= 4096 && o.cwd.startsWith("/") && !o.cwd.includes("\0")))
    return "BAD_REQUEST";
  if (Buffer.byteLength(o.command, "utf8") > MAX_COMMAND_BYTES) return "TOO_LARGE";
  return "ok";
}

const nastyChars = fc.constantFrom(
  "\0",
  "\u0001",
  "\u007f",
  "\u00ff",
  "\u2028",
  "\ud800",
  "\udfff",
  "\ufeff",
  "\uffff",
  "😀",
  "\\",
  '"',
  "/",
  " ",
  "\n",
  "é",
  "ä",
);
const nastyString = (max: number) =>
  fc.array(fc.oneof(fc.string({ maxLength: 8, unit: "binary" }), nastyChars), { maxLength: max }).map((xs) => xs.join(""));
const jsonish = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.boolean(),
  fc.integer({ min: -5, max: 4000 }),
  fc.constantFrom(0, -0, 1, 300, 3600, 3601, 1.5, 1e308, -1e-308, Number.MAX_SAFE_INTEGER + 2),
  nastyString(12),
  fc.constantFrom("/", "/tmp", "relative", "/\u0000x", "", "~"),
  fc.array(fc.integer(), { maxLength: 2 }),
  fc.dictionary(fc.string({ maxLength: 4 }), fc.integer(), { maxKeys: 2 }),
);
/** Bodies shaped like /exec requests, every field sometimes wrong. */
export const execBodyObject = fc.record(
  {
    command: fc.oneof(
      { weight: 4, arbitrary: nastyString(20) },
      { weight: 1, arbitrary: jsonish },
      { weight: 1, arbitrary: fc.integer({ min: 16_380, max: 16_390 }).map((n) => "a".repeat(n)) },
      {
        weight: 1,
        arbitrary: fc.integer({ min: 5_458, max: 5_463 }).map((n) => "€".repeat(n)), // 3 bytes each: straddles 16 KiB
      },
    ),
    timeout: jsonish,
    cwd: jsonish,
    extra: jsonish,
  },
  { requiredKeys: [] },
);

/** Mutations of a valid body at the byte level: flips, inserts, deletes, truncation. */
const mutatedBody = fc
  .tuple(
    fc.constantFrom(
      '{"command":"echo hi"}',
      '{"command":"ls /tmp","timeout":5,"cwd":"/tmp"}',
      '{"command":"echo \\u00e9\\ud83d\\ude00","timeout":300}',
    ),
    fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 }), fc.constantFrom("flip", "set", "insert", "delete")), {
      minLength: 1,
      maxLength: 6,
    }),
    fc.option(fc.nat(), { nil: undefined }),
  )
  .map(([base, edits, cut]) => {
    const b = [...Buffer.from(base, "utf8")];
    for (const [pos, byte, op] of edits) {
      const i = b.length === 0 ? 0 : pos % b.length;
      if (op === "flip") b[i] = (b[i] ?? 0) ^ (1 << (byte % 8));
      else if (op === "set") b[i] = byte;
      else if (op === "insert") b.splice(i, 0, byte);
      else b.splice(i, 1);
    }
    return Buffer.from(cut === undefined ? b : b.slice(0, cut % (b.length + 1)));
  });

export const anyExecBody: fc.Arbitrary<Buffer> = fc.oneof(
  fc.uint8Array({ maxLength: 300 }).map((u) => Buffer.from(u)),
  execBodyObject.map((o) => Buffer.from(JSON.stringify(o) ?? "", "utf8")),
  mutatedBody,
);

export function fuzzExecBody(o: FuzzOptions): Seen {
  const seen: Seen = {};
  fc.assert(
    fc.property(anyExecBody, (raw) => {
      const v = execBodyVerdict(raw);
      const want = expectedVerdict(raw);
      const got = "ok" in v ? "ok" : v.code;
      if (got !== want) throw new Error(`verdict ${got}, model says ${want}`);
      bump(seen, got);
    }),
    o,
  );
  return seen;
}

/** parseJson on raw bytes: a value, or BAD_REQUEST; non-UTF-8 is always refused. */
export function fuzzParseJson(o: FuzzOptions): Seen {
  const seen: Seen = {};
  fc.assert(
    fc.property(
      fc.oneof(
        fc.uint8Array({ maxLength: 200 }).map((u) => Buffer.from(u)),
        fc.jsonValue().map((v) => Buffer.from(JSON.stringify(v) ?? "null", "utf8")),
      ),
      (raw) => {
        let valid = true;
        try {
          new TextDecoder("utf-8", { fatal: true }).decode(raw);
        } catch {
          valid = false;
        }
        try {
          parseJson(raw);
          if (!valid) throw new Error("non-UTF-8 accepted");
          bump(seen, "value");
        } catch (err) {
          if (!(err instanceof CodedError) || err.code !== "BAD_REQUEST") throw err;
          bump(seen, valid ? "bad json" : "bad utf-8");
        }
      },
    ),
    o,
  );
  return seen;
}

function fakeRequest(chunks: Buffer[], contentLength: string | undefined): IncomingMessage {
  const stream = Readable.from(chunks, { objectMode: false });
  return Object.assign(stream, {
    headers: contentLength === undefined ? {} : { "content-length": contentLength },
  }) as unknown as IncomingMessage;
}

/** readBody: exactly the bytes sent, or TOO_LARGE past the cap — whatever the chunking or Content-Length says. */
export async function fuzzReadBody(o: FuzzOptions): Promise<Seen> {
  const seen: Seen = {};
  const limit = 1024;
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.uint8Array({ minLength: 1, maxLength: 400 }), { maxLength: 8 }),
      fc.oneof(
        fc.constant(undefined),
        fc.constantFrom("0", "-1", "abc", "1e9", "1024", "1025", " 12", "0x10", "99999999999999999999"),
        fc.nat({ max: 3000 }).map(String),
      ),
      async (parts, declared) => {
        const chunks = parts.map((p) => Buffer.from(p));
        const total = chunks.reduce((n, c) => n + c.length, 0);
        const declaredOver = Number(declared ?? "0") > limit;
        try {
          const body = await readBody(fakeRequest(chunks, declared), limit);
          if (total > limit) throw new Error(`accepted ${total} bytes over a ${limit} cap`);
          if (declaredOver) throw new Error(`accepted a declared length of ${declared}`);
          if (!body.equals(Buffer.concat(chunks))) throw new Error("body bytes changed");
          bump(seen, "read");
        } catch (err) {
          if (!(err instanceof CodedError) || err.code !== "TOO_LARGE") throw err;
          if (total <= limit && !declaredOver) throw new Error("refused a body within the cap");
          bump(seen, "too large");
        }
      },
    ),
    o,
  );
  return seen;
}

// ---- the decision decoder and the executor's quorum check ---------------------------

const { keys, pinned } = testSigners();

/** decode(bytes): a message, or an Error (never anything else, never a hang). */
export function decodes(decode: (b: Uint8Array) => unknown, bytes: Uint8Array): "ok" | "error" {
  try {
    decode(bytes);
    return "ok";
  } catch (err) {
    if (!(err instanceof Error)) throw new Error(`decode threw a non-Error: ${String(err)}`);
    return "error";
  }
}

/** checkExecute must refuse: a CodedError, never a result and never another throw. */
export function mustRefuse(req: ExecuteRequest, now = Math.floor(Date.now() / 1000)): string {
  let result: unknown;
  try {
    result = checkExecute({ ...req, envNames: Object.keys(req.env) }, pinned, new ReplayMemory(), now);
  } catch (err) {
    if (err instanceof CodedError) return err.code;
    throw new Error(`checkExecute threw a non-CodedError: ${err instanceof Error ? `${err.name}: ${err.message}` : String(err)}`);
  }
  throw new Error(`checkExecute accepted: ${JSON.stringify(result, (_k, v: unknown) => (typeof v === "bigint" ? String(v) : v))}`);
}

const baseRequest = (attestations: Attestation[]): ExecuteRequest => ({
  requestId: "fuzz-req-1",
  command: "echo fuzz",
  cwd: "/tmp",
  host: "primary",
  runAs: "",
  timeoutS: 10,
  attestations,
  undoPaths: [],
  env: {},
});

const signerName = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom<string>(...SIGNERS) },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
);

/** Random bytes as decisions, unsigned or signed with the pinned keys: never accepted. */
export function fuzzRandomDecisions(o: FuzzOptions): Seen {
  const seen: Seen = {};
  fc.assert(
    fc.property(
      fc.array(fc.tuple(signerName, fc.uint8Array({ maxLength: 160 }), fc.constantFrom("random", "pinned", "empty")), {
        minLength: 0,
        maxLength: 6,
      }),
      fc.uint8Array({ maxLength: 64 }),
      (atts, sigBytes) => {
        const attestations = atts.map(([signer, bytes, how]) => {
          const decision = Buffer.from(bytes);
          const signature =
            how === "pinned" && (SIGNERS as readonly string[]).includes(signer)
              ? sign(null, decision, keys[signer as Signer])
              : how === "empty"
                ? Buffer.alloc(0)
                : Buffer.from(sigBytes);
          decodes((b) => Decision.decode(b), decision);
          return { signer, decision, signature };
        });
        bump(seen, mustRefuse(baseRequest(attestations)));
      },
    ),
    o,
  );
  return seen;
}

/** Any bytes through Decision / Attestation / ExecuteRequest decoders; a decoded ExecuteRequest must still be refused. */
export function fuzzDecoders(o: FuzzOptions): Seen {
  const seen: Seen = {};
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 400 }), (bytes) => {
      bump(seen, `Decision ${decodes((b) => Decision.decode(b), bytes)}`);
      bump(seen, `Attestation ${decodes((b) => Attestation.decode(b), bytes)}`);
      let req: ExecuteRequest | undefined;
      try {
        req = ExecuteRequest.decode(bytes);
      } catch (err) {
        if (!(err instanceof Error)) throw err;
      }
      if (req) bump(seen, `ExecuteRequest decoded → ${mustRefuse(req)}`);
      else bump(seen, "ExecuteRequest error");
    }),
    o,
  );
  return seen;
}

// Structure-aware: Decisions whose every field is right most of the time,
// wrong sometimes (and sometimes trailed by extra protobuf fields), signed
// by a pinned key. checkQuorum may accept only when an independent model
// of the rules says the quorum is complete and every decision binds this
// request; otherwise it must refuse with a CodedError.

const int64Edge = fc.oneof(fc.integer({ min: -10, max: 10 }), fc.constantFrom(2 ** 53 - 1, -(2 ** 53) + 1, 2 ** 31, -1));
interface Spec {
  signer: Signer;
  role: number;
  requestId: string;
  digest: Buffer;
  tier: number;
  host: string;
  issuedDelta: number;
  ttl: number;
  nonceLen: number;
  trialOk: boolean;
  touched: Buffer;
  trailer: Uint8Array;
  bigIssued: bigint | undefined;
  /** The classifier's live_action flag (a tier-3 command runs on the host only with it). */
  liveAction: boolean;
}

export function fuzzSignedDecisions(o: FuzzOptions): Seen {
  const seen: Seen = {};
  const req0 = baseRequest([]);
  const binding: CommandBinding = { command: req0.command, cwd: req0.cwd, host: req0.host, runAs: req0.runAs, source: "sudo" };
  const rightDigest = commandDigest(binding);
  const rightTouched = touchedDigest([]);
  const honest = (signer: Signer, tier: TierNumber): Spec => ({
    signer,
    role: SIGNER_ROLE[signer],
    requestId: req0.requestId,
    digest: rightDigest,
    tier: tierToEnum(tier),
    host: req0.host,
    issuedDelta: 0,
    ttl: 30,
    nonceLen: 16,
    trialOk: true,
    touched: rightTouched,
    trailer: new Uint8Array(),
    bigIssued: undefined,
    liveAction: signer === "classifier" && tier === 3,
  });
  // One field made wrong (or odd): a near miss the verifier must catch or, for harmless ones, accept.
  const perturbation: fc.Arbitrary<(s: Spec) => Spec> = fc.oneof(
    fc.integer({ min: -2, max: 6 }).map((role) => (s: Spec) => ({ ...s, role })),
    fc.constantFrom("", "fuzz-req-2", "fuzz-req-1 ", "FUZZ-REQ-1").map((requestId) => (s: Spec) => ({ ...s, requestId })),
    fc.uint8Array({ maxLength: 33 }).map((u) => (s: Spec) => ({ ...s, digest: Buffer.from(u) })),
    fc.integer({ min: -3, max: 9 }).map((tier) => (s: Spec) => ({ ...s, tier })),
    fc.constantFrom("", "server-01", "Primary", "primary\0").map((host) => (s: Spec) => ({ ...s, host })),
    fc.oneof(int64Edge, fc.integer({ min: -400, max: 400 })).map((issuedDelta) => (s: Spec) => ({ ...s, issuedDelta })),
    fc.oneof(int64Edge, fc.integer({ min: -5, max: 400 })).map((ttl) => (s: Spec) => ({ ...s, ttl })),
    fc.integer({ min: 0, max: 40 }).map((nonceLen) => (s: Spec) => ({ ...s, nonceLen })),
    fc.boolean().map((trialOk) => (s: Spec) => ({ ...s, trialOk })),
    fc.uint8Array({ maxLength: 33 }).map((u) => (s: Spec) => ({ ...s, touched: Buffer.from(u) })),
    fc.uint8Array({ minLength: 1, maxLength: 12 }).map((trailer) => (s: Spec) => ({ ...s, trailer })),
    fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map((bigIssued) => (s: Spec) => ({ ...s, bigIssued })),
    fc.boolean().map((liveAction) => (s: Spec) => ({ ...s, liveAction })),
  );
  const specs: fc.Arbitrary<Spec[]> = fc
    .record({
      tier: fc.constantFrom<TierNumber>(0, 1, 2, 3, 4),
      others: fc.array(fc.constantFrom<TierNumber>(0, 1, 2, 3, 4), { minLength: 4, maxLength: 4 }),
      drop: fc.oneof({ weight: 5, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.nat() }),
      extra: fc.oneof({ weight: 5, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constantFrom<Signer>(...SIGNERS) }),
      edits: fc.array(fc.tuple(fc.nat(), perturbation), { maxLength: 2 }),
      shuffle: fc.nat(),
    })
    .map(({ tier, others, drop, extra, edits, shuffle }) => {
      let list = EXECUTE_QUORUM[tier].map((signer, i) => honest(signer, signer === "classifier" ? tier : (others[i] ?? tier)));
      if (drop !== undefined && list.length > 0) list.splice(drop % list.length, 1);
      if (extra) list.push(honest(extra, tier));
      for (const [at, edit] of edits) if (list.length > 0) list[at % list.length] = edit(list[at % list.length] as Spec);
      if (list.length > 1) list = [...list.slice(shuffle % list.length), ...list.slice(0, shuffle % list.length)];
      return list;
    })
    .filter((l) => l.length > 0);
  fc.assert(
    fc.property(specs, fc.integer({ min: 1_700_000_000, max: 1_900_000_000 }), (specs, now) => {
      const decoded: Array<{ signer: Signer; d: Decision | undefined }> = [];
      const attestations = specs.map((s) => {
        const d = Decision.create({
          role: s.role,
          requestId: s.requestId,
          commandDigest: s.digest,
          tier: s.tier,
          host: s.host,
          policyDigest: Buffer.alloc(0),
          issuedAt: now + s.issuedDelta,
          expiresAt: now + s.issuedDelta + s.ttl,
          nonce: randomBytes(s.nonceLen),
          rule: "fuzz",
          trialOk: s.trialOk,
          touchedDigest: s.touched,
          liveAction: s.liveAction,
        });
        const w = Decision.encode(d);
        if (s.bigIssued !== undefined) w.uint32(56).int64(s.bigIssued);
        const bytes = Buffer.concat([Buffer.from(w.finish()), Buffer.from(s.trailer)]);
        let back: Decision | undefined;
        try {
          back = Decision.decode(bytes);
        } catch {
          back = undefined;
        }
        decoded.push({ signer: s.signer, d: back });
        return attestBytes(s.signer, keys[s.signer], bytes);
      });
      const req = baseRequest(attestations);
      // The model: which roles hold a decision that binds this request.
      const good = new Map<number, Decision>();
      let model = true;
      for (const { signer, d } of decoded) {
        const binds =
          d !== undefined &&
          SIGNER_ROLES[signer].includes(d.role) &&
          d.requestId === req.requestId &&
          Buffer.compare(Buffer.from(d.commandDigest), rightDigest) === 0 &&
          d.host === req.host &&
          d.nonce.length === 16 &&
          !(d.issuedAt > now + 5 || d.expiresAt <= now || d.expiresAt - d.issuedAt > 300);
        if (!binds || d === undefined) model = false;
        else if (good.has(d.role)) model = false;
        else good.set(d.role, d);
      }
      const cls = good.get(Role.ROLE_CLASSIFIER);
      const tierOf = (t: number | undefined): TierNumber =>
        t === Tier.TIER_READ_ONLY
          ? 0
          : t === Tier.TIER_REVERSIBLE
            ? 1
            : t === Tier.TIER_SANDBOX_FIRST
              ? 2
              : t === Tier.TIER_LIVE_SERVICE
                ? 3
                : 4;
      const tier = tierOf(cls?.tier);
      // Execute serves tier 0 and tier 3 (tiers 1–2 are committed diffs; no package run here).
      const allowedRoles: number[] =
        tier === 0 ? [Role.ROLE_CLASSIFIER] : tier === 3 ? [Role.ROLE_CLASSIFIER, Role.ROLE_CONCURRENCE, Role.ROLE_BREAKER] : [];
      if (!cls || tier === 4 || tier === 1 || tier === 2) model = false;
      if ([...good.keys()].some((r) => !allowedRoles.includes(r)) || !allowedRoles.every((r) => good.has(r))) model = false;
      const leased = tierOf(good.get(Role.ROLE_BREAKER)?.tier);
      if (tier === 3 && (leased === 4 || leased < 3)) model = false;
      // A tier 3 that is not a live action reaches the host only as a committed diff.
      if (tier === 3 && !cls?.liveAction) model = false;
      if (tier === 3 && tierOf(good.get(Role.ROLE_CONCURRENCE)?.tier) === 4 && good.has(Role.ROLE_CONCURRENCE)) model = false;
      if (tier >= 1 && Buffer.compare(Buffer.from(cls?.touchedDigest ?? []), rightTouched) !== 0) model = false;

      let accepted: TierNumber | undefined;
      let code = "";
      try {
        accepted = checkExecute({ ...req, envNames: [] }, pinned, new ReplayMemory(), now).tier;
      } catch (err) {
        if (!(err instanceof CodedError)) throw new Error(`checkExecute threw a non-CodedError: ${String(err)}`);
        code = err.code;
      }
      if (accepted !== undefined && !model) throw new Error(`accepted tier ${accepted}; the model refuses`);
      if (accepted === undefined && model) throw new Error(`refused (${code}); the model accepts tier ${tier}`);
      if (accepted !== undefined && accepted !== tier) throw new Error(`accepted as tier ${accepted}, classifier signed ${tier}`);
      bump(seen, accepted !== undefined ? `accepted tier ${accepted}` : code);
    }),
    o,
  );
  return seen;
}

// ---- the hook's input ------------------------------------------------------------------

interface StubVerdict {
  tier: TierNumber;
  explicit: boolean;
  fail: boolean;
}
/** A deterministic stand-in verdict per command (a hash), so the oracle knows it. */
export function stubVerdict(command: string): StubVerdict {
  let h = 2166136261;
  for (let i = 0; i < command.length; i++) h = Math.imul(h ^ command.charCodeAt(i), 16777619) >>> 0;
  return { tier: (h % 5) as TierNumber, explicit: ((h >>> 3) & 1) === 1, fail: h % 17 === 0 };
}

export interface StubHook {
  judge: HookJudge;
  calls: string[];
}

export function stubHook(mode: "conservative" | "routed"): StubHook {
  const calls: string[] = [];
  const classifier = {
    classify(req: ClassifyRequest, _meta: unknown, _opts: unknown, cb: (err: Error | null, res?: ClassifyResponse) => void) {
      calls.push(req.command);
      const v = stubVerdict(req.command);
      if (v.fail) {
        setImmediate(() => cb(Object.assign(new Error("14 UNAVAILABLE"), { code: 14 })));
        return;
      }
      const res = {
        tier: tierToEnum(v.tier),
        rule: "stub",
        reason: "stub",
        explicit: v.explicit,
        policyDigest: Buffer.alloc(32),
        undoPaths: [],
      } as unknown as ClassifyResponse;
      setImmediate(() => cb(null, res));
    },
  };
  // The breaker hears tier-4 attempts; the stub answers and forgets.
  const breaker = {
    report(_req: unknown, _meta: unknown, _opts: unknown, cb: (err: Error | null, res?: object) => void) {
      setImmediate(() => cb(null, {}));
    },
  };
  const clients = { classifier, breaker } as unknown as ServiceClients;
  const config = { host_id: "primary", hook: { mode, tcp: false } } as unknown as Config;
  const audit = { decision: async () => true, noteUnaudited: () => undefined } as unknown as AuditTrail;
  const noop = () => undefined;
  const log = { info: noop, warn: noop, error: noop, debug: noop, child: () => log } as unknown as Logger;
  return { judge: new HookJudge(clients, config, audit, log), calls };
}

const ROUTED_EXEC = /^agent-sudo exec -- '(?:[^']|'\\'')*'$/;

export interface HookAnswerCheck {
  kind: "allow" | "deny" | "no-opinion";
}

/**
 * One hook input through HookJudge.preToolUse: the answer must be Claude
 * Code's schema; an allow only when the classifier was asked about exactly
 * this command and its verdict allows in this mode (or, routed, the command
 * is a single `agent-sudo exec -- '…'`); malformed input is a deny.
 */
export async function checkHookInput(hook: StubHook, mode: "conservative" | "routed", raw: Buffer): Promise<HookAnswerCheck["kind"]> {
  hook.calls.length = 0;
  const answer = await hook.judge.preToolUse(raw);
  const out = answer.body.hookSpecificOutput as
    | { hookEventName?: string; permissionDecision?: string; permissionDecisionReason?: string }
    | undefined;
  // What a correct parser would make of the input.
  let input: Record<string, unknown> | undefined;
  try {
    if (raw[0] === 0xef && raw[1] === 0xbb && raw[2] === 0xbf) throw new Error("bom");
    const v = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(raw)) as unknown;
    if (typeof v === "object" && v !== null && !Array.isArray(v)) input = v as Record<string, unknown>;
  } catch {
    input = undefined;
  }
  const ti = input?.tool_input;
  const wellFormed =
    input !== undefined &&
    input.hook_event_name === "PreToolUse" &&
    typeof input.tool_name === "string" &&
    input.tool_name.length <= 256 &&
    typeof ti === "object" &&
    ti !== null &&
    !Array.isArray(ti) &&
    (input.cwd === undefined || (typeof input.cwd === "string" && input.cwd.length <= 4096)) &&
    (input.session_id === undefined || (typeof input.session_id === "string" && input.session_id.length <= 256)) &&
    (input.tool_use_id === undefined || (typeof input.tool_use_id === "string" && input.tool_use_id.length <= 256));

  if (answer.status === 204) {
    if (!wellFormed) throw new Error("no opinion on malformed input");
    if (input?.tool_name === "Bash") {
      const cmd = (ti as Record<string, unknown>).command as string;
      const v = stubVerdict(cmd);
      if (mode !== "conservative" || v.fail || v.tier === 4 || (v.tier === 0 && v.explicit))
        throw new Error("no opinion where a decision was due");
    }
    return "no-opinion";
  }
  if (answer.status !== 200 || out?.hookEventName !== "PreToolUse")
    throw new Error(`not a hook answer: ${answer.status} ${JSON.stringify(answer.body)}`);
  if (out.permissionDecision === "deny") return "deny";
  if (out.permissionDecision !== "allow") throw new Error(`decision ${String(out.permissionDecision)}`);
  // An allow: it must be earned.
  if (!wellFormed || input?.tool_name !== "Bash") throw new Error("allowed malformed or non-Bash input");
  const cmd = (ti as Record<string, unknown>).command;
  if (typeof cmd !== "string" || cmd.length === 0 || cmd.length > 16 * 1024) throw new Error("allowed without a valid command");
  if (mode === "routed" && ROUTED_EXEC.test(cmd)) return "allow";
  if (hook.calls.length !== 1 || hook.calls[0] !== cmd) throw new Error("allowed without asking the classifier about this command");
  const v = stubVerdict(cmd);
  const allowed = !v.fail && (mode === "conservative" ? v.tier === 0 && v.explicit : v.tier <= 1);
  if (!allowed) throw new Error(`allowed a tier-${v.tier} (explicit ${v.explicit}, fail ${v.fail}) command in ${mode} mode`);
  return "allow";
}

const hookCommand = fc.oneof(
  { weight: 4, arbitrary: nastyString(10) },
  { weight: 2, arbitrary: fc.string({ minLength: 1, maxLength: 30 }) },
  fc.constantFrom(
    "git status",
    "ls",
    "rm -rf /",
    "agent-sudo exec -- 'rm -rf /'",
    "agent-sudo exec -- 'a'\\''b'",
    "agent-sudo exec -- 'x' ; rm -rf /",
    "echo hi\nrm -rf /",
  ),
  fc.integer({ min: 16_383, max: 16_386 }).map((n) => "x".repeat(n)),
  jsonish,
);
export const hookObject = fc.record(
  {
    hook_event_name: fc.oneof(
      { weight: 6, arbitrary: fc.constant("PreToolUse") },
      { weight: 1, arbitrary: jsonish },
      { weight: 1, arbitrary: fc.constantFrom("PostToolUse", "pretooluse", "PreToolUse ") },
    ),
    tool_name: fc.oneof(
      { weight: 6, arbitrary: fc.constant("Bash") },
      { weight: 1, arbitrary: fc.constantFrom("Read", "bash", "Bash\0", "x".repeat(257)) },
      { weight: 1, arbitrary: jsonish },
    ),
    tool_input: fc.oneof(
      { weight: 6, arbitrary: fc.record({ command: hookCommand, description: jsonish }, { requiredKeys: ["command"] }) },
      { weight: 1, arbitrary: jsonish },
    ),
    cwd: fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom("/tmp", "/home/dev/project", "relative", "") },
      { weight: 1, arbitrary: fc.oneof(jsonish, fc.constant("/".repeat(4097))) },
    ),
    session_id: fc.oneof({ weight: 4, arbitrary: fc.uuid() }, { weight: 1, arbitrary: fc.oneof(jsonish, fc.constant("s".repeat(257))) }),
    tool_use_id: fc.oneof({ weight: 4, arbitrary: fc.string({ maxLength: 30 }) }, { weight: 1, arbitrary: jsonish }),
    transcript_path: jsonish,
  },
  { requiredKeys: ["hook_event_name", "tool_name", "tool_input"] },
);

export const anyHookInput: fc.Arbitrary<Buffer> = fc.oneof(
  fc.uint8Array({ maxLength: 200 }).map((u) => Buffer.from(u)),
  { weight: 4, arbitrary: hookObject.map((o) => Buffer.from(JSON.stringify(o) ?? "", "utf8")) },
  hookObject.map((o) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(o) ?? "", "utf8")])),
  hookObject.chain((o) =>
    fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })).map(([pos, byte]) => {
      const b = Buffer.from(JSON.stringify(o) ?? "", "utf8");
      if (b.length > 0) b[pos % b.length] = byte;
      return b;
    }),
  ),
);

export async function fuzzHook(o: FuzzOptions): Promise<Seen> {
  const seen: Seen = {};
  const hooks = { conservative: stubHook("conservative"), routed: stubHook("routed") };
  await fc.assert(
    fc.asyncProperty(anyHookInput, fc.constantFrom<"conservative" | "routed">("conservative", "routed"), async (raw, mode) => {
      bump(seen, `${mode} ${await checkHookInput(hooks[mode], mode, raw)}`);
    }),
    o,
  );
  return seen;
}

export { MAX_BODY_BYTES };

/** An attestation over `bytes` signed with the pinned key of `signer` (for corpus replay). */
export function pinnedAttestation(signer: Signer, bytes: Buffer): Attestation {
  return attestBytes(signer, keys[signer], bytes);
}

/** The request the decision properties present attestations for. */
export function fuzzRequest(attestations: Attestation[]): ExecuteRequest {
  return baseRequest(attestations);
}
