// Tier 3 with the timeshift snapshot driver, end to end, against a stand-in
// `timeshift` on PATH (not the real tool): a snapshot is taken before a
// tier-3 change is committed; when timeshift fails — even with its exit-0
// quirk — nothing is committed and /exec answers 503. The stack runs inside
// a throwaway root: the /etc file it writes is the root's.
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { missing } from "../support/needs.js";
import { startRootedStack, type RootedStack } from "../support/rooted-stack.js";
import { makeStandIns, type StandIns } from "./standins.js";

const isRoot = process.getuid?.() === 0;
const skipReason = !isRoot ? "skipped: needs root (the throwaway root and the stack's executor)" : missing("unshare", "nsenter", "perl");

describe.skipIf(skipReason)(`tier-3 snapshot with a stand-in timeshift${skipReason ? ` — ${skipReason}` : ""}`, () => {
  let stack: RootedStack;
  let standins: StandIns;
  const file = "/etc/agent-sudo-snapshot-e2e";
  const exists = async () => (await stack.sh(`test -e ${file}`)).code === 0;
  beforeAll(async () => {
    // Made before the root starts, so the root's /tmp shows it.
    standins = makeStandIns();
    const env = Object.fromEntries(Object.entries(standins.env).filter((e): e is [string, string] => typeof e[1] === "string"));
    stack = await startRootedStack({
      env: { ...env, AGENT_SUDO_SNAPSHOT: "timeshift", AGENT_SUDO_HOST_ID: "server-01", AGENT_SUDO_BREAKER_TRIP_ON_TIER4: "0" },
    });
  }, 180_000);
  afterAll(async () => {
    await stack?.stop();
    if (standins) rmSync(standins.dir, { recursive: true, force: true });
  });

  it("takes a snapshot before a tier-3 change is committed and reports it", async () => {
    expect((await stack.sh(`echo ok > ${standins.dir}/mode`)).code).toBe(0);
    const res = await stack.exec({ command: `touch ${file}` });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ tier: 3, committed: 1 });
    expect(String(res.body.snapshot)).toMatch(/^\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{2}$/);
    expect(await exists()).toBe(true);
  });

  it("refuses with 503 and commits nothing when the snapshot fails despite exit 0", async () => {
    expect((await stack.sh(`rm -f ${file}; echo quirk > ${standins.dir}/mode`)).code).toBe(0);
    const res = await stack.exec({ command: `touch ${file}` });
    expect(res.status, JSON.stringify(res.body)).toBe(503);
    expect(res.body).toMatchObject({ error: "unavailable", component: "executor" });
    expect(await exists()).toBe(false);
  });
});
