// checkExecute, checkCommit and checkGrant with generated keys: an honest
// quorum of each shape is accepted (so an over-strict verifier fails too),
// and every field an attacker can get wrong is refused with its code —
// randomized property tests, 1,000 cases per attack class (fixed seed),
// 0 accepted. The quorum shapes (verify.ts):
//   tier 0     classifier
//   tier 3     classifier + concurrence (any tier but 4) + breaker lease ≥ 3
//   package    classifier (tier 2, package_run) + lease ≥ 2 + sandbox trial ok
//              binding the touched list the undo plan is
//   commit     classifier (tier 1–2) + lease ≥ final tier + sandbox run report
//              + classifier and concurrence effect verdicts, all over one
//              manifest digest; final tier = max(classifier, both verdicts)
//   grant      breaker (role BREAKER_GRANT, never a lease) or operator over rollbackDigest(undo id, host)
import { randomBytes, type KeyObject } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Attestation, Decision, Role, Tier } from "../../proto/gen/agent_sudo/v1/decision_pb.js";
import {
  bindingOf,
  commandDigest,
  manifestDigest,
  rollbackDigest,
  signDecision,
  touchedDigest,
  type CommandBinding,
} from "../shared/attestation.js";
import { CodedError } from "../shared/errors.js";
import { SIGNER_ROLES, SIGNERS, type Signer } from "../shared/keys.js";
import { tierToEnum, type TierNumber } from "../shared/tier.js";
import { attestBytes, testSigners } from "../../test/support/quorum.js";
import { ReplayMemory } from "./replay.js";
import { BREAKER_GRANT_MAX_AGE_S, checkCommit, checkExecute, checkGrant, type Bound } from "./verify.js";
import type { UndoOwner } from "./undo.js";

const SEED = 20240611;
const RUNS = 1000;
const POSITIVE_RUNS = 250;

// ---- keys -------------------------------------------------------------------

const { keys: priv, pinned } = testSigners();
/** Keys of the same names that nobody pinned. */
const forged = testSigners().keys;

/** The key that may sign each role. */
const SIGNER_OF: Record<number, Signer> = {
  [Role.ROLE_CLASSIFIER]: "classifier",
  [Role.ROLE_CONCURRENCE]: "concurrence",
  [Role.ROLE_SANDBOX]: "sandbox",
  [Role.ROLE_BREAKER]: "breaker",
  [Role.ROLE_CLASSIFIER_EFFECTS]: "classifier",
  [Role.ROLE_CONCURRENCE_EFFECTS]: "concurrence",
  [Role.ROLE_OPERATOR]: "operator",
};
const ALL_ROLES = [
  Role.ROLE_CLASSIFIER,
  Role.ROLE_CONCURRENCE,
  Role.ROLE_SANDBOX,
  Role.ROLE_BREAKER,
  Role.ROLE_CLASSIFIER_EFFECTS,
  Role.ROLE_CONCURRENCE_EFFECTS,
  Role.ROLE_OPERATOR,
] as const;

// ---- requests, members of a quorum, signing --------------------------------------

type Req = Bound & { undoPaths: string[]; envNames: string[] };

/** One attestation of a quorum, as an honest signer would make it. */
interface Member {
  signer: Signer;
  role: Role;
  tier: Tier;
  trialOk?: boolean;
  /** Paths whose touchedDigest the decision binds. */
  touched?: readonly string[];
  manifest?: Buffer;
  packageRun?: boolean;
  liveAction?: boolean;
}

/** What an attacker changes in one attestation. */
interface Tamper {
  key?: KeyObject;
  name?: string;
  binding?: Partial<CommandBinding>;
  decision?: Partial<Decision>;
}

function decisionOf(m: Member, req: Req, now: number, t: Tamper = {}): Decision {
  const binding: CommandBinding = { ...bindingOf(req, "sudo"), ...t.binding };
  return Decision.create({
    role: m.role,
    requestId: req.requestId,
    commandDigest: commandDigest(binding),
    tier: m.tier,
    host: binding.host,
    policyDigest: Buffer.alloc(32, 7),
    issuedAt: now,
    expiresAt: now + 60,
    nonce: randomBytes(16),
    rule: "test",
    trialOk: m.trialOk ?? false,
    touchedDigest: m.touched ? touchedDigest(m.touched) : Buffer.alloc(0),
    manifestDigest: m.manifest ?? Buffer.alloc(0),
    packageRun: m.packageRun ?? false,
    liveAction: m.liveAction ?? false,
    ...t.decision,
  });
}

function attest(name: string, key: KeyObject, d: Decision): Attestation {
  return attestBytes(name, key, Decision.encode(d).finish());
}

function signed(m: Member, req: Req, now: number, t: Tamper = {}): Attestation {
  return attest(t.name ?? m.signer, t.key ?? priv[m.signer], decisionOf(m, req, now, t));
}

// ---- scenarios -------------------------------------------------------------------

const KINDS = ["tier0", "tier3", "package", "commit"] as const;
type Kind = (typeof KINDS)[number];

interface Scenario {
  kind: Kind;
  req: Req;
  now: number;
  /** The digest of the manifest a commit presents (unused by Execute). */
  manifest: Buffer;
  members: Member[];
  /** The tier an honest quorum is accepted with. */
  tier: TierNumber;
}

const T = (n: TierNumber): Tier => tierToEnum(n);
const maxTier = (...t: TierNumber[]) => Math.max(...t) as TierNumber;

// Well-formed text only: lone surrogates all encode to U+FFFD, so two such
// "different" strings are the same command on the wire.
const command = fc
  .oneof(fc.string({ minLength: 1, maxLength: 120, unit: "grapheme-ascii" }), fc.string({ minLength: 1, maxLength: 60, unit: "grapheme" }))
  .filter((c) => !c.includes("\0"));
const cwd = fc.oneof(fc.constant(""), fc.constant("/"), fc.stringMatching(/^\/[a-z0-9._/-]{0,40}$/));
const host = fc.oneof(fc.constantFrom("primary", "server-01"), fc.stringMatching(/^[a-z][a-z0-9.-]{0,20}$/));
const runAs = fc.oneof(fc.constant(""), fc.constantFrom("root", "www-data", "postgres"), fc.stringMatching(/^[a-z_][a-z0-9_-]{0,15}$/));
const requestId = fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/);
const envNames = fc.uniqueArray(fc.stringMatching(/^[A-Z][A-Z0-9_]{0,10}_TOKEN$/), { maxLength: 3 });
const undoPaths = fc.array(fc.stringMatching(/^\/[a-z0-9._/-]{1,40}$/), { maxLength: 4 });
const now = fc.integer({ min: 1_600_000_000, max: 2_000_000_000 });
const digest = fc.uint8Array({ minLength: 1, maxLength: 64 }).map((b) => manifestDigest(b));
const tier03 = fc.constantFrom<TierNumber>(0, 1, 2, 3);

const request: fc.Arbitrary<Req> = fc
  .record({ requestId, command, cwd, host, runAs, envNames, undoPaths })
  .map((r) => ({ ...r, attestations: [] }));

function scenarioOf(kind: Kind): fc.Arbitrary<Scenario> {
  return fc
    .record({
      req: request,
      now,
      manifest: digest,
      concurrence: tier03,
      packageLease: fc.constantFrom<TierNumber>(2, 3),
      predicted: fc.constantFrom<TierNumber>(1, 2, 3),
      effects: fc.tuple(tier03, tier03),
      leaseSlack: fc.nat(3),
    })
    .map(({ req, now: t, manifest, concurrence, packageLease, predicted, effects, leaseSlack }) => {
      const s = { kind, req, now: t, manifest };
      switch (kind) {
        case "tier0":
          return { ...s, tier: 0, members: [{ signer: "classifier", role: Role.ROLE_CLASSIFIER, tier: T(0) }] } as Scenario;
        case "tier3":
          return {
            ...s,
            tier: 3,
            members: [
              { signer: "classifier", role: Role.ROLE_CLASSIFIER, tier: T(3), touched: req.undoPaths, liveAction: true },
              { signer: "concurrence", role: Role.ROLE_CONCURRENCE, tier: T(concurrence) },
              { signer: "breaker", role: Role.ROLE_BREAKER, tier: T(3) },
            ],
          } as Scenario;
        case "package":
          return {
            ...s,
            tier: 2,
            members: [
              { signer: "classifier", role: Role.ROLE_CLASSIFIER, tier: T(2), packageRun: true },
              { signer: "breaker", role: Role.ROLE_BREAKER, tier: T(packageLease) },
              { signer: "sandbox", role: Role.ROLE_SANDBOX, tier: T(2), trialOk: true, touched: req.undoPaths },
            ],
          } as Scenario;
        case "commit": {
          const final = maxTier(predicted, ...effects);
          const lease = Math.min(3, final + leaseSlack) as TierNumber;
          return {
            ...s,
            tier: final,
            members: [
              { signer: "classifier", role: Role.ROLE_CLASSIFIER, tier: T(predicted) },
              { signer: "breaker", role: Role.ROLE_BREAKER, tier: T(Math.max(1, lease) as TierNumber) },
              { signer: "sandbox", role: Role.ROLE_SANDBOX, tier: T(predicted), trialOk: true, manifest },
              { signer: "classifier", role: Role.ROLE_CLASSIFIER_EFFECTS, tier: T(effects[0]), manifest },
              { signer: "concurrence", role: Role.ROLE_CONCURRENCE_EFFECTS, tier: T(effects[1]), manifest },
            ],
          } as Scenario;
        }
        default:
          throw new Error(`no scenario for ${String(kind)}`);
      }
    });
}

const anyScenario = fc.constantFrom<Kind>(...KINDS).chain(scenarioOf);

function honest(s: Scenario): Attestation[] {
  return s.members.map((m) => signed(m, s.req, s.now));
}

/** The quorum with member `i` tampered. */
function tampered(s: Scenario, i: number, t: Tamper): Attestation[] {
  return s.members.map((m, j) => signed(m, s.req, s.now, j === i ? t : {}));
}

/** The quorum with member `i` replaced. */
function replaced(s: Scenario, i: number, m: Member, t: Tamper = {}): Attestation[] {
  return s.members.map((o, j) => (j === i ? signed(m, s.req, s.now, t) : signed(o, s.req, s.now)));
}

/** Picks one member of the quorum. */
const victim = (s: Scenario) => fc.nat(s.members.length - 1).map((v) => ({ s, v, m: s.members[v] as Member }));
const anyVictim = anyScenario.chain(victim);

// ---- running the check --------------------------------------------------------------

type Outcome = { code: "ACCEPTED"; tier: TierNumber; nonces: number; packageRun?: boolean } | { code: string };

function check(s: Scenario, attestations: Attestation[], replay = new ReplayMemory(), req: Partial<Req> = {}): Outcome {
  const r = { ...s.req, ...req, attestations };
  try {
    if (s.kind === "commit") {
      const v = checkCommit(r, s.manifest, pinned, replay, s.now);
      return { code: "ACCEPTED", tier: v.tier, nonces: v.nonces.length };
    }
    const v = checkExecute(r, pinned, replay, s.now);
    return { code: "ACCEPTED", tier: v.tier, nonces: v.nonces.length, packageRun: v.packageRun };
  } catch (err) {
    if (err instanceof CodedError) return { code: err.code };
    throw err;
  }
}

interface Case {
  s: Scenario;
  atts: Attestation[];
  /** Presented (and accepted) first, with the same replay memory. */
  first?: Attestation[];
  /** The request as presented, when it differs from the one signed. */
  req?: Partial<Req>;
}

function refuses(name: string, expected: string | readonly string[], arb: fc.Arbitrary<Case>, runs = RUNS): void {
  it(`${name}: ${runs} cases, 0 accepted`, () => {
    const want = typeof expected === "string" ? [expected] : expected;
    const codes = new Map<string, number>();
    let accepted = 0;
    let cases = 0;
    fc.assert(
      fc.property(arb, ({ s, atts, first, req }) => {
        const replay = new ReplayMemory();
        if (first && check(s, first, replay).code !== "ACCEPTED") throw new Error("setup: the first use was not accepted");
        const { code } = check(s, atts, replay, req);
        cases++;
        codes.set(code, (codes.get(code) ?? 0) + 1);
        if (code === "ACCEPTED") accepted++;
        return want.includes(code);
      }),
      { seed: SEED, numRuns: runs },
    );
    expect(accepted).toBe(0);
    expect(cases).toBeGreaterThanOrEqual(runs);
    expect([...codes.keys()].every((c) => want.includes(c))).toBe(true);
  });
}

// ---- positive cases -----------------------------------------------------------------

describe("an honest quorum is accepted", () => {
  for (const kind of KINDS) {
    it(`${kind} (${POSITIVE_RUNS} random requests, any order)`, () => {
      fc.assert(
        fc.property(scenarioOf(kind), fc.boolean(), (s, shuffle) => {
          const atts = honest(s);
          if (shuffle) atts.reverse();
          const out = check(s, atts);
          expect(out).toMatchObject({ code: "ACCEPTED", tier: s.tier, nonces: s.members.length });
          if (kind !== "commit") expect((out as { packageRun?: boolean }).packageRun).toBe(kind === "package");
        }),
        { seed: SEED, numRuns: POSITIVE_RUNS },
      );
    });
  }

  it("commit: the final tier is the max of the classifier's and both effect verdicts", () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(scenarioOf("commit"), (s) => {
        const [cls, , , ce, oe] = s.members.map((m) => m.tier);
        const expected = Math.max(...[cls, ce, oe].map((t) => (t as number) - 1));
        seen.add(`${expected}`);
        expect(check(s, honest(s))).toMatchObject({ code: "ACCEPTED", tier: expected });
      }),
      { seed: SEED, numRuns: POSITIVE_RUNS },
    );
    expect([...seen].sort()).toEqual(["1", "2", "3"]);
  });

  it("accepts decisions made by signDecision (the signers' own code path)", () => {
    const t = Math.floor(Date.now() / 1000);
    const req: Req = {
      requestId: "req-1",
      command: "systemctl restart nginx",
      cwd: "/",
      host: "primary",
      runAs: "",
      envNames: ["API_TOKEN"],
      undoPaths: ["/etc/nginx/nginx.conf"],
      attestations: [],
    };
    const binding = bindingOf(req, "sudo");
    const sd = (s: Signer, role: Role, tier: TierNumber, extra: Partial<Parameters<typeof signDecision>[2]> = {}) =>
      signDecision(s, priv[s], { role, requestId: req.requestId, binding, tier, ttlS: 30, now: t, ...extra });
    // tier 3
    const t3 = [
      sd("classifier", Role.ROLE_CLASSIFIER, 3, { touchedDigest: touchedDigest(req.undoPaths), liveAction: true }),
      sd("concurrence", Role.ROLE_CONCURRENCE, 3),
      sd("breaker", Role.ROLE_BREAKER, 3),
    ];
    expect(checkExecute({ ...req, attestations: t3 }, pinned, new ReplayMemory(), t).tier).toBe(3);
    // package run
    const pkg = [
      sd("classifier", Role.ROLE_CLASSIFIER, 2, { packageRun: true }),
      sd("breaker", Role.ROLE_BREAKER, 2),
      sd("sandbox", Role.ROLE_SANDBOX, 2, { trialOk: true, touchedDigest: touchedDigest(req.undoPaths) }),
    ];
    expect(checkExecute({ ...req, attestations: pkg }, pinned, new ReplayMemory(), t)).toMatchObject({ tier: 2, packageRun: true });
    // commit
    const md = manifestDigest(Buffer.from("a manifest"));
    const commit = [
      sd("classifier", Role.ROLE_CLASSIFIER, 1),
      sd("breaker", Role.ROLE_BREAKER, 2),
      sd("sandbox", Role.ROLE_SANDBOX, 1, { trialOk: true, manifestDigest: md }),
      sd("classifier", Role.ROLE_CLASSIFIER_EFFECTS, 2, { manifestDigest: md }),
      sd("concurrence", Role.ROLE_CONCURRENCE_EFFECTS, 0, { manifestDigest: md }),
    ];
    expect(checkCommit({ ...req, attestations: commit }, md, pinned, new ReplayMemory(), t).tier).toBe(2);
  });

  it("accepts at the edges of the clock: issued 5 s ahead, TTL exactly 300 s, expiring 1 s from now", () => {
    const s: Scenario = {
      kind: "tier0",
      req: { requestId: "edge", command: "ls", cwd: "", host: "primary", runAs: "", envNames: [], undoPaths: [], attestations: [] },
      now: 1_700_000_000,
      manifest: Buffer.alloc(32),
      members: [{ signer: "classifier", role: Role.ROLE_CLASSIFIER, tier: T(0) }],
      tier: 0,
    };
    const t = s.now;
    expect(check(s, tampered(s, 0, { decision: { issuedAt: t + 5, expiresAt: t + 305 } })).code).toBe("ACCEPTED");
    expect(check(s, tampered(s, 0, { decision: { issuedAt: t - 299, expiresAt: t + 1 } })).code).toBe("ACCEPTED");
    expect(check(s, tampered(s, 0, { decision: { issuedAt: t + 6, expiresAt: t + 60 } })).code).toBe("ATTESTATION_EXPIRED");
    expect(check(s, tampered(s, 0, { decision: { issuedAt: t - 300, expiresAt: t } })).code).toBe("ATTESTATION_EXPIRED");
    expect(check(s, tampered(s, 0, { decision: { issuedAt: t - 1, expiresAt: t + 300 } })).code).toBe("ATTESTATION_EXPIRED");
  });

  it("a refusal does not consume the nonces of the attestations it saw; an acceptance does", () => {
    fc.assert(
      fc.property(anyScenario, (s) => {
        const replay = new ReplayMemory();
        const atts = honest(s);
        expect(check(s, atts.slice(0, -1), replay).code).toBe("ATTESTATION_MISSING");
        expect(replay.size).toBe(0);
        expect(check(s, atts, replay).code).toBe("ACCEPTED");
        expect(replay.size).toBe(s.members.length);
        expect(check(s, atts, replay).code).toBe("ATTESTATION_REPLAYED");
      }),
      { seed: SEED, numRuns: 100 },
    );
  });
});

// ---- attack classes shared by every quorum shape --------------------------------------

describe("every quorum shape refuses (property tests, fixed seed)", () => {
  refuses(
    "forged signature (right signer name, wrong key)",
    "ATTESTATION_BAD_SIGNATURE",
    anyVictim.map(({ s, v, m }) => ({ s, atts: tampered(s, v, { key: forged[m.signer] }) })),
  );

  refuses(
    "another pinned signer's key under the right name",
    "ATTESTATION_BAD_SIGNATURE",
    anyVictim
      .chain((c) =>
        fc
          .constantFrom<Signer>(...SIGNERS)
          .filter((o) => o !== c.m.signer)
          .map((o) => ({ ...c, o })),
      )
      .map(({ s, v, o }) => ({ s, atts: tampered(s, v, { key: priv[o] }) })),
  );

  refuses(
    "unpinned signer (replacing a member, or riding along a full quorum)",
    "ATTESTATION_UNPINNED",
    fc
      .tuple(
        anyVictim,
        fc.string({ maxLength: 32 }).filter((n) => !pinned.has(n)),
        fc.boolean(),
      )
      .map(([{ s, v, m }, name, extra]) => {
        const rogue = signed(m, s.req, s.now, { name, key: forged.classifier });
        return { s, atts: extra ? [...honest(s), rogue] : s.members.map((o, j) => (j === v ? rogue : signed(o, s.req, s.now))) };
      }),
  );

  refuses(
    "bit-flipped decision bytes",
    "ATTESTATION_BAD_SIGNATURE",
    fc.tuple(anyVictim, fc.nat(), fc.integer({ min: 0, max: 7 })).map(([{ s, v }, pos, bit]) => {
      const atts = honest(s);
      const a = atts[v] as Attestation;
      const bytes = Buffer.from(a.decision);
      bytes[pos % bytes.length] = (bytes[pos % bytes.length] as number) ^ (1 << bit);
      atts[v] = { ...a, decision: bytes };
      return { s, atts };
    }),
  );

  refuses(
    "bit-flipped or truncated signature",
    "ATTESTATION_BAD_SIGNATURE",
    fc
      .tuple(anyVictim, fc.integer({ min: 0, max: 63 }), fc.integer({ min: 0, max: 7 }), fc.boolean())
      .map(([{ s, v }, pos, bit, truncate]) => {
        const atts = honest(s);
        const a = atts[v] as Attestation;
        const sig = Buffer.from(a.signature);
        sig[pos] = (sig[pos] as number) ^ (1 << bit);
        atts[v] = { ...a, signature: truncate ? sig.subarray(0, pos) : sig };
        return { s, atts };
      }),
  );

  refuses(
    "a role the key may not sign (signed and named by that key)",
    "ATTESTATION_MISMATCH",
    anyVictim
      .chain((c) =>
        fc
          .constantFrom<Signer>(...SIGNERS)
          .filter((o) => !SIGNER_ROLES[o].includes(c.m.role))
          .map((o) => ({ ...c, o })),
      )
      .map(({ s, v, o }) => ({ s, atts: tampered(s, v, { key: priv[o], name: o }) })),
  );

  refuses(
    "another request id",
    "ATTESTATION_MISMATCH",
    fc
      .tuple(anyVictim, requestId, fc.boolean())
      .filter(([{ s }, id]) => id !== s.req.requestId)
      .map(([{ s, v }, id, all]) => ({
        s,
        atts: all
          ? s.members.map((m) => signed(m, s.req, s.now, { decision: { requestId: id } }))
          : tampered(s, v, { decision: { requestId: id } }),
      })),
  );

  // A quorum signed for one command, presented with another (or one member's
  // decision is about another command): every bound field.
  const FIELDS = ["command", "cwd", "host", "runAs", "envNames"] as const;
  const otherValue = { command, cwd, host, runAs, envNames } as Record<(typeof FIELDS)[number], fc.Arbitrary<string | string[]>>;
  const differs = (a: string | readonly string[], b: string | readonly string[]) =>
    typeof a === "string" ? a !== b : [...a].sort().join("\n") !== [...(b as string[])].sort().join("\n");
  refuses(
    "another command digest (command, cwd, host, run-as or secret names differ)",
    "ATTESTATION_MISMATCH",
    fc
      .constantFrom(...FIELDS)
      .chain((field) => fc.tuple(fc.constant(field), anyVictim, otherValue[field], fc.boolean()))
      .filter(([field, { s }, value]) => differs(s.req[field], value))
      .map(([field, { s, v }, value, all]) => {
        const t: Tamper = { binding: { [field]: value } };
        return { s, atts: all ? s.members.map((m) => signed(m, s.req, s.now, t)) : tampered(s, v, t) };
      }),
  );

  refuses(
    "the same quorum presented with another request (signed for one, sent with another)",
    "ATTESTATION_MISMATCH",
    fc
      .constantFrom(...FIELDS, "requestId" as const)
      .chain((field) => fc.tuple(fc.constant(field), anyScenario, field === "requestId" ? requestId : otherValue[field]))
      .filter(([field, { req }, value]) => differs(req[field], value))
      .map(([field, s, value]) => ({ s, atts: honest(s), req: { [field]: value } })),
  );

  refuses(
    'decisions bound with policy source "claude" (the hook\'s policy)',
    "ATTESTATION_MISMATCH",
    fc.tuple(anyVictim, fc.boolean()).map(([{ s, v }, all]) => {
      const t: Tamper = { binding: { source: "claude" } };
      return { s, atts: all ? s.members.map((m) => signed(m, s.req, s.now, t)) : tampered(s, v, t) };
    }),
  );

  refuses(
    "a host field naming another host (digest unchanged)",
    "ATTESTATION_MISMATCH",
    fc
      .tuple(anyVictim, host)
      .filter(([{ s }, h]) => h !== s.req.host)
      .map(([{ s, v }, h]) => ({ s, atts: tampered(s, v, { decision: { host: h } }) })),
  );

  refuses(
    "expired",
    "ATTESTATION_EXPIRED",
    fc.tuple(anyVictim, fc.integer({ min: 0, max: 100_000 }), fc.integer({ min: 1, max: 300 })).map(([{ s, v }, ago, ttl]) => ({
      s,
      atts: tampered(s, v, { decision: { issuedAt: s.now - ttl - ago, expiresAt: s.now - ago } }),
    })),
  );

  refuses(
    "issued in the future (beyond 5 s of skew)",
    "ATTESTATION_EXPIRED",
    fc.tuple(anyVictim, fc.integer({ min: 6, max: 1_000_000 }), fc.integer({ min: 1, max: 300 })).map(([{ s, v }, ahead, ttl]) => ({
      s,
      atts: tampered(s, v, { decision: { issuedAt: s.now + ahead, expiresAt: s.now + ahead + ttl } }),
    })),
  );

  refuses(
    "TTL over 300 s",
    "ATTESTATION_EXPIRED",
    fc.tuple(anyVictim, fc.integer({ min: 301, max: 10_000_000 }), fc.integer({ min: 0, max: 5 })).map(([{ s, v }, ttl, back]) => ({
      s,
      atts: tampered(s, v, { decision: { issuedAt: s.now - back, expiresAt: s.now - back + ttl } }),
    })),
  );

  refuses(
    "replayed nonce (the whole quorum again, or one used attestation beside fresh ones)",
    "ATTESTATION_REPLAYED",
    fc.tuple(anyVictim, fc.boolean()).map(([{ s, v }, whole]) => {
      const first = honest(s);
      return { s, first, atts: whole ? first : s.members.map((m, j) => (j === v ? (first[j] as Attestation) : signed(m, s.req, s.now))) };
    }),
  );

  refuses(
    "a fresh attestation carrying a used nonce",
    "ATTESTATION_REPLAYED",
    anyVictim.map(({ s, v }) => {
      const first = honest(s);
      const used = Decision.decode((first[v] as Attestation).decision).nonce;
      return { s, first, atts: tampered(s, v, { decision: { nonce: Buffer.from(used) } }) };
    }),
  );

  refuses(
    "two attestations for one role",
    "ATTESTATION_MALFORMED",
    fc.tuple(anyVictim, tier03).map(([{ s, m }, other]) => ({ s, atts: [...honest(s), signed({ ...m, tier: T(other) }, s.req, s.now)] })),
  );

  const EXTRA: Record<Kind, readonly Role[]> = {
    tier0: ALL_ROLES.filter((r) => r !== Role.ROLE_CLASSIFIER),
    tier3: [Role.ROLE_SANDBOX, Role.ROLE_CLASSIFIER_EFFECTS, Role.ROLE_CONCURRENCE_EFFECTS, Role.ROLE_OPERATOR],
    package: [Role.ROLE_CONCURRENCE, Role.ROLE_CLASSIFIER_EFFECTS, Role.ROLE_CONCURRENCE_EFFECTS, Role.ROLE_OPERATOR],
    commit: [Role.ROLE_CONCURRENCE, Role.ROLE_OPERATOR],
  };
  refuses(
    "an extra role that has no place in the quorum",
    "ATTESTATION_MALFORMED",
    fc
      .tuple(anyScenario, tier03, fc.boolean())
      .chain(([s, tier, trialOk]) => fc.constantFrom(...EXTRA[s.kind]).map((role) => ({ s, tier, trialOk, role })))
      .map(({ s, tier, trialOk, role }) => {
        const extra: Member = {
          signer: SIGNER_OF[role] as Signer,
          role,
          tier: T(tier),
          trialOk,
          touched: s.req.undoPaths,
          manifest: s.manifest,
        };
        return { s, atts: [...honest(s), signed(extra, s.req, s.now)] };
      }),
  );

  refuses(
    "a member missing",
    "ATTESTATION_MISSING",
    anyVictim.map(({ s, v }) => ({ s, atts: honest(s).filter((_, j) => j !== v) })),
  );

  refuses(
    "a nonce that is not 16 bytes",
    "ATTESTATION_MALFORMED",
    fc
      .tuple(
        anyVictim,
        fc.uint8Array({ maxLength: 64 }).filter((n) => n.length !== 16),
      )
      .map(([{ s, v }, n]) => ({ s, atts: tampered(s, v, { decision: { nonce: Buffer.from(n) } }) })),
  );

  refuses(
    "a signature over bytes that are not a Decision",
    ["ATTESTATION_MALFORMED", "ATTESTATION_MISMATCH", "ATTESTATION_EXPIRED", "ATTESTATION_MISSING", "TIER_REFUSED"],
    fc.tuple(anyVictim, fc.uint8Array({ minLength: 1, maxLength: 200 })).map(([{ s, v, m }, junk]) => {
      const atts = honest(s);
      atts[v] = attestBytes(m.signer, priv[m.signer], junk);
      return { s, atts };
    }),
  );

  it("no attestations at all", () => {
    for (const kind of KINDS) {
      const s = fc.sample(scenarioOf(kind), { seed: SEED, numRuns: 1 })[0] as Scenario;
      expect(check(s, []).code).toBe("ATTESTATION_MISSING");
    }
  });
});

// ---- Execute ------------------------------------------------------------------------

describe("checkExecute refuses (property tests, fixed seed)", () => {
  const tier3 = scenarioOf("tier3");
  const pkg = scenarioOf("package");

  refuses(
    "tiers 1–2 sent to Execute without the classifier's package_run (any company)",
    "ATTESTATION_MISMATCH",
    fc
      .tuple(
        scenarioOf("tier0"),
        fc.constantFrom<[TierNumber, boolean]>([1, false], [2, false], [1, true]),
        fc.subarray([
          Role.ROLE_BREAKER,
          Role.ROLE_SANDBOX,
          Role.ROLE_CONCURRENCE,
          Role.ROLE_CLASSIFIER_EFFECTS,
          Role.ROLE_CONCURRENCE_EFFECTS,
        ]),
        fc.constantFrom<TierNumber>(1, 2, 3),
      )
      .map(([s, [tier, packageRun], roles, lease]) => {
        const members: Member[] = [
          { signer: "classifier", role: Role.ROLE_CLASSIFIER, tier: T(tier), packageRun, touched: s.req.undoPaths },
          ...roles.map((role) => ({
            signer: SIGNER_OF[role] as Signer,
            role,
            tier: T(role === Role.ROLE_BREAKER ? lease : tier),
            trialOk: true,
            touched: s.req.undoPaths,
            manifest: s.manifest,
          })),
        ];
        return { s, atts: members.map((m) => signed(m, s.req, s.now)) };
      }),
  );

  refuses(
    "package run: the trial report says not ok",
    "ATTESTATION_MISSING",
    pkg.map((s) => ({ s, atts: tampered(s, 2, { decision: { trialOk: false } }) })),
  );

  refuses(
    "package run: the undo plan is not the trial's touched list (even when it is the classifier's)",
    "ATTESTATION_MISMATCH",
    fc
      .tuple(pkg, undoPaths, fc.boolean())
      .filter(([s, other]) => !touchedDigest(s.req.undoPaths).equals(touchedDigest(other)))
      .map(([s, other, classifierBindsIt]) => {
        const members = s.members.map((m) =>
          m.role === Role.ROLE_SANDBOX
            ? { ...m, touched: other }
            : m.role === Role.ROLE_CLASSIFIER && classifierBindsIt
              ? { ...m, touched: s.req.undoPaths }
              : m,
        );
        return { s, atts: members.map((m) => signed(m, s.req, s.now)) };
      }),
  );

  refuses(
    "package run: a lease for tier 1, tier 4 or no tier",
    "ATTESTATION_MISMATCH",
    fc
      .tuple(pkg, fc.constantFrom(Tier.TIER_REVERSIBLE, Tier.TIER_READ_ONLY, Tier.TIER_REFUSE, Tier.TIER_UNSPECIFIED, 42 as Tier))
      .map(([s, lease]) => ({
        s,
        atts: tampered(s, 1, { decision: { tier: lease } }),
      })),
  );

  refuses(
    "tier 3: a classifier decision that is not a live action (a tier 3 raised by effects is committed from a diff, never run on the host)",
    "ATTESTATION_MISMATCH",
    tier3.map((s) => ({ s, atts: tampered(s, 0, { decision: { liveAction: false } }) })),
  );

  refuses(
    "tier 3: the concurrence judged tier 4 (or no tier, or an unknown one)",
    "TIER_REFUSED",
    fc
      .tuple(tier3, fc.constantFrom(Tier.TIER_REFUSE, Tier.TIER_UNSPECIFIED, 99 as Tier))
      .map(([s, t]) => ({ s, atts: tampered(s, 1, { decision: { tier: t } }) })),
  );

  refuses(
    "tier 3: a lease for tier 0–2, tier 4 or no tier",
    "ATTESTATION_MISMATCH",
    fc
      .tuple(
        tier3,
        fc.constantFrom(
          Tier.TIER_READ_ONLY,
          Tier.TIER_REVERSIBLE,
          Tier.TIER_SANDBOX_FIRST,
          Tier.TIER_REFUSE,
          Tier.TIER_UNSPECIFIED,
          7 as Tier,
        ),
      )
      .map(([s, lease]) => ({ s, atts: tampered(s, 2, { decision: { tier: lease } }) })),
  );

  refuses(
    "tier 3: an undo plan that is not the classifier's",
    "ATTESTATION_MISMATCH",
    fc
      .tuple(tier3, undoPaths)
      .filter(([s, other]) => !touchedDigest(s.req.undoPaths).equals(touchedDigest(other)))
      .map(([s, other]) => ({ s, atts: replaced(s, 0, { ...(s.members[0] as Member), touched: other }) })),
  );

  refuses(
    "tier 3: the concurrence's effect verdict in place of its command decision",
    ["ATTESTATION_MALFORMED", "ATTESTATION_MISSING"],
    tier3.map((s) => ({
      s,
      atts: replaced(s, 1, { ...(s.members[1] as Member), role: Role.ROLE_CONCURRENCE_EFFECTS, manifest: s.manifest }),
    })),
  );

  refuses(
    "tier 4 never (or an unspecified/unknown classifier tier), whatever comes with it",
    "TIER_REFUSED",
    fc
      .tuple(
        scenarioOf("tier0"),
        fc.constantFrom(Tier.TIER_REFUSE, Tier.TIER_UNSPECIFIED, 6 as Tier, 1000 as Tier),
        fc.subarray([Role.ROLE_BREAKER, Role.ROLE_SANDBOX, Role.ROLE_CONCURRENCE]),
        fc.boolean(),
      )
      .map(([s, tier, roles, packageRun]) => {
        const members: Member[] = [
          { signer: "classifier", role: Role.ROLE_CLASSIFIER, tier, packageRun, touched: s.req.undoPaths },
          ...roles.map((role) => ({
            signer: SIGNER_OF[role] as Signer,
            role,
            tier: role === Role.ROLE_CONCURRENCE ? T(3) : tier,
            trialOk: true,
            touched: s.req.undoPaths,
          })),
        ];
        return { s, atts: members.map((m) => signed(m, s.req, s.now)) };
      }),
  );
});

// ---- Commit -------------------------------------------------------------------------

describe("checkCommit refuses (property tests, fixed seed)", () => {
  const commit = scenarioOf("commit");
  const BY_MANIFEST = [2, 3, 4]; // sandbox, classifier effects, concurrence effects

  refuses(
    "one of the run report and the effect verdicts over another manifest",
    "ATTESTATION_MISMATCH",
    fc
      .tuple(
        commit,
        fc.constantFrom(...BY_MANIFEST),
        fc.oneof(
          digest,
          fc.constant(Buffer.alloc(0)),
          fc.uint8Array({ maxLength: 40 }).map((b) => Buffer.from(b)),
        ),
      )
      .filter(([s, , other]) => !s.manifest.equals(other))
      .map(([s, v, other]) => ({ s, atts: replaced(s, v, { ...(s.members[v] as Member), manifest: other }) })),
  );

  refuses(
    "the commit presents another manifest than the one all signed",
    "ATTESTATION_MISMATCH",
    fc
      .tuple(commit, digest)
      .filter(([s, other]) => !s.manifest.equals(other))
      .map(([s, other]) => ({ s: { ...s, manifest: other }, atts: honest(s) })),
  );

  refuses(
    "an effect verdict of tier 4 (or no tier, or an unknown one)",
    "TIER_REFUSED",
    fc
      .tuple(commit, fc.constantFrom(3, 4), fc.constantFrom(Tier.TIER_REFUSE, Tier.TIER_UNSPECIFIED, 77 as Tier))
      .map(([s, v, t]) => ({ s, atts: tampered(s, v, { decision: { tier: t } }) })),
  );

  refuses(
    "a lease that does not cover the final tier (e.g. a tier-3 effect under a tier-2 lease)",
    "ATTESTATION_MISMATCH",
    fc.tuple(commit, fc.nat(10)).map(([s, pick]) => {
      const below = [
        Tier.TIER_UNSPECIFIED,
        Tier.TIER_REFUSE,
        Tier.TIER_READ_ONLY,
        ...([1, 2] as TierNumber[]).filter((t) => t < s.tier).map(T),
      ];
      return { s, atts: tampered(s, 1, { decision: { tier: below[pick % below.length] as Tier } }) };
    }),
  );

  it("a tier-3 effect under a tier-2 lease is refused; under a tier-3 lease it is accepted", () => {
    const s = fc.sample(commit, { seed: SEED, numRuns: 1 })[0] as Scenario;
    const members = s.members.map((m, j) =>
      j === 0 ? { ...m, tier: T(2) } : j === 3 ? { ...m, tier: T(3) } : j === 4 ? { ...m, tier: T(1) } : m,
    );
    const with2 = members.map((m, j) => signed(j === 1 ? { ...m, tier: T(2) } : m, s.req, s.now));
    const with3 = members.map((m, j) => signed(j === 1 ? { ...m, tier: T(3) } : m, s.req, s.now));
    expect(check(s, with2).code).toBe("ATTESTATION_MISMATCH");
    expect(check(s, with3)).toMatchObject({ code: "ACCEPTED", tier: 3 });
  });

  refuses(
    "a run report with trial_ok false",
    "ATTESTATION_MISSING",
    commit.map((s) => ({ s, atts: tampered(s, 2, { decision: { trialOk: false } }) })),
  );

  refuses(
    "a classifier tier that is not committed from a diff (0, 4, none)",
    ["ATTESTATION_MISMATCH", "TIER_REFUSED"],
    fc
      .tuple(commit, fc.constantFrom(Tier.TIER_READ_ONLY, Tier.TIER_REFUSE, Tier.TIER_UNSPECIFIED))
      .map(([s, t]) => ({ s, atts: tampered(s, 0, { decision: { tier: t } }) })),
  );

  refuses(
    "a classifier tier 0 (precisely ATTESTATION_MISMATCH)",
    "ATTESTATION_MISMATCH",
    commit.map((s) => ({ s, atts: tampered(s, 0, { decision: { tier: Tier.TIER_READ_ONLY } }) })),
  );

  refuses(
    "a live action (the classifier's signed live_action) is not committed from a diff",
    "ATTESTATION_MISMATCH",
    commit.map((s) => ({ s, atts: tampered(s, 0, { decision: { liveAction: true } }) })),
  );

  refuses(
    "a package run is not committed from a diff",
    "ATTESTATION_MISMATCH",
    commit.map((s) => ({ s, atts: tampered(s, 0, { decision: { packageRun: true } }) })),
  );

  refuses(
    "a command decision standing in for an effect verdict",
    ["ATTESTATION_MALFORMED"],
    fc.tuple(commit, fc.constantFrom(3, 4)).map(([s, v]) => {
      const m = s.members[v] as Member;
      const stand: Member = { ...m, role: m.role === Role.ROLE_CLASSIFIER_EFFECTS ? Role.ROLE_CLASSIFIER : Role.ROLE_CONCURRENCE };
      return { s, atts: replaced(s, v, stand) };
    }),
  );
});

// ---- Rollback grants ----------------------------------------------------------------------

describe("checkGrant", () => {
  interface GrantCase {
    undoId: string;
    host: string;
    now: number;
    grant: Attestation | undefined;
    first?: Attestation;
    /** The grant's request id: by default the undo record is that request's recent live action. */
    requestId?: string;
    /** The undo record's owner as the executor reads it; null: no record. */
    record?: UndoOwner | null;
  }
  const GRANTERS = [
    { signer: "breaker" as Signer, role: Role.ROLE_BREAKER_GRANT },
    { signer: "operator" as Signer, role: Role.ROLE_OPERATOR },
  ];
  const granter = fc.constantFrom(...GRANTERS);
  const base = fc.record({ undoId: fc.uuid(), host, now, who: granter, requestId });

  function grantOf(
    o: { signer: Signer; role: Role; undoId: string; host: string; now: number; requestId: string },
    t: Tamper & { digest?: Buffer } = {},
  ): Attestation {
    const d = Decision.create({
      role: o.role,
      requestId: o.requestId,
      commandDigest: t.digest ?? rollbackDigest(o.undoId, o.host),
      tier: Tier.TIER_UNSPECIFIED,
      host: o.host,
      issuedAt: o.now,
      expiresAt: o.now + 30,
      nonce: randomBytes(16),
      ...t.decision,
    });
    return attest(t.name ?? o.signer, t.key ?? priv[o.signer], d);
  }

  function grantOutcome(c: GrantCase, replay = new ReplayMemory()): string {
    try {
      const record = c.record === null ? undefined : (c.record ?? { requestId: c.requestId ?? "", createdAt: c.now, live: true });
      checkGrant(c.grant, c.undoId, c.host, pinned, replay, c.now, record);
      return "ACCEPTED";
    } catch (err) {
      if (err instanceof CodedError) return err.code;
      throw err;
    }
  }

  function grantRefuses(name: string, expected: string, arb: fc.Arbitrary<GrantCase>): void {
    it(`${name}: ${RUNS} cases, 0 accepted`, () => {
      let accepted = 0;
      fc.assert(
        fc.property(arb, (c) => {
          const replay = new ReplayMemory();
          if (c.first && grantOutcome({ ...c, grant: c.first }, replay) !== "ACCEPTED") throw new Error("setup: first grant not accepted");
          const code = grantOutcome(c, replay);
          if (code === "ACCEPTED") accepted++;
          return code === expected;
        }),
        { seed: SEED, numRuns: RUNS },
      );
      expect(accepted).toBe(0);
    });
  }

  it(`the breaker's or the operator's grant over rollbackDigest(undo id, host) is accepted once (${POSITIVE_RUNS} cases)`, () => {
    fc.assert(
      fc.property(base, (b) => {
        const replay = new ReplayMemory();
        const grant = grantOf({ ...b, ...b.who });
        const got = checkGrant(grant, b.undoId, b.host, pinned, replay, b.now, {
          requestId: b.requestId,
          createdAt: b.now - 60,
          live: true,
        });
        expect(got.signer).toBe(b.who.signer);
        expect(got.nonces).toHaveLength(1);
        expect(grantOutcome({ ...b, grant }, replay)).toBe("ATTESTATION_REPLAYED");
      }),
      { seed: SEED, numRuns: POSITIVE_RUNS },
    );
  });

  it("accepts the grant the CLI makes (signDecision with the rollback digest)", () => {
    const t = Math.floor(Date.now() / 1000);
    const undoId = "0f8fad5b-d9cb-469f-a165-70867728950e";
    const grant = signDecision("operator", priv.operator, {
      role: Role.ROLE_OPERATOR,
      requestId: "cli",
      binding: { command: "", cwd: "", host: "primary", runAs: "", source: "sudo" },
      commandDigest: rollbackDigest(undoId, "primary"),
      tier: 0,
      ttlS: 30,
    });
    expect(checkGrant(grant, undoId, "primary", pinned, new ReplayMemory(), t).signer).toBe("operator");
  });

  it("a missing grant is ATTESTATION_MISSING", () => {
    expect(grantOutcome({ undoId: "0f8fad5b-d9cb-469f-a165-70867728950e", host: "primary", now: 1_700_000_000, grant: undefined })).toBe(
      "ATTESTATION_MISSING",
    );
  });

  grantRefuses(
    "a grant for another undo id",
    "ATTESTATION_MISMATCH",
    fc
      .tuple(base, fc.uuid())
      .filter(([b, other]) => b.undoId !== other)
      .map(([b, other]) => ({ ...b, grant: grantOf({ ...b, ...b.who, undoId: other }) })),
  );

  grantRefuses(
    "a grant for another host (digest and host field), or naming another host",
    "ATTESTATION_MISMATCH",
    fc
      .tuple(base, host, fc.constantFrom("both", "digest", "field"))
      .filter(([b, other]) => b.host !== other)
      .map(([b, other, what]) => {
        const o = { ...b, ...b.who };
        const grant =
          what === "both"
            ? grantOf({ ...o, host: other })
            : what === "digest"
              ? grantOf(o, { digest: rollbackDigest(b.undoId, other) })
              : grantOf(o, { decision: { host: other } });
        return { ...b, grant };
      }),
  );

  grantRefuses(
    "a command lease (or any command decision) used as a grant",
    "ATTESTATION_MISMATCH",
    fc.tuple(base, request, tier03).map(([b, req, tier]) => ({
      ...b,
      grant: grantOf(
        { ...b, ...b.who },
        { digest: commandDigest(bindingOf({ ...req, host: b.host }, "sudo")), decision: { tier: T(tier) } },
      ),
    })),
  );

  grantRefuses(
    "a breaker lease (role BREAKER) over exactly the rollback digest, of any tier: a lease is not a grant",
    "ATTESTATION_MISMATCH",
    fc
      .tuple(base, fc.constantFrom(0, 1, 2, 3, 4, 5))
      .map(([b, tier]) => ({ ...b, grant: grantOf({ ...b, signer: "breaker", role: Role.ROLE_BREAKER }, { decision: { tier } }) })),
  );

  grantRefuses(
    "a grant signed by the classifier, the concurrence or the sandbox under its own role",
    "ATTESTATION_MISMATCH",
    fc
      .tuple(
        base,
        fc.constantFrom(
          Role.ROLE_CLASSIFIER,
          Role.ROLE_CLASSIFIER_EFFECTS,
          Role.ROLE_CONCURRENCE,
          Role.ROLE_CONCURRENCE_EFFECTS,
          Role.ROLE_SANDBOX,
        ),
      )
      .map(([b, role]) => ({ ...b, grant: grantOf({ ...b, signer: SIGNER_OF[role] as Signer, role }) })),
  );

  grantRefuses(
    "a key granting under a role it may not sign (classifier as breaker, breaker as operator …)",
    "ATTESTATION_MISMATCH",
    fc
      .tuple(base, fc.constantFrom<Signer>(...SIGNERS))
      .filter(([b, s]) => !SIGNER_ROLES[s].includes(b.who.role))
      .map(([b, s]) => ({ ...b, grant: grantOf({ ...b, signer: s, role: b.who.role }) })),
  );

  grantRefuses(
    "a forged grant (right name, wrong key)",
    "ATTESTATION_BAD_SIGNATURE",
    base.map((b) => ({ ...b, grant: grantOf({ ...b, ...b.who }, { key: forged[b.who.signer] }) })),
  );

  grantRefuses(
    "a grant by an unpinned signer",
    "ATTESTATION_UNPINNED",
    fc
      .tuple(
        base,
        fc.string({ maxLength: 32 }).filter((n) => !pinned.has(n)),
      )
      .map(([b, name]) => ({ ...b, grant: grantOf({ ...b, ...b.who }, { name, key: forged.breaker }) })),
  );

  grantRefuses(
    "an expired grant",
    "ATTESTATION_EXPIRED",
    fc.tuple(base, fc.integer({ min: 0, max: 100_000 }), fc.integer({ min: 1, max: 300 })).map(([b, ago, ttl]) => ({
      ...b,
      grant: grantOf({ ...b, ...b.who }, { decision: { issuedAt: b.now - ttl - ago, expiresAt: b.now - ago } }),
    })),
  );

  grantRefuses(
    "a grant issued in the future or with a TTL over 300 s",
    "ATTESTATION_EXPIRED",
    fc.tuple(base, fc.boolean(), fc.integer({ min: 6, max: 1_000_000 })).map(([b, future, n]) => ({
      ...b,
      grant: grantOf(
        { ...b, ...b.who },
        { decision: future ? { issuedAt: b.now + n, expiresAt: b.now + n + 30 } : { issuedAt: b.now, expiresAt: b.now + 295 + n } },
      ),
    })),
  );

  grantRefuses(
    "a replayed grant",
    "ATTESTATION_REPLAYED",
    base.map((b) => {
      const grant = grantOf({ ...b, ...b.who });
      return { ...b, first: grant, grant };
    }),
  );
  // The breaker grants on the gateway's word (its report of a failed tier-3 verify): a compromised
  // gateway reports any undo id it knows. Its grant must reach no further than that report honestly can.
  const breakerBase = base.map((b) => ({ ...b, who: GRANTERS[0] as (typeof GRANTERS)[number] }));
  grantRefuses(
    "a breaker grant for the undo record of another request (a compromised gateway's report names any undo id)",
    "ATTESTATION_MISMATCH",
    fc
      .tuple(breakerBase, requestId)
      .filter(([b, other]) => b.requestId !== other)
      .map(([b, other]) => ({ ...b, grant: grantOf({ ...b, ...b.who }), record: { requestId: other, createdAt: b.now, live: true } })),
  );

  grantRefuses(
    "a breaker grant for a committed diff's record (not a live action: no verify, no breaker rollback)",
    "ATTESTATION_MISMATCH",
    breakerBase.map((b) => ({
      ...b,
      grant: grantOf({ ...b, ...b.who }),
      record: { requestId: b.requestId, createdAt: b.now, live: false },
    })),
  );

  grantRefuses(
    "a breaker grant for a live action's record older than the breaker's window",
    "ATTESTATION_MISMATCH",
    fc.tuple(breakerBase, fc.integer({ min: 1, max: 14 * 24 * 3600 })).map(([b, older]) => ({
      ...b,
      grant: grantOf({ ...b, ...b.who }),
      record: { requestId: b.requestId, createdAt: b.now - BREAKER_GRANT_MAX_AGE_S - older, live: true },
    })),
  );

  grantRefuses(
    "a breaker grant for an undo id with no record",
    "ATTESTATION_MISMATCH",
    breakerBase.map((b) => ({ ...b, grant: grantOf({ ...b, ...b.who }), record: null })),
  );

  it("a person's grant still rolls back any record: another request's, a committed diff's, an old one", () => {
    const t = Math.floor(Date.now() / 1000);
    const undoId = "0f8fad5b-d9cb-469f-a165-70867728950e";
    const records: UndoOwner[] = [
      { requestId: "someone-else", createdAt: t, live: true },
      { requestId: "op", createdAt: t, live: false },
      { requestId: "op", createdAt: t - 13 * 24 * 3600, live: false },
    ];
    for (const record of records) {
      const grant = grantOf({ signer: "operator", role: Role.ROLE_OPERATOR, undoId, host: "primary", now: t, requestId: "op" });
      expect(checkGrant(grant, undoId, "primary", pinned, new ReplayMemory(), t, record).signer).toBe("operator");
    }
  });
});
