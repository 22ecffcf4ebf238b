// The executor's concurrency bound: beyond `max_concurrent` running and
// `queue` waiting, /exec answers 429 with Retry-After instead of piling up
// root processes.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "../support/stack.js";

describe("executor limits", () => {
  let stack: Stack;
  beforeAll(async () => {
    const home = mkdtempSync(join(tmpdir(), "agent-sudo-limits-"));
    // A stand-in shell that takes its time and then just echoes.
    const slow = join(home, "slow-shell.sh");
    writeFileSync(slow, '#!/bin/sh\n# test stand-in: slow, runs nothing\nsleep 1.5\necho done\n', { mode: 0o755 });
    writeFileSync(join(home, "config.json"), JSON.stringify({ executor: { shell: slow, max_concurrent: 1, queue: 1 } }));
    stack = await startStack({ home });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("answers 429 with Retry-After beyond running + queued", async () => {
    const results = await Promise.all([1, 2, 3, 4].map(() => fetch(`${stack.url}/exec`, {
      method: "POST",
      headers: { authorization: `Bearer ${stack.token}` },
      body: JSON.stringify({ command: "echo hi" }),
    })));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 200, 429, 429]);
    const busy = results.find((r) => r.status === 429);
    expect(busy?.headers.get("retry-after")).toBe("1");
  });
});
