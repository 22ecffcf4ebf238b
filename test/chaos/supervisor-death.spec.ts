// A supervisor killed with SIGKILL leaves nothing serving unsupervised (issue
// 18, item 2): its services exit (each watches a pipe only the supervisor
// holds) and so does the embedded PostgreSQL (a watcher holding another such
// pipe fast-shuts-down this state dir's postmaster), and the next `start` on
// the same state dir serves instead of refusing. A postmaster left without a
// watcher (by an older build) is still adopted.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { processAlive } from "../../services/shared/process-alive.js";
import { startStack, type Stack } from "../support/stack.js";

const root = process.getuid?.() === 0;

async function until(what: string, pred: () => boolean, ms = 15_000): Promise<void> {
  const t0 = Date.now();
  while (!pred()) {
    if (Date.now() - t0 > ms) throw new Error(`${what} within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const supervisorOf = (home: string) => Number(readFileSync(join(home, "supervisor.lock"), "utf8").split(" ")[0]);
const postmasterOf = (home: string) => Number(readFileSync(join(home, "state", "postgres", "postmaster.pid"), "utf8").split("\n")[0]);

/** The PostgreSQL watcher a stack's supervisor started (its argv names it and the data dir). */
function watcherOf(home: string): number | undefined {
  const dataDir = join(home, "state", "postgres");
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const argv = readFileSync(`/proc/${name}/cmdline`, "utf8").split("\0");
      if (argv.includes("agent-sudo-pg-watch") && argv.includes(dataDir)) return Number(name);
    } catch {
      // gone meanwhile
    }
  }
  return undefined;
}

async function killSupervisor(stack: Stack): Promise<{ services: number[]; postmaster: number }> {
  const services = Object.values(stack.pids()).filter((p): p is number => typeof p === "number");
  expect(services.length).toBe(6);
  const postmaster = postmasterOf(stack.home);
  expect(processAlive(postmaster)).toBe(true);
  process.kill(supervisorOf(stack.home), "SIGKILL");
  await until("every service exits", () => services.every((p) => !processAlive(p)));
  return { services, postmaster };
}

async function serves(stack: Stack, word: string): Promise<void> {
  const res = await stack.exec({ command: `echo ${word}` });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.output).toBe(`${word}\n`);
}

describe.skipIf(!root)("chaos: a supervisor killed with SIGKILL", () => {
  it("takes its services and its PostgreSQL with it; the next start on the state dir serves", async () => {
    const first = await startStack();
    let second: Stack | undefined;
    try {
      const { postmaster } = await killSupervisor(first);
      await until("the embedded postmaster exits", () => !processAlive(postmaster), 5_000);
      second = await startStack({ home: first.home });
      expect(second.output()).not.toContain("adopted from the stack that was here before");
      await serves(second, "after-the-kill");
    } finally {
      await second?.stop();
      await first.stop(); // removes the temp state dir (its supervisor is long gone)
    }
  }, 180_000);

  it("a postmaster left with no watcher (an older build) is adopted by the next start", async () => {
    const first = await startStack();
    let second: Stack | undefined;
    try {
      const watcher = watcherOf(first.home);
      expect(watcher, "the supervisor's PostgreSQL watcher").toBeDefined();
      // The watcher gone first (as if the supervisor never had one); its supervisor restarts it after 1 s.
      process.kill(watcher as number, "SIGKILL");
      const { postmaster } = await killSupervisor(first);
      expect(processAlive(postmaster), "the postmaster outlived its supervisor").toBe(true);
      second = await startStack({ home: first.home });
      expect(second.output()).toContain("adopted from the stack that was here before");
      expect(postmasterOf(first.home)).toBe(postmaster);
      await serves(second, "adopted");
    } finally {
      await second?.stop();
      await first.stop();
    }
  }, 180_000);
});
