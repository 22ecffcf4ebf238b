import { describe, expect, it } from "vitest";
import { AuthLimiter } from "./auth-limit.js";

describe("AuthLimiter", () => {
  it("blocks a source after maxFailures within the window, and only that source", () => {
    const l = new AuthLimiter({ maxFailures: 3, windowMs: 60_000 });
    const t = 1_000_000;
    for (let i = 0; i < 2; i++) l.fail("10.0.0.1", t + i);
    expect(l.blockedFor("10.0.0.1", t + 10)).toBe(0);
    l.fail("10.0.0.1", t + 20);
    expect(l.blockedFor("10.0.0.1", t + 30)).toBe(60);
    expect(l.blockedFor("10.0.0.2", t + 30)).toBe(0);
  });

  it("lets the source back once the window has passed", () => {
    const l = new AuthLimiter({ maxFailures: 2, windowMs: 1000 });
    l.fail("s", 0);
    l.fail("s", 10);
    expect(l.blockedFor("s", 500)).toBe(1);
    expect(l.blockedFor("s", 1011)).toBe(0);
  });

  it("keeps memory bounded", () => {
    const l = new AuthLimiter({ maxFailures: 2, windowMs: 60_000, maxSources: 100 });
    for (let i = 0; i < 1000; i++) l.fail(`s${i}`, 0);
    expect((l as unknown as { failures: Map<string, number[]> }).failures.size).toBeLessThanOrEqual(100);
  });
});
