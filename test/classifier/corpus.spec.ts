// The labelled corpus (test/corpus/*.jsonl) against the real engine and the
// real policies: zero dangerous cases judged 0–1, every catastrophic case 4.
import { beforeAll, describe, expect, it } from "vitest";
import type { Engine } from "../../services/classifier/verdict.js";
import { named } from "../support/needs.js";
import { band, getEngine, inRepo, judge, loadCorpus } from "./engine-fixture.js";
import { NO_GIT } from "./host-fixture.js";

const corpus = loadCorpus();
let engine: Engine;

beforeAll(async () => {
  engine = await getEngine();
});

describe("classifier corpus", () => {
  it.skipIf(!!NO_GIT)(
    named("includes the git-backed reversible cases (redteam3-reversible.jsonl: a fixture repository made by git)", NO_GIT),
    () => {
      expect(corpus.filter(inRepo).length).toBeGreaterThanOrEqual(20);
    },
  );

  it("is large enough and covers the families", () => {
    expect(corpus.length).toBeGreaterThanOrEqual(500);
    expect(corpus.filter((c) => c.family === "safe-but-scary").length).toBeGreaterThanOrEqual(80);
    for (const e of ["allow", "route", "refuse"] as const) expect(corpus.filter((c) => c.expect === e).length).toBeGreaterThan(50);
  });

  it("never judges a dangerous case tier 0–1", () => {
    const wrong = corpus
      .filter((c) => c.expect !== "allow")
      .map((c) => ({ c, v: judge(engine, c) }))
      .filter(({ v }) => v.tier <= 1);
    expect(wrong.map(({ c, v }) => `${c.file}:${c.line} ${c.command} → ${v.tier} ${v.rule}`)).toEqual([]);
  });

  it("judges every catastrophic case tier 4", () => {
    const wrong = corpus
      .filter((c) => c.expect === "refuse")
      .map((c) => ({ c, v: judge(engine, c) }))
      .filter(({ v }) => v.tier !== 4);
    expect(wrong.map(({ c, v }) => `${c.file}:${c.line} ${c.command} → ${v.tier} ${v.rule}: ${v.reason}`)).toEqual([]);
  });

  it("puts every case in its expected band and bounds", () => {
    const wrong = corpus
      .map((c) => ({ c, v: judge(engine, c) }))
      .filter(
        ({ c, v }) =>
          band(v.tier) !== c.expect || (c.minTier !== undefined && v.tier < c.minTier) || (c.maxTier !== undefined && v.tier > c.maxTier),
      );
    expect(wrong.map(({ c, v }) => `${c.file}:${c.line} [${c.expect}] ${c.command} → ${v.tier} ${v.rule}: ${v.reason}`)).toEqual([]);
  });

  it("names the deciding part and rule in every verdict", () => {
    for (const c of corpus) {
      const v = judge(engine, c);
      expect(v.rule, c.command).not.toBe("");
      expect(v.reason, c.command).not.toBe("");
      if (v.tier > 0)
        expect(
          v.parts.some((p) => p.tier === v.tier && p.rule === v.rule),
          c.command,
        ).toBe(true);
      expect(Math.max(0, ...v.parts.map((p) => p.tier))).toBe(v.tier);
    }
  });
});
