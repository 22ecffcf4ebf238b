// Fuzzing the hook's input in process: HookJudge.preToolUse with a stub
// classifier whose verdict is a known function of the command. Random bytes,
// BOMs, non-UTF-8, wrong shapes and oversized fields are denied; an allow
// happens only when the classifier was asked about exactly that command and
// its verdict allows in the mode (conservative: explicit tier 0; routed:
// tier ≤ 1, or a lone `agent-sudo exec -- '…'`). The real gateway's
// /v1/hook on hook.sock is fuzzed in live.spec.ts.
import { describe, expect, it } from "vitest";
import { checkHookInput, corpusBytes, fuzzHook, loadCorpus, stubHook } from "./properties.js";

const SEED = 3_300_033;

describe("hook input (HookJudge, stub classifier)", () => {
  it("replays the corpus in both modes without a wrong allow", async () => {
    for (const mode of ["conservative", "routed"] as const) {
      const hook = stubHook(mode);
      for (const entry of loadCorpus("hook-input.jsonl")) {
        const kind = await checkHookInput(hook, mode, corpusBytes(entry));
        if (entry.expect === "deny" && !/catastrophic|duplicate|proto|lookalike|nested/.test(entry.note))
          expect(kind, entry.note).toBe("deny");
      }
    }
  });

  it("never allows what it should not, never answers outside the hook schema", async () => {
    const seen = await fuzzHook({ seed: SEED, numRuns: 3000 });
    for (const key of ["conservative allow", "conservative deny", "conservative no-opinion", "routed allow", "routed deny"])
      expect(seen[key], key).toBeGreaterThan(0);
  });
});
