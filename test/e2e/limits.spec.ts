// The executor's concurrency bound: beyond `max_concurrent` running and
// `queue` waiting, /exec answers 429 with Retry-After instead of piling up
// root processes.
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { journalEntries } from "../support/journal.js";
import { startStack, type Stack } from "../support/stack.js";

describe("executor limits", () => {
  let stack: Stack;
  let home: string;
  let shells: string;
  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), "agent-sudo-limits-"));
    // A stand-in shell that takes its time and then just echoes (outside the state dir, which commands see masked).
    shells = mkdtempSync(join(tmpdir(), "agent-sudo-limits-shell-"));
    chmodSync(shells, 0o755);
    const slow = join(shells, "slow-shell.sh");
    writeFileSync(slow, "#!/bin/sh\n# test stand-in: slow, runs nothing\nsleep 1.5\necho done\n", { mode: 0o755 });
    writeFileSync(join(home, "config.json"), JSON.stringify({ executor: { shell: slow, max_concurrent: 1, queue: 1 } }));
    stack = await startStack({ home });
  });
  afterAll(async () => {
    await stack?.stop();
    for (const d of [home, shells]) if (d) rmSync(d, { recursive: true, force: true });
  });

  it("answers 429 with Retry-After beyond running + queued", async () => {
    const results = await Promise.all(
      [1, 2, 3, 4].map(() =>
        fetch(`${stack.url}/exec`, {
          method: "POST",
          headers: { authorization: `Bearer ${stack.token}` },
          body: JSON.stringify({ command: "echo hi" }),
        }),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 200, 429, 429]);
    const served = await Promise.all(results.filter((r) => r.status === 200).map((r) => r.json() as Promise<{ output: string }>));
    expect(served.map((b) => b.output)).toEqual(["done\n", "done\n"]);
    const busy = results.find((r) => r.status === 429);
    expect(busy?.headers.get("retry-after")).toBe("1");
  });
});

describe("a command queued past its caller's deadline", () => {
  let stack: Stack;
  let home: string;
  let shells: string;
  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), "agent-sudo-expired-"));
    // A stand-in shell (outside the state dir, which every command sees masked): runs nothing; "hold" keeps the one slot for 14 s.
    shells = mkdtempSync(join(tmpdir(), "agent-sudo-expired-shell-"));
    chmodSync(shells, 0o755);
    const slow = join(shells, "hold-shell.sh");
    writeFileSync(slow, '#!/bin/sh\n# test stand-in: runs nothing\ncase "$2" in *hold*) sleep 14 ;; esac\necho done\n', { mode: 0o755 });
    writeFileSync(join(home, "config.json"), JSON.stringify({ executor: { shell: slow, max_concurrent: 1, queue: 2 } }));
    stack = await startStack({ home });
  });
  afterAll(async () => {
    await stack?.stop();
    for (const d of [home, shells]) if (d) rmSync(d, { recursive: true, force: true });
  });

  it("is never started: 429 (retry), journaled as expired, no execute entry — not a 502 that may have run", async () => {
    const hold = stack.exec({ command: "echo hold", timeout: 20 });
    await new Promise((r) => setTimeout(r, 300));
    // Its caller waits timeout + 15 s = 20 s; after 14 s in the queue it could not finish its 5 s in time.
    const late = await stack.exec({ command: "echo late-one", timeout: 5 });
    expect(late.status, JSON.stringify(late.body)).toBe(429);
    expect(late.body.error).toBe("busy");
    expect((await hold).status).toBe(200);
    const entries = journalEntries(stack.home);
    const lateId = String(late.body.request_id ?? "");
    expect(entries.some((e) => e.event === "expired" && (lateId === "" || e.request_id === lateId))).toBe(true);
    expect(entries.filter((e) => e.event === "execute" && e.command === "echo late-one")).toEqual([]);
  }, 60_000);
});
