// Fuzzing the running services (a real stack, the recorder shell): the
// corpus and a bounded number of random inputs to the gateway's /v1/hook on
// hook.sock and to POST /exec, and random bytes to the executor's Execute
// RPC. Nothing crashes (same pids, /health 200 after), nothing answers 5xx,
// malformed input is a deny / 400 / 413, and nothing tier 4 is executed.
import { request } from "node:http";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { credentials, Metadata, status, type ServiceError } from "@grpc/grpc-js";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ExecutorServiceClient } from "../../proto/gen/agent_sudo/v1/executor_pb.js";
import { recorderShell, startStack, type Stack } from "../support/stack.js";
import { anyExecBody, anyHookInput, corpusBytes, expectedVerdict, loadCorpus } from "./properties.js";

const SEED = 4_400_044;
const root = process.getuid?.() === 0;

function post(
  opts: { socketPath?: string; port?: number; path: string; token?: string },
  body: Buffer,
): Promise<{ status: number; body: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        ...(opts.socketPath ? { socketPath: opts.socketPath } : { host: "127.0.0.1", port: opts.port }),
        path: opts.path,
        method: "POST",
        agent: false,
        headers: {
          "content-type": "application/json",
          "content-length": body.length,
          ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          let parsed: Record<string, unknown> = {};
          try {
            parsed = text ? (JSON.parse(text) as Record<string, unknown>) : {};
          } catch {
            parsed = { raw: text };
          }
          resolve({ status: res.statusCode ?? 0, body: parsed });
        });
      },
    );
    req.setTimeout(20_000, () => req.destroy(new Error("no answer in 20 s")));
    req.on("error", reject);
    req.end(body);
  });
}

const decisionOf = (a: { status: number; body: Record<string, unknown> }) =>
  a.status === 204
    ? "no-opinion"
    : ((a.body.hookSpecificOutput as { permissionDecision?: string } | undefined)?.permissionDecision ?? `status ${a.status}`);

describe.skipIf(!root)("fuzzing the running services", () => {
  let stack: Stack;
  let dir: string;
  let recorded: string;
  let pidsBefore: Record<string, number | null>;
  const hookSock = () => join(stack.home, "run", "hook.sock");
  const tier4 = loadCorpus("hook-input.jsonl")
    .filter((e) => /catastrophic/.test(e.note))
    .map((e) => (e.json as { tool_input: { command: string } }).tool_input.command);

  beforeAll(async () => {
    dir = mkdtempSync("/tmp/agent-sudo-fuzz-");
    const rec = recorderShell(dir);
    recorded = rec.log;
    stack = await startStack({
      env: {
        AGENT_SUDO_SHELL: rec.shell,
        AGENT_SUDO_BREAKER_TRIP_ON_TIER4: "0",
        AGENT_SUDO_BREAKER_MAX_REQUESTS_PER_MIN: "100000",
        AGENT_SUDO_LOG_LEVEL: "warn",
      },
    });
    pidsBefore = stack.pids();
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("/v1/hook on hook.sock: the corpus gets the expected answers", async () => {
    const got: string[] = [];
    for (const entry of loadCorpus("hook-input.jsonl"))
      got.push(`${entry.note}: ${decisionOf(await post({ socketPath: hookSock(), path: "/v1/hook" }, corpusBytes(entry)))}`);
    expect(got).toEqual(loadCorpus("hook-input.jsonl").map((e) => `${e.note}: ${e.expect}`));
  }, 60_000);

  it("/v1/hook on hook.sock: random input answers allow/deny/no-opinion, malformed input is denied", async () => {
    await fc.assert(
      fc.asyncProperty(anyHookInput, async (raw) => {
        const a = await post({ socketPath: hookSock(), path: "/v1/hook" }, raw);
        const d = decisionOf(a);
        expect(["allow", "deny", "no-opinion"]).toContain(d);
        let parses = true;
        try {
          if (raw[0] === 0xef && raw[1] === 0xbb && raw[2] === 0xbf) throw new Error("bom");
          const v = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(raw)) as unknown;
          parses =
            typeof v === "object" &&
            v !== null &&
            !Array.isArray(v) &&
            (v as { hook_event_name?: unknown }).hook_event_name === "PreToolUse";
        } catch {
          parses = false;
        }
        if (!parses) expect(d).toBe("deny");
      }),
      { seed: SEED, numRuns: 150 },
    );
  }, 120_000);

  it("POST /exec: the corpus gets 400/413 for what the parser refuses, never a 5xx", async () => {
    for (const entry of loadCorpus("exec-body.jsonl")) {
      const a = await post({ port: stack.port, path: "/exec", token: stack.token }, corpusBytes(entry));
      const want = entry.expect === "BAD_REQUEST" ? [400] : entry.expect === "TOO_LARGE" ? [413] : [200, 400, 403];
      expect(want, `${entry.note}: ${a.status} ${JSON.stringify(a.body).slice(0, 200)}`).toContain(a.status);
    }
  }, 120_000);

  it("POST /exec: random bodies answer what the model says, never a 5xx", async () => {
    await fc.assert(
      fc.asyncProperty(anyExecBody, async (raw) => {
        const a = await post({ port: stack.port, path: "/exec", token: stack.token }, raw);
        const want = expectedVerdict(raw);
        if (want === "BAD_REQUEST") expect(a.status).toBe(400);
        else if (want === "TOO_LARGE") expect(a.status).toBe(413);
        else expect([200, 400, 403, 429]).toContain(a.status);
      }),
      { seed: SEED, numRuns: 150 },
    );
  }, 120_000);

  it("the executor's Execute RPC: random bytes are never executed and never crash it", async () => {
    const client = new ExecutorServiceClient(`unix://${join(stack.home, "run", "executor.sock")}`, credentials.createInsecure());
    try {
      await fc.assert(
        fc.asyncProperty(fc.uint8Array({ maxLength: 600 }), async (bytes) => {
          const err = await new Promise<ServiceError | null>((resolve) =>
            client.makeUnaryRequest(
              "/agent_sudo.v1.ExecutorService/Execute",
              (b: Buffer) => b,
              (b: Buffer) => b,
              Buffer.from(bytes),
              new Metadata(),
              { deadline: Date.now() + 10_000 },
              (e) => resolve(e),
            ),
          );
          expect(err, "random bytes were executed").not.toBeNull();
          expect([status.INVALID_ARGUMENT, status.PERMISSION_DENIED, status.INTERNAL]).toContain(err?.code);
        }),
        { seed: SEED, numRuns: 300 },
      );
    } finally {
      client.close();
    }
  }, 120_000);

  it("afterwards: no service restarted, /health is 200, nothing tier 4 was executed", async () => {
    expect(stack.pids()).toEqual(pidsBefore);
    expect((await stack.health()).status).toBe(200);
    const lines = readFileSync(recorded, "utf8").split("\n");
    for (const c of [...tier4, "rm -rf /"]) expect(lines).not.toContain(c);
  });
});
