// Tier 3 with the timeshift snapshot driver, end to end, against a stand-in
// `timeshift` on PATH (not the real tool): a snapshot is taken before the
// command runs; when timeshift fails — even with its exit-0 quirk — nothing
// runs and /exec answers 503.
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "../support/stack.js";
import { makeStandIns, type StandIns } from "./standins.js";

const root = process.getuid?.() === 0;

describe.skipIf(!root)("tier-3 snapshot with a stand-in timeshift", () => {
  let stack: Stack;
  let standins: StandIns;
  const file = `/etc/agent-sudo-snapshot-e2e-${process.pid}`;
  beforeAll(async () => {
    standins = makeStandIns();
    const env = Object.fromEntries(Object.entries(standins.env).filter((e): e is [string, string] => typeof e[1] === "string"));
    stack = await startStack({ env: { ...env, AGENT_SUDO_SNAPSHOT: "timeshift", AGENT_SUDO_HOST_ID: "server-01", AGENT_SUDO_BREAKER_TRIP_ON_TIER4: "0" } });
  });
  afterAll(async () => {
    await stack?.stop();
    rmSync(file, { force: true });
  });

  it("takes a snapshot before a tier-3 command and reports it", async () => {
    writeFileSync(join(standins.dir, "mode"), "ok\n");
    const res = await stack.exec({ command: `touch ${file}` });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.tier).toBe(3);
    expect(String(res.body.snapshot)).toMatch(/^\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{2}$/);
    expect(existsSync(file)).toBe(true);
  });

  it("refuses with 503 and runs nothing when the snapshot fails despite exit 0", async () => {
    rmSync(file, { force: true });
    writeFileSync(join(standins.dir, "mode"), "quirk\n");
    const res = await stack.exec({ command: `touch ${file}` });
    expect(res.status, JSON.stringify(res.body)).toBe(503);
    expect(res.body).toMatchObject({ error: "unavailable", component: "executor" });
    expect(existsSync(file)).toBe(false);
  });
});
