// verifyQuorum with generated keys: randomized property tests, 1,000 cases
// per attack class (fixed seed), 0 accepted; plus positive cases per tier so
// an over-strict verifier fails too.
import { generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Attestation, Decision, Role, Tier } from "../../proto/gen/agent_sudo/v1/decision_pb.js";
import type { ExecuteRequest } from "../../proto/gen/agent_sudo/v1/executor_pb.js";
import { commandDigest, signDecision, touchedDigest, type CommandBinding } from "../shared/attestation.js";
import { CodedError } from "../shared/errors.js";
import { SIGNER_ROLE, SIGNERS, type Signer } from "../shared/keys.js";
import { tierToEnum, type TierNumber } from "../shared/tier.js";
import { ReplayMemory } from "./replay.js";
import { verifyQuorum, type PinnedKey } from "./verify.js";

const SEED = 20240611;
const RUNS = 1000;
const POSITIVE_RUNS = 250;

// ---- keys -------------------------------------------------------------------

const priv = {} as Record<Signer, KeyObject>;
const forged = {} as Record<Signer, KeyObject>;
const pinned = new Map<string, PinnedKey>();
for (const s of SIGNERS) {
  const real = generateKeyPairSync("ed25519");
  priv[s] = real.privateKey;
  pinned.set(s, { role: SIGNER_ROLE[s], key: real.publicKey });
  forged[s] = generateKeyPairSync("ed25519").privateKey;
}

// ---- replay memory on tmpfs when there is one (fsync per accepted request) ---

let dir: string;
let replay: ReplayMemory;
beforeAll(() => {
  dir = mkdtempSync(join(existsSync("/dev/shm") ? "/dev/shm" : tmpdir(), "agent-sudo-verify-"));
  replay = new ReplayMemory();
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

// ---- building requests and attestations ----------------------------------------

interface Overrides {
  role?: Role;
  requestId?: string;
  binding?: CommandBinding;
  digest?: Buffer;
  tier?: Tier;
  host?: string;
  issuedAt?: number;
  expiresAt?: number;
  nonce?: Buffer;
  trialOk?: boolean;
  touched?: readonly string[];
}

const ROLE_SIGNER: Record<number, Signer> = {
  [Role.ROLE_CLASSIFIER]: "classifier",
  [Role.ROLE_CONCURRENCE]: "concurrence",
  [Role.ROLE_SANDBOX]: "sandbox",
  [Role.ROLE_BREAKER]: "breaker",
};

/** The decision an honest signer of `signer` would sign for `req`, with overrides. */
function decisionFor(signer: Signer, req: ExecuteRequest, tier: TierNumber, now: number, o: Overrides = {}): Decision {
  const binding = o.binding ?? { command: req.command, cwd: req.cwd, host: req.host, runAs: req.runAs };
  const issuedAt = o.issuedAt ?? now;
  return Decision.create({
    role: o.role ?? SIGNER_ROLE[signer],
    requestId: o.requestId ?? req.requestId,
    commandDigest: o.digest ?? commandDigest(binding),
    tier: o.tier ?? tierToEnum(tier),
    host: o.host ?? binding.host,
    policyDigest: Buffer.alloc(32, 7),
    issuedAt,
    expiresAt: o.expiresAt ?? issuedAt + 30,
    nonce: o.nonce ?? randomBytes(16),
    rule: "test",
    trialOk: o.trialOk ?? signer === "sandbox",
    // a trial report (tier 2) or the classifier (tiers 1, 3) binds the undo plan
    touchedDigest: signer === "sandbox" || signer === "classifier" ? touchedDigest(o.touched ?? req.undoPaths) : Buffer.alloc(0),
  });
}

function attest(signer: string, key: KeyObject, d: Decision): Attestation {
  const bytes = Buffer.from(Decision.encode(d).finish());
  return Attestation.create({ signer, decision: bytes, signature: sign(null, bytes, key) });
}

function honest(signer: Signer, req: ExecuteRequest, tier: TierNumber, now: number, o: Overrides = {}): Attestation {
  return attest(signer, priv[signer], decisionFor(signer, req, tier, now, o));
}

/** The signers a tier's quorum needs (tier 4: everyone, which must still fail). */
const QUORUM: Record<TierNumber, Signer[]> = {
  0: ["classifier"],
  1: ["classifier", "breaker"],
  2: ["classifier", "breaker", "sandbox"],
  3: ["classifier", "concurrence", "breaker"],
  4: ["classifier", "concurrence", "breaker", "sandbox"],
};

function fullQuorum(req: ExecuteRequest, tier: TierNumber, now: number): Attestation[] {
  return QUORUM[tier].map((s) => honest(s, req, tier, now));
}

function withAtts(req: ExecuteRequest, attestations: Attestation[]): ExecuteRequest {
  return { ...req, attestations };
}

/** Runs verifyQuorum and returns the refusal code, or "ACCEPTED". */
function outcome(req: ExecuteRequest, now: number): string {
  try {
    verifyQuorum(req, pinned, replay, now);
    return "ACCEPTED";
  } catch (err) {
    if (err instanceof CodedError) return err.code;
    throw err;
  }
}

// ---- arbitraries ---------------------------------------------------------------

// Well-formed text only: lone surrogates all encode to U+FFFD, so two such
// "different" strings are the same command on the wire.
const command = fc
  .oneof(fc.string({ minLength: 1, maxLength: 120, unit: "grapheme-ascii" }), fc.string({ minLength: 1, maxLength: 60, unit: "grapheme" }))
  .filter((c) => !c.includes("\0"));
const cwd = fc.oneof(fc.constant(""), fc.constant("/"), fc.stringMatching(/^\/[a-z0-9._/-]{0,40}$/));
const host = fc.oneof(fc.constantFrom("primary", "server-01"), fc.stringMatching(/^[a-z][a-z0-9.-]{0,20}$/));
const runAs = fc.oneof(fc.constant(""), fc.constantFrom("root", "www-data", "postgres"), fc.stringMatching(/^[a-z_][a-z0-9_-]{0,15}$/));
const requestId = fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/);

const undoPaths = fc.array(fc.stringMatching(/^\/[a-z0-9._/-]{1,40}$/), { maxLength: 4 });

const request: fc.Arbitrary<ExecuteRequest> = fc
  .record({ requestId, command, cwd, host, runAs, undoPaths })
  .map((r) => ({ ...r, timeoutS: 30, attestations: [] }));
const liveTier = fc.constantFrom<TierNumber>(0, 1, 2, 3);
const now = fc.integer({ min: 1_600_000_000, max: 2_000_000_000 });

function refuses(
  name: string,
  expected: string | readonly string[],
  arb: fc.Arbitrary<{ req: ExecuteRequest; now: number }>,
  runs = RUNS,
): void {
  it(`${name}: ${runs} cases, 0 accepted`, () => {
    const codes = new Map<string, number>();
    let accepted = 0;
    fc.assert(
      fc.property(arb, ({ req, now: t }) => {
        const code = outcome(req, t);
        codes.set(code, (codes.get(code) ?? 0) + 1);
        if (code === "ACCEPTED") accepted++;
        return (typeof expected === "string" ? [expected] : expected).includes(code);
      }),
      { seed: SEED, numRuns: runs },
    );
    expect(accepted).toBe(0);
    expect([...codes.values()].reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(runs);
  });
}

/** Picks one member of the quorum to tamper with. */
const victim = (tier: TierNumber) => fc.integer({ min: 0, max: QUORUM[tier].length - 1 });

// ---- positive cases: a full quorum is accepted ---------------------------------------

describe("verifyQuorum accepts a complete, honest quorum", () => {
  for (const tier of [0, 1, 2, 3] as const) {
    it(`tier ${tier} with ${QUORUM[tier].join(" + ")} (${POSITIVE_RUNS} random requests)`, () => {
      fc.assert(
        fc.property(request, now, fc.boolean(), (req, t, shuffle) => {
          const atts = fullQuorum(req, tier, t);
          if (shuffle) atts.reverse();
          return verifyQuorum(withAtts(req, atts), pinned, replay, t) === tier;
        }),
        { seed: SEED, numRuns: POSITIVE_RUNS },
      );
    });
  }

  it("accepts decisions signed by signDecision (the signers' own code path)", () => {
    const t = Math.floor(Date.now() / 1000);
    const req: ExecuteRequest = { requestId: "req-1", command: "systemctl restart nginx", cwd: "/", host: "primary", runAs: "", timeoutS: 30, attestations: [], undoPaths: [] };
    const binding = { command: req.command, cwd: req.cwd, host: req.host, runAs: req.runAs };
    const atts = QUORUM[3].map((s) => signDecision(s, priv[s], { role: SIGNER_ROLE[s], requestId: req.requestId, binding, tier: 3, ttlS: 30, now: t, touchedDigest: touchedDigest([]) }));
    expect(verifyQuorum(withAtts(req, atts), pinned, replay, t)).toBe(3);
  });

  it("accepts with extra attestations beyond the tier's need, and at the edges of the clock", () => {
    const t = 1_700_000_000;
    const req: ExecuteRequest = { requestId: "edge", command: "ls", cwd: "", host: "primary", runAs: "", timeoutS: 30, attestations: [], undoPaths: [] };
    // tier 0 with a lease too
    expect(verifyQuorum(withAtts(req, [honest("classifier", req, 0, t), honest("breaker", req, 0, t)]), pinned, replay, t)).toBe(0);
    // issued up to 5 s ahead (clock skew), ttl exactly 300, expiring 1 s from now
    expect(verifyQuorum(withAtts(req, [honest("classifier", req, 0, t, { issuedAt: t + 5, expiresAt: t + 305 })]), pinned, replay, t)).toBe(0);
    expect(verifyQuorum(withAtts(req, [honest("classifier", req, 0, t, { issuedAt: t - 299, expiresAt: t + 1 })]), pinned, replay, t)).toBe(0);
  });

  it("a refusal does not consume the nonces of the attestations it saw", () => {
    const t = 1_700_000_000;
    const req: ExecuteRequest = { requestId: "no-burn", command: "ls", cwd: "", host: "primary", runAs: "", timeoutS: 30, attestations: [], undoPaths: [] };
    const cls = honest("classifier", req, 1, t);
    expect(outcome(withAtts(req, [cls]), t)).toBe("ATTESTATION_MISSING");
    expect(verifyQuorum(withAtts(req, [cls, honest("breaker", req, 1, t)]), pinned, replay, t)).toBe(1);
  });
});

// ---- attack classes ---------------------------------------------------------------

describe("verifyQuorum refuses (property tests, fixed seed)", () => {
  refuses(
    "forged signature (right signer name, wrong key)",
    "ATTESTATION_BAD_SIGNATURE",
    fc.tuple(request, liveTier, now).chain(([req, tier, t]) =>
      victim(tier).map((v) => {
        const atts = QUORUM[tier].map((s, i) => (i === v ? attest(s, forged[s], decisionFor(s, req, tier, t)) : honest(s, req, tier, t)));
        return { req: withAtts(req, atts), now: t };
      }),
    ),
  );

  refuses(
    "unpinned signer",
    "ATTESTATION_UNPINNED",
    fc
      .tuple(request, liveTier, now, fc.string({ maxLength: 32 }).filter((n) => !pinned.has(n)), fc.boolean())
      .chain(([req, tier, t, name, extra]) =>
        victim(tier).map((v) => {
          const role = SIGNER_ROLE[QUORUM[tier][v] as Signer];
          const rogue = attest(name, forged.classifier, decisionFor("classifier", req, tier, t, { role }));
          // either replaces a quorum member, or rides along with a full honest quorum
          const atts = extra ? [...fullQuorum(req, tier, t), rogue] : QUORUM[tier].map((s, i) => (i === v ? rogue : honest(s, req, tier, t)));
          return { req: withAtts(req, atts), now: t };
        }),
      ),
  );

  refuses(
    "replayed nonce (the whole request, or one old attestation beside fresh ones)",
    "ATTESTATION_REPLAYED",
    fc.tuple(request, liveTier, now, fc.boolean()).chain(([req, tier, t, whole]) =>
      victim(tier).map((v) => {
        const first = fullQuorum(req, tier, t);
        if (verifyQuorum(withAtts(req, first), pinned, replay, t) !== tier) throw new Error("setup: first use not accepted");
        const atts = whole ? first : QUORUM[tier].map((s, i) => (i === v ? (first[i] as Attestation) : honest(s, req, tier, t)));
        return { req: withAtts(req, atts), now: t + 1 };
      }),
    ),
  );

  refuses(
    "expired",
    "ATTESTATION_EXPIRED",
    fc.tuple(request, liveTier, now, fc.integer({ min: 0, max: 100_000 }), fc.integer({ min: 1, max: 300 })).chain(([req, tier, t, ago, ttl]) =>
      victim(tier).map((v) => {
        const o = { issuedAt: t - ttl - ago, expiresAt: t - ago };
        const atts = QUORUM[tier].map((s, i) => honest(s, req, tier, t, i === v ? o : {}));
        return { req: withAtts(req, atts), now: t };
      }),
    ),
  );

  refuses(
    "issued in the future (beyond 5 s skew)",
    "ATTESTATION_EXPIRED",
    fc.tuple(request, liveTier, now, fc.integer({ min: 6, max: 1_000_000 })).chain(([req, tier, t, ahead]) =>
      victim(tier).map((v) => {
        const atts = QUORUM[tier].map((s, i) => honest(s, req, tier, t, i === v ? { issuedAt: t + ahead, expiresAt: t + ahead + 30 } : {}));
        return { req: withAtts(req, atts), now: t };
      }),
    ),
  );

  refuses(
    "ttl too long (> 300 s)",
    "ATTESTATION_EXPIRED",
    fc.tuple(request, liveTier, now, fc.integer({ min: 301, max: 10_000_000 }), fc.integer({ min: 0, max: 5 })).chain(([req, tier, t, ttl, back]) =>
      victim(tier).map((v) => {
        const atts = QUORUM[tier].map((s, i) => honest(s, req, tier, t, i === v ? { issuedAt: t - back, expiresAt: t - back + ttl } : {}));
        return { req: withAtts(req, atts), now: t };
      }),
    ),
  );

  refuses(
    "bit-flipped decision bytes",
    "ATTESTATION_BAD_SIGNATURE",
    fc.tuple(request, liveTier, now, fc.nat(), fc.integer({ min: 0, max: 7 })).chain(([req, tier, t, pos, bit]) =>
      victim(tier).map((v) => {
        const atts = fullQuorum(req, tier, t);
        const a = atts[v] as Attestation;
        const bytes = Buffer.from(a.decision);
        bytes[pos % bytes.length] = (bytes[pos % bytes.length] as number) ^ (1 << bit);
        atts[v] = { ...a, decision: bytes };
        return { req: withAtts(req, atts), now: t };
      }),
    ),
  );

  refuses(
    "bit-flipped signature",
    "ATTESTATION_BAD_SIGNATURE",
    fc.tuple(request, liveTier, now, fc.integer({ min: 0, max: 63 }), fc.integer({ min: 0, max: 7 })).chain(([req, tier, t, pos, bit]) =>
      victim(tier).map((v) => {
        const atts = fullQuorum(req, tier, t);
        const a = atts[v] as Attestation;
        const sig = Buffer.from(a.signature);
        sig[pos] = (sig[pos] as number) ^ (1 << bit);
        atts[v] = { ...a, signature: sig };
        return { req: withAtts(req, atts), now: t };
      }),
    ),
  );

  // A quorum signed for one request, presented with another.
  const FIELDS = ["command", "cwd", "host", "runAs", "requestId"] as const;
  for (const field of FIELDS) {
    const other: fc.Arbitrary<string> = { command, cwd, host, runAs, requestId }[field];
    refuses(
      `decision for another ${field}`,
      "ATTESTATION_MISMATCH",
      fc
        .tuple(request, liveTier, now, other, fc.boolean())
        .filter(([req, , , value]) => req[field] !== value)
        .chain(([req, tier, t, value, all]) =>
          victim(tier).map((v) => {
            // the signers saw `signed`; the gateway presents `req`
            const signed: ExecuteRequest = { ...req, [field]: value };
            const atts = QUORUM[tier].map((s, i) => (all || i === v ? honest(s, signed, tier, t) : honest(s, req, tier, t)));
            return { req: withAtts(req, atts), now: t };
          }),
        ),
    );
  }

  refuses(
    "decision whose host field names another host (digest unchanged)",
    "ATTESTATION_MISMATCH",
    fc
      .tuple(request, liveTier, now, host)
      .filter(([req, , , h]) => req.host !== h)
      .chain(([req, tier, t, h]) =>
        victim(tier).map((v) => {
          const atts = QUORUM[tier].map((s, i) => honest(s, req, tier, t, i === v ? { host: h } : {}));
          return { req: withAtts(req, atts), now: t };
        }),
      ),
  );

  refuses(
    "role mismatch (a pinned key signing for another role)",
    "ATTESTATION_MISMATCH",
    fc
      .tuple(request, liveTier, now, fc.constantFrom<Signer>(...SIGNERS), fc.constantFrom(Role.ROLE_CLASSIFIER, Role.ROLE_CONCURRENCE, Role.ROLE_SANDBOX, Role.ROLE_BREAKER))
      .filter(([, , , signer, role]) => SIGNER_ROLE[signer] !== role)
      .map(([req, tier, t, signer, role]) => {
        // e.g. the classifier key signing a breaker lease; the rest honest
        const rogue = honest(signer, req, tier, t, { role });
        const atts = QUORUM[tier].filter((s) => SIGNER_ROLE[s] !== role).map((s) => honest(s, req, tier, t));
        return { req: withAtts(req, [...atts, rogue]), now: t };
      }),
  );

  refuses(
    "classifier key signing a breaker lease for a tier-1 request",
    "ATTESTATION_MISMATCH",
    fc.tuple(request, now).map(([req, t]) => {
      // a breaker lease (role BREAKER) signed with the classifier's own key
      // and presented under its own name: a key speaks for its own role only
      const rogue = attest("classifier", priv.classifier, decisionFor("breaker", req, 1, t));
      return { req: withAtts(req, [honest("classifier", req, 1, t), rogue]), now: t };
    }),
  );

  refuses(
    "lease signed by the classifier key but labelled breaker",
    "ATTESTATION_BAD_SIGNATURE",
    fc.tuple(request, now).map(([req, t]) => ({
      req: withAtts(req, [honest("classifier", req, 1, t), attest("breaker", priv.classifier, decisionFor("breaker", req, 1, t))]),
      now: t,
    })),
  );

  refuses(
    "tier >= 1 without a breaker lease",
    "ATTESTATION_MISSING",
    fc.tuple(request, fc.constantFrom<TierNumber>(1, 2, 3), now).map(([req, tier, t]) => ({
      req: withAtts(req, QUORUM[tier].filter((s) => s !== "breaker").map((s) => honest(s, req, tier, t))),
      now: t,
    })),
  );

  refuses(
    "tier 2 without a trial report",
    "ATTESTATION_MISSING",
    fc.tuple(request, now, fc.boolean()).map(([req, t, withConcurrence]) => {
      const atts = [honest("classifier", req, 2, t), honest("breaker", req, 2, t)];
      if (withConcurrence) atts.push(honest("concurrence", req, 2, t));
      return { req: withAtts(req, atts), now: t };
    }),
  );

  refuses(
    "tier 2 with a trial report saying trialOk=false",
    "ATTESTATION_MISSING",
    fc.tuple(request, now).map(([req, t]) => ({
      req: withAtts(req, [honest("classifier", req, 2, t), honest("breaker", req, 2, t), honest("sandbox", req, 2, t, { trialOk: false })]),
      now: t,
    })),
  );

  refuses(
    "tier 2 with a trial report for another command",
    "ATTESTATION_MISMATCH",
    fc
      .tuple(request, now, command)
      .filter(([req, , c]) => req.command !== c)
      .map(([req, t, c]) => ({
        req: withAtts(req, [honest("classifier", req, 2, t), honest("breaker", req, 2, t), honest("sandbox", { ...req, command: c }, 2, t)]),
        now: t,
      })),
  );

  refuses(
    "tier 2 with an undo plan that is not the trial's touched list",
    "ATTESTATION_MISMATCH",
    fc
      .tuple(request, now, undoPaths)
      .filter(([req, , other]) => !touchedDigest(req.undoPaths).equals(touchedDigest(other)))
      .map(([req, t, other]) => ({
        req: withAtts(req, [honest("classifier", req, 2, t), honest("breaker", req, 2, t), honest("sandbox", req, 2, t, { touched: other })]),
        now: t,
      })),
  );

  refuses(
    "tier 1 or 3 with an undo plan that is not the classifier's",
    "ATTESTATION_MISMATCH",
    fc
      .tuple(request, now, undoPaths, fc.constantFrom(1 as const, 3 as const))
      .filter(([req, , other]) => !touchedDigest(req.undoPaths).equals(touchedDigest(other)))
      .map(([req, t, other, tier]) => ({
        req: withAtts(req, QUORUM[tier].map((s) => honest(s, req, tier, t, s === "classifier" ? { touched: other } : {}))),
        now: t,
      })),
  );

  refuses(
    "tier 3 without concurrence",
    "ATTESTATION_MISSING",
    fc.tuple(request, now, fc.boolean()).map(([req, t, withTrial]) => {
      const atts = [honest("classifier", req, 3, t), honest("breaker", req, 3, t)];
      if (withTrial) atts.push(honest("sandbox", req, 3, t));
      return { req: withAtts(req, atts), now: t };
    }),
  );

  refuses(
    "tier 3 where concurrence says tier 4 (or leaves the tier unspecified)",
    "TIER_REFUSED",
    fc.tuple(request, now, fc.constantFrom(Tier.TIER_REFUSE, Tier.TIER_UNSPECIFIED, 99 as Tier)).map(([req, t, ctier]) => ({
      req: withAtts(req, [honest("classifier", req, 3, t), honest("concurrence", req, 3, t, { tier: ctier }), honest("breaker", req, 3, t)]),
      now: t,
    })),
  );

  refuses(
    "tier 4 with a full quorum (or an unspecified/unknown classifier tier)",
    "TIER_REFUSED",
    fc.tuple(request, now, fc.constantFrom(Tier.TIER_REFUSE, Tier.TIER_UNSPECIFIED, 6 as Tier, 1000 as Tier)).map(([req, t, ctier]) => ({
      req: withAtts(
        req,
        QUORUM[4].map((s) => honest(s, req, 4, t, s === "classifier" ? { tier: ctier } : {})),
      ),
      now: t,
    })),
  );

  refuses(
    "two attestations for one role",
    "ATTESTATION_MALFORMED",
    fc.tuple(request, liveTier, now, fc.constantFrom<TierNumber>(0, 1, 2, 3)).chain(([req, tier, t, otherTier]) =>
      victim(tier).map((v) => {
        const dup = QUORUM[tier][v] as Signer;
        const atts = [...fullQuorum(req, tier, t), honest(dup, req, otherTier, t)];
        return { req: withAtts(req, atts), now: t };
      }),
    ),
  );

  refuses(
    "no classifier decision at all",
    "ATTESTATION_MISSING",
    fc.tuple(request, liveTier, now).map(([req, tier, t]) => ({
      req: withAtts(req, QUORUM[4].filter((s) => s !== "classifier").map((s) => honest(s, req, tier, t))),
      now: t,
    })),
  );

  refuses(
    "a nonce that is not 16 bytes",
    "ATTESTATION_MALFORMED",
    fc.tuple(request, liveTier, now, fc.uint8Array({ maxLength: 64 }).filter((n) => n.length !== 16)).chain(([req, tier, t, n]) =>
      victim(tier).map((v) => {
        const atts = QUORUM[tier].map((s, i) => honest(s, req, tier, t, i === v ? { nonce: Buffer.from(n) } : {}));
        return { req: withAtts(req, atts), now: t };
      }),
    ),
  );

  refuses(
    "signature over bytes that are not a Decision",
    ["ATTESTATION_MALFORMED", "ATTESTATION_MISMATCH", "ATTESTATION_EXPIRED", "TIER_REFUSED", "ATTESTATION_MISSING"],
    fc.tuple(request, now, fc.uint8Array({ minLength: 1, maxLength: 200 })).map(([req, t, junk]) => {
      const bytes = Buffer.from(junk);
      return { req: withAtts(req, [Attestation.create({ signer: "classifier", decision: bytes, signature: sign(null, bytes, priv.classifier) })]), now: t };
    }),
    200,
  );

  it("no attestations at all", () => {
    const req: ExecuteRequest = { requestId: "r", command: "ls", cwd: "", host: "primary", runAs: "", timeoutS: 30, attestations: [], undoPaths: [] };
    expect(outcome(req, 1_700_000_000)).toBe("ATTESTATION_MISSING");
  });
});
