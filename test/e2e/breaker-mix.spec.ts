// The breaker's command-mix trip through a real stack: after a baseline of
// reads, a burst of tier-2 edits trips it ("command-mix"), and tiers ≥ 1 are
// refused while tier 0 still runs. Small windows (5 over a baseline of 10)
// via the environment; the commands edit a scratch file.
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "../support/stack.js";

const root = process.getuid?.() === 0;

describe.skipIf(!root)("the breaker's command-mix trip", () => {
  let stack: Stack;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "agent-sudo-mix-"));
    chmodSync(dir, 0o755);
    writeFileSync(join(dir, "cfg"), "n=0\n");
    stack = await startStack({
      env: { AGENT_SUDO_BREAKER_MIX_LAST: "5", AGENT_SUDO_BREAKER_MIX_BASELINE: "10", AGENT_SUDO_BREAKER_MAX_REQUESTS_PER_MIN: "100000" },
    });
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("trips on a burst of tier 2 after a baseline of reads, then refuses tier ≥ 1 and still runs tier 0", async () => {
    for (let i = 0; i < 10; i++) expect((await stack.exec({ command: `echo read-${i}` })).status).toBe(200);
    const burst: number[] = [];
    for (let i = 0; i < 8; i++) {
      const r = await stack.exec({ command: `sed -i s/^n=.*/n=${i}/ ${dir}/cfg` });
      burst.push(r.status);
      if (r.status === 403) {
        expect(String(r.body.reason)).toContain("breaker disarmed");
        break;
      }
    }
    expect(burst).toContain(403);
    expect(burst.slice(0, 3)).toEqual([200, 200, 200]);
    const h = await stack.health();
    expect((h.body.breaker as { state: string; detail: string }).state).toBe("disarmed");
    expect((h.body.breaker as { detail: string }).detail).toContain("command-mix");
    expect((await stack.exec({ command: "echo tier-0-still" })).status).toBe(200);
  }, 60_000);
});
