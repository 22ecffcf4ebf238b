// Per-rule attributes through the whole stack with a policy that has them:
//   network   a tier-0 curl to a listener on the host's loopback reaches it
//             only when every part of the command was decided by a rule
//             flagged `network` (the executor has no network of its own);
//   verify    a tier-3 rule's own verify command decides verify_passed;
//   redeploy  a failed verify POSTs the rule's webhook (a loopback listener)
//             and rolls the files back.
// Everything here is harmless if judged wrongly: curl to 127.0.0.1 and files
// with test names in /tmp.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { missing, named } from "../support/needs.js";
import { copyPolicies, startStack, type Stack } from "../support/stack.js";

const root = process.getuid?.() === 0;
// The network cases need a plain network client the policy can name: the base
// system has none (bash's /dev/tcp is a redirection, perl and node are
// interpreters, a script by path is judged as a script), so they need curl.
// Without it they would pass for the wrong reason (curl: not found), so they skip.
const noCurl = missing("curl");

interface Hit {
  path: string;
  auth: string;
  body: string;
}

async function listen(): Promise<{ server: Server; port: number; hits: Hit[] }> {
  const hits: Hit[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      hits.push({ path: req.url ?? "", auth: String(req.headers.authorization ?? ""), body: Buffer.concat(chunks).toString("utf8") });
      res.end("reached-the-host\n");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const addr = server.address();
  return { server, port: typeof addr === "object" && addr ? addr.port : 0, hits };
}

describe.skipIf(!root)("rule attributes end to end (network, verify, redeploy)", () => {
  let stack: Stack;
  let policies: string;
  let web: Awaited<ReturnType<typeof listen>>;
  /** Request ids of earlier cases the training-signal case reads back. */
  const ids: Record<string, string> = {};
  const flag = `/tmp/agent-sudo-attrs-ok-${process.pid}`;
  // The test rule makes these a tier-3 live action. A live action with no allow-list of its own takes names only
  // (host-run.ts): `touch NAME`, run in a directory of this suite under /var/lib, removed after it.
  const liveDir = `/var/lib/agent-sudo-attrs-${process.pid}`;
  const liveName = (n: string) => `agent-sudo-attrs-live-${process.pid}-${n}`;
  const etcFile = (n: string) => `${liveDir}/${liveName(n)}`;

  beforeAll(async () => {
    mkdirSync(liveDir, { recursive: true });
    web = await listen();
    const table = [
      "## Rules: test attributes",
      "",
      "| id | patterns | tier | class | hosts | state | attrs | rationale |",
      "|---|---|---|---|---|---|---|---|",
      `| test-net-fetch | \`curl -fsS http://127.0.0.1:${web.port}/net\` | 0 | read | | active | network | test: granted network |`,
      `| test-nonet-fetch | \`curl -fsS http://127.0.0.1:${web.port}/nonet\` | 0 | read | | active | - | test: no network |`,
      `| test-t3-touch | \`touch agent-sudo-attrs-live-*\` | 3 | live-service | | active | verify=\`test -e ${flag}\` redeploy=\`http://127.0.0.1:${web.port}/redeploy\` | test: verify and redeploy |`,
      "",
      "",
    ].join("\n");
    policies = copyPolicies("agent-sudo-attrs-policies-", { "SUDO.md": table });
    stack = await startStack({
      env: {
        AGENT_SUDO_POLICIES: policies,
        AGENT_SUDO_HOST_ID: "server-01",
        AGENT_SUDO_BREAKER_TRIP_ON_TIER4: "0",
        AGENT_SUDO_REDEPLOY_TOKEN: "redeploy-secret",
      },
    });
  });
  afterAll(async () => {
    await stack?.stop();
    web?.server.close();
    rmSync(policies, { recursive: true, force: true });
    rmSync(flag, { force: true });
    rmSync(liveDir, { recursive: true, force: true });
  });

  it.skipIf(!!noCurl)(named("network: a command whose rule grants it reaches the host's loopback", noCurl), async () => {
    const res = await stack.exec({ command: `curl -fsS http://127.0.0.1:${web.port}/net` });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ tier: 0, exit_code: 0, output: "reached-the-host\n" });
    expect(web.hits.some((h) => h.path === "/net")).toBe(true);
  });

  it.skipIf(!!noCurl)(named("network: the same program under a rule without the flag has none", noCurl), async () => {
    const res = await stack.exec({ command: `curl -fsS http://127.0.0.1:${web.port}/nonet` });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.exit_code).toBe(7); // curl ran and could not connect (not 127: curl missing)
    expect(web.hits.some((h) => h.path === "/nonet")).toBe(false);
  });

  it.skipIf(!!noCurl)(named("network: one part without the flag takes it from the whole command", noCurl), async () => {
    const before = web.hits.length;
    const res = await stack.exec({ command: `curl -fsS http://127.0.0.1:${web.port}/net; curl -fsS http://127.0.0.1:${web.port}/nonet` });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.output).toBe("");
    expect(web.hits.length).toBe(before);
  });

  it("verify: the rule's own verify command passes → verify_passed, no redeploy", async () => {
    writeFileSync(flag, "");
    const res = await stack.exec({ command: `touch ${liveName("pass")}`, cwd: liveDir });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ tier: 3, exit_code: 0, verify_passed: true, rolled_back: false });
    expect(res.body.redeployed).toBeUndefined();
    expect(existsSync(etcFile("pass"))).toBe(true);
    expect(web.hits.some((h) => h.path === "/redeploy")).toBe(false);
  });

  it("verify fails → files rolled back and the rule's redeploy webhook called with the token", async () => {
    rmSync(flag, { force: true });
    const res = await stack.exec({ command: `touch ${liveName("fail")}`, cwd: liveDir, timeout: 60 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ tier: 3, exit_code: 0, verify_passed: false, rolled_back: true, redeployed: true });
    expect(existsSync(etcFile("fail"))).toBe(false);
    const hit = web.hits.find((h) => h.path === "/redeploy");
    expect(hit?.auth).toBe("Bearer redeploy-secret");
    expect(JSON.parse(hit?.body ?? "{}")).toMatchObject({
      event: "agent-sudo.verify_failed",
      request_id: res.body.request_id,
      rule: "test-t3-touch",
      host: "server-01",
    });
    ids.failed = String(res.body.request_id);
  }, 90_000);

  // Seed CA D8: the audit is the training data. What the gateway itself wrote with each outcome, read back through `agent-sudo audit export`.
  it("training_signal in the export: positive for a clean run, negative for a failed verify, neutral for a refusal and a failing run", async () => {
    const clean = await stack.exec({ command: "id -u" });
    const failing = await stack.exec({ command: "ls /nonexistent-agent-sudo-signal" });
    const refused = await stack.exec({ command: "rm -rf /" });
    expect([clean.status, failing.status, refused.status]).toEqual([200, 200, 403]);
    expect(failing.body.exit_code).not.toBe(0);
    const want = {
      [String(clean.body.request_id)]: "positive",
      [String(failing.body.request_id)]: "neutral",
      [String(refused.body.request_id)]: "neutral",
      ...(ids.failed ? { [ids.failed]: "negative" } : {}),
    };
    expect(Object.keys(want)).toHaveLength(4); // the failed-verify case above ran first
    let got: Record<string, unknown> = {};
    for (const t0 = Date.now(); Date.now() - t0 < 30_000; await new Promise((r) => setTimeout(r, 300))) {
      const r = spawnSync(process.execPath, [join(import.meta.dirname, "..", "..", "dist", "cli", "main.js"), "audit", "export"], {
        env: stack.cliEnv,
        encoding: "utf8",
      });
      expect(r.status, r.stderr).toBe(0);
      const rows = r.stdout
        .trim()
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { request_id: string; training_signal: unknown });
      got = Object.fromEntries(rows.filter((row) => row.request_id in want).map((row) => [row.request_id, row.training_signal]));
      if (Object.keys(want).every((id) => got[id] !== undefined && got[id] !== null)) break;
    }
    expect(got).toEqual(want);
  }, 60_000);
});
