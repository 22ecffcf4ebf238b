// Fuzzing the decision decoder and the executor's quorum check
// (services/executor/verify.ts): random bytes, signed or not, never make
// checkQuorum accept, and it never throws anything but a CodedError;
// structure-aware decisions signed by the pinned keys are accepted exactly
// when an independent model of the quorum rules says so. (The per-attack
// classes — forged, replayed, expired … — are in services/executor/verify.spec.ts.)
import { describe, expect, it } from "vitest";
import { Decision } from "../../proto/gen/agent_sudo/v1/decision_pb.js";
import {
  corpusBytes,
  decodes,
  fuzzDecoders,
  fuzzRandomDecisions,
  fuzzRequest,
  fuzzSignedDecisions,
  loadCorpus,
  mustRefuse,
  pinnedAttestation,
} from "./properties.js";

const SEED = 2_200_022;

describe("decision decoder: corpus", () => {
  const corpus = loadCorpus("decision.jsonl");
  it.each(corpus.map((e) => [e.note, e] as const))("%s", (_note, entry) => {
    const bytes = corpusBytes(entry);
    expect(["ok", "error"]).toContain(decodes((b) => Decision.decode(b), bytes));
    // Signed by the real (pinned) classifier key, and unsigned: refused either way.
    expect(mustRefuse(fuzzRequest([pinnedAttestation("classifier", bytes)]))).toMatch(/^[A-Z_]+$/);
    expect(mustRefuse(fuzzRequest([{ signer: "classifier", decision: bytes, signature: Buffer.alloc(64) }]))).toBe(
      "ATTESTATION_BAD_SIGNATURE",
    );
  });
});

describe("decision decoder: properties", () => {
  it("Decision, Attestation and ExecuteRequest decoders only return or throw an Error; a decoded request is refused", () => {
    const seen = fuzzDecoders({ seed: SEED, numRuns: 3000 });
    expect(seen["Decision error"]).toBeGreaterThan(0);
    expect(seen["Decision ok"]).toBeGreaterThan(0);
  });

  it("random bytes as attestations — unsigned, badly signed or signed by the pinned keys — are never accepted", () => {
    const seen = fuzzRandomDecisions({ seed: SEED, numRuns: 2000 });
    expect(Object.keys(seen).some((k) => k.startsWith("accepted"))).toBe(false);
    expect(seen.ATTESTATION_BAD_SIGNATURE).toBeGreaterThan(0);
    expect((seen.ATTESTATION_MALFORMED ?? 0) + (seen.ATTESTATION_MISMATCH ?? 0)).toBeGreaterThan(0);
  });

  it("signed, structure-aware decisions: accepted exactly when the model's quorum holds", () => {
    const seen = fuzzSignedDecisions({ seed: SEED, numRuns: 3000 });
    // Not vacuous: both outcomes occur.
    expect(Object.keys(seen).filter((k) => k.startsWith("accepted")).length).toBeGreaterThan(0);
    expect(Object.keys(seen).filter((k) => !k.startsWith("accepted")).length).toBeGreaterThan(3);
  });
});
