// Tiers 2 and 3 through the whole stack with the real policy engine: an
// edit runs once in the mirror, its judged diff is committed and rolls
// back; a tier-3 write is committed from its diff only when its run
// succeeds; a tier-3 live action is auto-verified, a failed verify rolls
// back; each failure counts toward the breaker, which disarms after 3.
// The stack runs inside a throwaway root (test/support/rooted-stack.ts): the
// files in /etc it changes are the root's, never this machine's; `systemctl`
// is asked about a unit that does not exist.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { missing } from "../support/needs.js";
import { startRootedStack, type RootedStack } from "../support/rooted-stack.js";

const isRoot = process.getuid?.() === 0;
const skipReason = !isRoot ? "skipped: needs root (the throwaway root and the stack's executor)" : missing("unshare", "nsenter", "perl");

describe.skipIf(skipReason)(`tiers 2 and 3 end to end${skipReason ? ` — ${skipReason}` : ""}`, () => {
  let stack: RootedStack;
  const work = "/tmp/agent-sudo-tiers";
  const etcFile = "/etc/agent-sudo-e2e.conf";
  const write = async (path: string, text: string) => expect((await stack.sh(`printf '%s' '${text}' > ${path}`)).code).toBe(0);
  beforeAll(async () => {
    // server-01: the concurrence leaves restarts of unknown units to a person on primary.
    stack = await startRootedStack({ env: { AGENT_SUDO_BREAKER_TRIP_ON_TIER4: "0", AGENT_SUDO_HOST_ID: "server-01" } });
    expect((await stack.sh(`mkdir -p ${work}`)).code).toBe(0);
  }, 180_000);
  afterAll(async () => {
    await stack?.stop();
  });

  it("tier 2: one run in the mirror, its judged diff committed; rollback restores the file", async () => {
    const file = `${work}/config.ini`;
    await write(file, "mode=old\n");
    const res = await stack.exec({ command: `sed -i s/old/new/ ${file}` });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.tier).toBe(2);
    expect(await stack.read(file)).toBe("mode=new\n");
    const undoId = res.body.undo_id as string;
    expect(undoId).toMatch(/^[0-9a-f-]{36}$/);
    const out = await stack.cli(["rollback", undoId]);
    expect(out.stdout).toContain(`restored ${file}`);
    expect(await stack.read(file)).toBe("mode=old\n");
  });

  it("tier 3 that is not a live action (a write to /etc): run in the mirror, its judged diff committed, verify_passed", async () => {
    await stack.sh(`rm -f ${etcFile}`);
    const res = await stack.exec({ command: `touch ${etcFile}` });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ tier: 3, exit_code: 0, committed: 1, verify_passed: true, rolled_back: false });
    expect(await stack.read(etcFile)).toBe("");
  });

  it("tier 3 answers 503 while the concurrence is down (a live action, and a diff it must judge), and tier 0 goes on", async () => {
    const pid = (await stack.pids()).concurrence as number;
    expect((await stack.sh(`kill -9 ${pid}`)).code).toBe(0);
    const live = await stack.exec({ command: "systemctl restart e2e-missing-unit-zz9" });
    expect(live.status, JSON.stringify(live.body)).toBe(503);
    expect(live.body).toMatchObject({ error: "unavailable", component: "concurrence" });
    await write(etcFile, "setting=1\n");
    // The supervisor restarts it within about a second (a Node-alone run once found it back here and got 200):
    // down again for the diff.
    const again = (await stack.pids()).concurrence;
    if (again && again !== pid) expect((await stack.sh(`kill -9 ${again}`)).code).toBe(0);
    const diff = await stack.exec({ command: `sed -i s/1/2/ ${etcFile}` });
    expect(diff.status, JSON.stringify(diff.body)).toBe(503);
    expect(diff.body).toMatchObject({ error: "unavailable", component: "concurrence" });
    expect(await stack.read(etcFile)).toBe("setting=1\n");
    expect((await stack.exec({ command: "echo tier-0-still" })).status).toBe(200);
    await stack.waitHealthy(15_000);
  });

  it("tier 3: a live action beside a file change is refused (send them as two requests); nothing runs", async () => {
    await write(etcFile, "setting=1\n");
    const res = await stack.exec({ command: `sed -i s/1/2/ ${etcFile} && systemctl restart e2e-missing-unit-zz9` });
    expect(res.status, JSON.stringify(res.body)).toBe(403);
    expect(String(res.body.reason)).toMatch(/send them as two requests/);
    expect(await stack.read(etcFile)).toBe("setting=1\n");
  });

  it("tier 3: a failed run commits nothing, a failed verify of a live action rolls back; three disarm the breaker to read-only", async () => {
    for (let i = 1; i <= 2; i++) {
      await write(etcFile, "setting=1\n");
      const res = await stack.exec({ command: `sed -i s/1/${i + 1}/ ${etcFile}; false` });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({ tier: 3, exit_code: 1, committed: 0, verify_passed: false });
      expect(String(res.body.not_committed)).toMatch(/committed only when its run succeeds/);
      expect(await stack.read(etcFile)).toBe("setting=1\n");
    }
    const live = await stack.exec({ command: "systemctl restart e2e-missing-unit-zz9" });
    expect(live.status, JSON.stringify(live.body)).toBe(200);
    expect(live.body).toMatchObject({ tier: 3, verify_passed: false, rolled_back: true });
    const refused = await stack.exec({ command: `sed -i s/1/9/ ${etcFile}` });
    expect(refused.status).toBe(403);
    expect(String(refused.body.reason)).toContain("breaker disarmed");
    expect((await stack.exec({ command: "echo still-read-only" })).status).toBe(200);

    const rearm = await stack.cli(["breaker", "rearm", "--reason", "e2e test"]);
    expect(rearm.code, rearm.stderr).toBe(0);
    const again = await stack.exec({ command: `sed -i s/1/9/ ${etcFile}` });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(await stack.read(etcFile)).toBe("setting=9\n");
  });
});
