// A second executor on the same state dir, without a second supervisor (a
// deployment without `agent-sudo start`'s lock, or a person starting one by
// hand): it exits non-zero naming the executor that holds the journal, and
// touches nothing — the first one's socket stays bound, the journal is
// byte-identical, the stack serves and the chain verifies. Before: it
// unlinked the first one's socket, bound its own and appended to the same
// journal (issue 18, item 1). A lock whose executor was SIGKILLed is stale:
// the supervisor's restart takes it over.
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliMain, repoRoot, startStack, type Stack } from "../support/stack.js";
import { journalPath } from "../support/journal.js";

const root = process.getuid?.() === 0;
const sha = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(!root)("chaos: a second executor on the same state dir", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
  });

  it("exits non-zero naming the holder, and changes nothing", async () => {
    expect((await stack.exec({ command: "echo before-second" })).status).toBe(200);
    const holder = stack.pids().executor ?? 0;
    const socket = join(stack.home, "run", "executor.sock");
    const inode = statSync(socket).ino;
    const journal = journalPath(stack.home);
    const before = sha(journal);

    const second = spawn(process.execPath, [join(repoRoot, "dist", "services", "executor", "main.js")], {
      env: { ...process.env, AGENT_SUDO_HOME: stack.home },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    second.stdout.on("data", (c: Buffer) => (out += c.toString()));
    second.stderr.on("data", (c: Buffer) => (out += c.toString()));
    const code = await new Promise<number | string>((resolve) => {
      second.once("exit", (c, signal) => resolve(c ?? `signal ${signal}`));
      // Still running after this long: it took the state dir (the failure this test is for).
      setTimeout(() => {
        second.kill("SIGKILL");
        resolve("still running after 20 s");
      }, 20_000);
    });
    expect(code, out).toBe(1);
    expect(out).toContain(`is in use by executor pid ${holder}`);

    expect(statSync(socket).ino).toBe(inode);
    expect(sha(journal)).toBe(before);
    expect(stack.pids().executor).toBe(holder);
    expect((await stack.exec({ command: "echo after-second" })).status).toBe(200);
    const verify = spawnSync(process.execPath, [cliMain, "audit", "verify-journal"], { env: stack.cliEnv, encoding: "utf8" });
    expect(verify.status, verify.stdout + verify.stderr).toBe(0);
  }, 60_000);

  it("a lock whose executor was SIGKILLed is stale: the restarted executor takes it over and serves", async () => {
    // supervisor.json is rewritten as services restart: a read may catch it half written.
    const executorPid = () => {
      try {
        return stack.pids().executor ?? undefined;
      } catch {
        return undefined;
      }
    };
    const old = executorPid() ?? 0;
    process.kill(old, "SIGKILL");
    const t0 = Date.now();
    while (!(executorPid() && executorPid() !== old && (await stack.health().catch(() => ({ status: 0 }))).status === 200)) {
      if (Date.now() - t0 > 60_000) throw new Error("the executor did not come back");
      await sleep(200);
    }
    const lock = readFileSync(`${journalPath(stack.home)}.lock`, "utf8");
    expect(Number(lock.split(" ")[0])).toBe(executorPid());
    expect((await stack.exec({ command: "echo after-restart" })).status).toBe(200);
  }, 90_000);
});
