// One `agent-sudo start` per state dir: a second one on the same dir says who
// holds it and exits non-zero before touching anything — the first stack
// keeps serving, its journal chain stays intact, its supervisor.json and
// sockets are its own. A lock left by a supervisor that is gone is stale.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliMain, freePort, startStack, type Stack } from "../support/stack.js";

const root = process.getuid?.() === 0;

describe.skipIf(!root)("the state dir lock", () => {
  let stack: Stack;
  // The other tests' state dirs: removed once their starts have exited (spawnSync) or been stopped.
  const homes: string[] = [];
  beforeAll(async () => {
    stack = await startStack();
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
    for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
  });

  it("a second start on the same state dir exits 1, names the holder, and changes nothing", async () => {
    const before = readFileSync(join(stack.home, "run", "supervisor.json"), "utf8");
    const port = await freePort();
    const second = spawnSync(process.execPath, [cliMain, "start"], {
      env: { ...process.env, AGENT_SUDO_HOME: stack.home, AGENT_SUDO_PORT: String(port) },
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(second.status).toBe(1);
    const lockPid = Number(readFileSync(join(stack.home, "supervisor.lock"), "utf8").split(" ")[0]);
    expect(second.stderr).toContain(`the state dir ${stack.home} is in use by agent-sudo start, pid ${lockPid}`);
    expect(second.stdout).not.toContain("ready");
    expect(readFileSync(join(stack.home, "run", "supervisor.json"), "utf8")).toBe(before);
    // The first stack is untouched: it serves, and its journal's chain holds.
    const res = await stack.exec({ command: "echo still-mine" });
    expect(res.status).toBe(200);
    const verify = spawnSync(process.execPath, [cliMain, "audit", "verify-journal"], { env: stack.cliEnv, encoding: "utf8" });
    expect(verify.status, verify.stdout + verify.stderr).toBe(0);
  });

  it("a start on another state dir whose port another stack holds never prints ready (that stack's /health is not its own), exits 1 and stops its services", async () => {
    const home = mkdtempSync(join(tmpdir(), "agent-sudo-port-taken-"));
    homes.push(home);
    const second = spawnSync(process.execPath, [cliMain, "start"], {
      env: { ...process.env, AGENT_SUDO_HOME: home, AGENT_SUDO_PORT: String(stack.port) },
      encoding: "utf8",
      timeout: 100_000,
    });
    expect(second.stdout).not.toContain("ready");
    expect(second.status, second.stdout + second.stderr).toBe(1);
    expect(second.stdout).toContain("services did not all come up");
    expect(existsSync(join(home, "supervisor.lock"))).toBe(false);
    // The first stack still serves, as itself.
    expect((await stack.exec({ command: "echo still-mine" })).status).toBe(200);
  }, 120_000);

  it("a lock whose supervisor is gone is stale: start takes it over", async () => {
    const home = mkdtempSync(join(tmpdir(), "agent-sudo-stale-lock-"));
    homes.push(home);
    // A pid that is surely not running (above the kernel's pid_max default range).
    writeFileSync(join(home, "supervisor.lock"), "4194000 2026-01-01T00:00:00.000Z\n");
    const other = await startStack({ home });
    try {
      expect(Number(readFileSync(join(home, "supervisor.lock"), "utf8").split(" ")[0])).not.toBe(4194000);
      expect((await other.exec({ command: "echo mine-now" })).status).toBe(200);
    } finally {
      await other.stop();
    }
    expect(existsSync(join(home, "supervisor.lock"))).toBe(false);
  }, 120_000);
});
