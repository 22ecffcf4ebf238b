// The services die with their supervisor: SIGKILL of `agent-sudo start`
// leaves no service serving unsupervised (each watches a pipe only the
// supervisor holds), and the next `start` on the same state dir comes up —
// adopting the embedded PostgreSQL the killed one left — instead of refusing.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { processAlive } from "../../services/shared/process-alive.js";
import { startStack } from "../support/stack.js";

const root = process.getuid?.() === 0;

async function until(what: string, pred: () => boolean, ms = 15_000): Promise<void> {
  const t0 = Date.now();
  while (!pred()) {
    if (Date.now() - t0 > ms) throw new Error(`${what} within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.skipIf(!root)("a supervisor killed with SIGKILL", () => {
  it("takes its services with it, and the next start on the state dir serves again (PostgreSQL adopted)", async () => {
    const first = await startStack();
    const home = first.home;
    const services = Object.values(first.pids()).filter((p): p is number => typeof p === "number");
    expect(services.length).toBe(6);
    const supervisor = Number(readFileSync(join(home, "supervisor.lock"), "utf8").split(" ")[0]);
    process.kill(supervisor, "SIGKILL");
    await until("every service exits", () => services.every((p) => !processAlive(p)));
    const second = await startStack({ home });
    try {
      expect(second.output()).toContain("adopted from the stack that was here before");
      const res = await second.exec({ command: "echo after-the-kill" });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.output).toBe("after-the-kill\n");
    } finally {
      await second.stop();
      await first.stop(); // removes the temp state dir (its supervisor is long gone)
    }
  }, 120_000);
});
