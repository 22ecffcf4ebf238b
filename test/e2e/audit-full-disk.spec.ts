// The audit spool on a full disk: execution stays fail-closed (503), a
// refusal is still answered 403 but says `audited: false` (it is not on the
// record), and /health turns 503 "degraded" naming why; once there is room
// again, the next record is written and /health is ok. The spool directory
// is a 512 KiB tmpfs of this test's own, filled by the test. The spool's
// reserve is off here (it would write the refusal: test/chaos/spool-space.spec.ts).
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { missing, named } from "../support/needs.js";
import { copyPolicies, startStack, type Stack } from "../support/stack.js";

const root = process.getuid?.() === 0;

describe.skipIf(!root)("the audit spool on a full disk", () => {
  let stack: Stack;
  let home: string;
  let spool: string;
  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), "agent-sudo-fulldisk-"));
    spool = join(home, "state", "gateway", "audit-spool");
    mkdirSync(spool, { recursive: true });
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=512k,mode=0700", "agent-sudo-test-spool", spool]);
    writeFileSync(join(home, "config.json"), JSON.stringify({ audit: { spool_reserve_bytes: 0 } }));
    stack = await startStack({ home, env: { AGENT_SUDO_BREAKER_TRIP_ON_TIER4: "0" } });
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
    spawnSync("umount", ["-l", spool]);
    rmSync(home, { recursive: true, force: true });
  });

  it("refuses to execute, answers refusals with audited:false, and /health says degraded until there is room again", async () => {
    expect((await stack.exec({ command: "echo before" })).status).toBe(200);
    // Fill what is left of the spool's file system.
    spawnSync("dd", ["if=/dev/zero", `of=${join(spool, "fill")}`, "bs=4096"], { stdio: "ignore" });

    // The segment's last page may still hold a record or two: the first refusal comes within a few.
    let run = await stack.exec({ command: "echo while-full" });
    for (let i = 0; i < 20 && run.status === 200; i++) run = await stack.exec({ command: `echo while-full-${i}` });
    expect(run.status, JSON.stringify(run.body)).toBe(503);
    expect(run.body).toMatchObject({ error: "unavailable", component: "audit" });
    const refused = await stack.exec({ command: "rm -rf /" });
    expect(refused.status).toBe(403);
    expect(refused.body.audited).toBe(false);

    const h = await stack.health();
    expect(h.status).toBe(503);
    expect(h.body.status).toBe("degraded");
    const trail = (h.body.audit as { trail: { writable: boolean; unaudited_refusals: number; last_failure?: unknown } }).trail;
    expect(trail.writable).toBe(false);
    expect(trail.unaudited_refusals).toBeGreaterThanOrEqual(1);
    // /health (no token) says what is failing, never the cause (review 36): the cause is in the gateway's log.
    expect(trail.last_failure).toBe("see the gateway log");
    expect(readFileSync(join(stack.home, "logs", "gateway.log"), "utf8")).toMatch(/ENOSPC|no space/i);

    rmSync(join(spool, "fill"));
    const again = await stack.exec({ command: "echo room-again" });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    const ok = await stack.health();
    expect(ok.status).toBe(200);
    expect((ok.body.audit as { trail: { writable: boolean } }).trail.writable).toBe(true);
  }, 60_000);
});

// The run in the mirror is the real run: with a rule flagged `network` it
// reaches the world from there. So its intent is on record before it starts,
// and a spool that cannot be written refuses it before anything leaves.
const noCurl = missing("curl");
describe.skipIf(!root || !!noCurl)(named("the audit spool on a full disk, a tier-2 command whose rule grants network", noCurl), () => {
  let stack: Stack;
  let home: string;
  let spool: string;
  let policies: string;
  let web: Server;
  const hits: string[] = [];
  beforeAll(async () => {
    web = createServer((req, res) => {
      hits.push(req.url ?? "");
      res.end("fetched\n");
    });
    await new Promise<void>((r) => web.listen(0, "127.0.0.1", r));
    const port = (web.address() as { port: number }).port;
    const table = [
      "## Rules: test network from the mirror",
      "",
      "| id | patterns | tier | class | hosts | state | attrs | rationale |",
      "|---|---|---|---|---|---|---|---|",
      `| test-mirror-fetch | \`curl -fsS -o /tmp/agent-sudo-fulldisk-fetched-* http://127.0.0.1:${port}/*\` | 2 | reproducible | | active | network | test: reaches the host's loopback from the mirror |`,
      "",
      "",
    ].join("\n");
    policies = copyPolicies("agent-sudo-fulldisk-policies-", { "SUDO.md": table });
    home = mkdtempSync(join(tmpdir(), "agent-sudo-fulldisk-net-"));
    spool = join(home, "state", "gateway", "audit-spool");
    mkdirSync(spool, { recursive: true });
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=512k,mode=0700", "agent-sudo-test-spool", spool]);
    writeFileSync(join(home, "config.json"), JSON.stringify({ audit: { spool_reserve_bytes: 0 } }));
    stack = await startStack({
      home,
      env: { AGENT_SUDO_POLICIES: policies, AGENT_SUDO_HOST_ID: "server-01", AGENT_SUDO_BREAKER_TRIP_ON_TIER4: "0" },
    });
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
    spawnSync("umount", ["-l", spool]);
    rmSync(home, { recursive: true, force: true });
    rmSync(policies, { recursive: true, force: true });
    web?.close();
  });

  it("refuses it (503) before its run: nothing reaches the listener; with room again it runs", async () => {
    const fetch = (n: string) =>
      stack.exec({
        command: `curl -fsS -o /tmp/agent-sudo-fulldisk-fetched-${process.pid} http://127.0.0.1:${(web.address() as { port: number }).port}/${n}`,
      });
    // Control: the rule does reach the listener from the mirror.
    const before = await fetch("control");
    expect(before.status, JSON.stringify(before.body)).toBe(200);
    expect(before.body.tier).toBe(2);
    expect(hits).toContain("/control");
    spawnSync("dd", ["if=/dev/zero", `of=${join(spool, "fill")}`, "bs=4096"], { stdio: "ignore" });
    let filler = await stack.exec({ command: "echo while-full" });
    for (let i = 0; i < 20 && filler.status === 200; i++) filler = await stack.exec({ command: `echo while-full-${i}` });
    expect(filler.status).toBe(503);
    const res = await fetch("while-full");
    expect(res.status, JSON.stringify(res.body)).toBe(503);
    expect(res.body).toMatchObject({ error: "unavailable", component: "audit" });
    expect(hits).not.toContain("/while-full");
    rmSync(join(spool, "fill"));
    const again = await fetch("room-again");
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(hits).toContain("/room-again");
    rmSync(`/tmp/agent-sudo-fulldisk-fetched-${process.pid}`, { force: true });
  }, 90_000);
});
