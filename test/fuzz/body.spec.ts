// Fuzzing the gateway's /exec body parser (services/gateway/body.ts):
// a replayed corpus of known-nasty bodies, then fast-check (fixed seed)
// against an independent model of the rules. Non-UTF-8, oversized and
// malformed input is a BAD_REQUEST or TOO_LARGE CodedError, never another
// throw and never an accepted body that breaks an invariant.
import { describe, expect, it } from "vitest";
import { corpusBytes, execBodyVerdict, expectedVerdict, fuzzExecBody, fuzzParseJson, fuzzReadBody, loadCorpus } from "./properties.js";

const SEED = 1_100_011;

describe("gateway body parser: corpus", () => {
  const corpus = loadCorpus("exec-body.jsonl");
  it.each(corpus.map((e) => [e.note, e] as const))("%s", (_note, entry) => {
    const raw = corpusBytes(entry);
    const v = execBodyVerdict(raw);
    expect("ok" in v ? "ok" : v.code).toBe(entry.expect);
    expect(expectedVerdict(raw)).toBe(entry.expect);
  });
});

describe("gateway body parser: properties", () => {
  it("parseExecBody agrees with the model on random bytes, shaped bodies and mutated valid bodies", () => {
    const seen = fuzzExecBody({ seed: SEED, numRuns: 4000 });
    // The generators reach every verdict.
    expect(Object.keys(seen).sort()).toEqual(["BAD_REQUEST", "TOO_LARGE", "ok"]);
  });

  it("parseJson refuses every non-UTF-8 body and throws nothing but BAD_REQUEST", () => {
    const seen = fuzzParseJson({ seed: SEED, numRuns: 2000 });
    expect(seen["bad utf-8"]).toBeGreaterThan(0);
    expect(seen.value).toBeGreaterThan(0);
  });

  it("readBody returns exactly the bytes sent or TOO_LARGE, whatever the chunking and Content-Length", async () => {
    const seen = await fuzzReadBody({ seed: SEED, numRuns: 600 });
    expect(seen.read).toBeGreaterThan(0);
    expect(seen["too large"]).toBeGreaterThan(0);
  });
});
