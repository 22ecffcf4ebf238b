// Credential literals on a command line (issue "Classifier round 3", item 4):
// the hook does not allow such a command (it says how to use env_secrets
// instead, without echoing the literal), and no literal reaches the state
// dir — the audit spool, PostgreSQL's files, the logs, the executor's
// journal — for the hook path or for /exec. Commands here print text only.
import { readFileSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { filesContaining } from "../support/files-containing.js";
import { startStack, type Stack } from "../support/stack.js";

const root = process.getuid?.() === 0;
// Built at run time so that no literal sits in this file's own text either.
const GH = ["ghp", "_", "Zq7Xw2Lk9Pm4Rt6Yv8Bn1Cd3Fg5Hj0Ks2Ld"].join("");
const BEARER = ["eyJhbGciOiJIUzI1NiJ9", ".", "c2VjcmV0LXBheWxvYWQ", ".", "Qk3mZ8"].join("");
const PASS = ["hunter", "2", "-correct-horse"].join("");

function hook(socketPath: string, command: string): Promise<{ status: number; body: string }> {
  const payload = JSON.stringify({
    hook_event_name: "PreToolUse",
    session_id: "s",
    tool_name: "Bash",
    tool_input: { command },
    cwd: "/home/dev/project",
  });
  return new Promise((resolve, reject) => {
    const req = request({ socketPath, path: "/v1/hook", method: "POST", headers: { "content-type": "application/json" } }, (res) => {
      let body = "";
      res.on("data", (c: Buffer) => (body += c.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end(payload);
  });
}

describe.skipIf(!root)("credential literals on a command line", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ env: { AGENT_SUDO_HOOK_MODE: "routed" } });
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
  });

  it("the hook allows none of them and says how to pass the secret instead, without the literal", async () => {
    for (const command of [
      `echo ${GH}`,
      `curl -fsS -H 'Authorization: Bearer ${BEARER}' http://127.0.0.1:9/`,
      `PGPASSWORD=${PASS} psql -h 127.0.0.1 -c 'select 1'`,
      `git clone https://dev:${PASS}@127.0.0.1:9/r.git`,
    ]) {
      const r = await hook(join(stack.home, "run", "hook.sock"), command);
      expect(r.status, r.body).toBe(200);
      const out = (JSON.parse(r.body) as { hookSpecificOutput?: { permissionDecision?: string; permissionDecisionReason?: string } })
        .hookSpecificOutput;
      expect(out?.permissionDecision, command).toBe("deny");
      expect(out?.permissionDecisionReason).toMatch(/inline-credential.*env_secrets/);
      for (const secret of [GH, BEARER, PASS]) expect(out?.permissionDecisionReason).not.toContain(secret);
    }
  });

  it("/exec runs a command carrying one, but its audit rows say [redacted:…]", async () => {
    const res = await stack.exec({ command: `echo token ${GH} done` });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.output).toBe(`token ${GH} done\n`);
    const url = readFileSync(join(stack.home, "database-url"), "utf8").trim();
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    try {
      const t0 = Date.now();
      let rows: { command: string }[] = [];
      while (Date.now() - t0 < 15_000) {
        rows = (await db.query<{ command: string }>("SELECT command FROM command_audit WHERE request_id = $1", [res.body.request_id])).rows;
        if (rows.length >= 2) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(rows.map((r) => r.command)).toEqual(["echo token [redacted:github-token] done", "echo token [redacted:github-token] done"]);
    } finally {
      await db.end();
    }
  });

  it("no literal is anywhere in the state dir: spool, PostgreSQL's files, logs, the executor's journal", async () => {
    await new Promise((r) => setTimeout(r, 2000));
    for (const secret of [GH, BEARER, PASS]) expect(filesContaining(stack.home, secret), secret.slice(0, 6)).toEqual([]);
    expect(filesContaining(stack.home, "[redacted:github-token]").length).toBeGreaterThan(0);
  });
});
