// The REAL Claude Code client (@anthropic-ai/claude-code, pinned in
// package.json) driven headless against real agent-sudo stacks, with the
// hook installed by `agent-sudo hook install` into a temporary HOME (never
// this machine's ~/.claude). The model is a STAND-IN (messages-standin.ts):
// it asks for Bash commands and records what comes back, which is exactly
// what a model would see. The client runs in a network namespace where only
// the stand-in and the gateway's port are reachable (netns-bridge.mjs).
//
// Commands that are allowed to run are harmless and act on temp dirs only;
// every command expected to be denied targets a path that does not exist
// (checked before and after). Cases: conservative mode (allow, outcomes,
// deny, no opinion, subagents, a stalled gateway and the `late` audit, project
// scope), routed mode (allow, the `agent-sudo exec` round trip), a dead
// gateway and the escape hatch, and `hook install --type http` failing closed.
import { spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HOOK, runCli } from "../hook/hook-client.js";
import { named } from "../support/needs.js";
import { freePort, startStack, type Stack } from "../support/stack.js";
import { audited, auditRecords } from "../support/audit-spool.js";
import { ClientWorld, findClient, GATEWAY_PORT } from "../support/claude-client.js";
import type { ToolResult } from "../support/messages-standin.js";

const found = findClient();
const skip = "skip" in found ? found.skip : undefined;
if (skip) console.warn(`test/client: ${skip}`);
const binary = "binary" in found ? found.binary : "";
const root = process.getuid?.() === 0;

const rand = () => randomBytes(4).toString("hex");
/** A path under /etc that does not exist: the deny cases aim there. */
function absentSystemPath(): string {
  const p = `/etc/agent-sudo-client-absent-${rand()}`;
  expect(existsSync(p)).toBe(false);
  return p;
}

/** `agent-sudo hook install ARGS` as a user would run it: HOME is the world's, cwd its project. */
async function hookInstall(world: ClientWorld, args: string[]): Promise<void> {
  const run = await runCli("hook", "hookCommand", args, { env: { PATH: process.env.PATH, HOME: world.home }, cwd: world.project });
  expect(run.code, run.stderr).toBe(0);
}

function registrations(settingsFile: string): Record<string, string[]> {
  const s = JSON.parse(readFileSync(settingsFile, "utf8")) as {
    hooks: Record<string, Array<{ matcher?: string; hooks: Array<{ command: string }> }>>;
  };
  return Object.fromEntries(
    Object.entries(s.hooks).map(([event, groups]) => [
      event,
      groups.flatMap((g) => g.hooks.map((h) => `${g.matcher ?? "*"} ${h.command}`)),
    ]),
  );
}

/**
 * Outcomes are async hooks: the client cancels one still running when the
 * session ends (seen in its debug log), so a case whose outcome is checked
 * makes one more harmless call after it.
 */
const SETTLE = { bash: "true" };

/** The first of a case's tool_results (the one a two-step case checks). */
function firstOf(results: ToolResult[]): ToolResult {
  expect(results.length, JSON.stringify(results)).toBeGreaterThanOrEqual(1);
  return results[0] as ToolResult;
}

/** The one tool_result of a single-step case (the stand-in recorded it). */
function only(results: ToolResult[]): ToolResult {
  expect(results, JSON.stringify(results)).toHaveLength(1);
  return results[0] as ToolResult;
}

describe.skipIf(skip !== undefined)(named("the real Claude Code client, conservative mode", skip), () => {
  let stack: Stack;
  let world: ClientWorld;
  const marker = `listing-marker-${rand()}`;

  beforeAll(async () => {
    stack = await startStack();
    world = new ClientWorld(binary);
    await world.start();
    writeFileSync(join(world.scratch, marker), "x");
    await hookInstall(world, ["install", "--home", stack.home]);
  });
  afterAll(async () => {
    if (stack) {
      const gw = stack.pids().gateway;
      if (gw) process.kill(gw, "SIGCONT");
    }
    await world?.close();
    await stack?.stop();
  });

  it("hook install (user scope) wrote the temp HOME's ~/.claude/settings.json: PreToolUse, PostToolUse, PostToolUseFailure on Bash, SessionStart", () => {
    const regs = registrations(join(world.home, ".claude", "settings.json"));
    const socket = `AGENT_SUDO_HOOK_SOCKET=${join(stack.home, "run", "hook.sock")}`;
    expect(regs).toEqual({
      PreToolUse: [`Bash ${socket} ${HOOK}`],
      SessionStart: [`* ${socket} ${HOOK} --session-start`],
      PostToolUse: [`Bash ${socket} ${HOOK} --post-tool-use`],
      PostToolUseFailure: [`Bash ${socket} ${HOOK} --post-tool-use`],
    });
  });

  it("allow: a read the policy enumerates runs, its output reaches the model; the SessionStart self-test reached it too; PostToolUse is audited with the decision's request id", async () => {
    const prompt = world.standin.script("allow", [{ bash: `ls ${world.scratch}` }, SETTLE]);
    const run = await world.run(prompt);
    expect(run.code, run.stderr).toBe(0);
    const result = firstOf(world.standin.resultsFor("allow"));
    expect(result.isError).toBe(false);
    expect(result.content).toContain(marker);
    const context = JSON.stringify(world.standin.requests.find((r) => JSON.stringify(r.messages).includes("agent-sudo client case allow")));
    expect(context).toContain("agent-sudo: gateway up, mode conservative");
    expect(context).toContain("self-test passed");

    const [decision] = await audited(stack.home, (r) => r.evidence.tool_use_id === result.toolUseId && r.decision_type !== "hook_outcome");
    expect(decision).toMatchObject({ decision_type: "allowed", assigned_tier: 0, matched_rule: "read-list", source: "hook" });
    const [outcome] = await audited(stack.home, (r) => r.evidence.tool_use_id === result.toolUseId && r.decision_type === "hook_outcome");
    expect(outcome).toMatchObject({
      exit_code: 0,
      assigned_tier: 0,
      evidence: { event: "PostToolUse", decision_request_id: decision?.request_id, decision: "allowed" },
    });
    expect(outcome?.duration_ms).toEqual(expect.any(Number));
  });

  it("PostToolUseFailure: a command that exits non-zero is audited with its exit code and error", async () => {
    const absent = join(world.scratch, `absent-${rand()}`);
    const prompt = world.standin.script("failure", [{ bash: `ls ${absent}` }, SETTLE]);
    await world.run(prompt);
    const result = firstOf(world.standin.resultsFor("failure"));
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/^Exit code 2/);
    const [outcome] = await audited(stack.home, (r) => r.evidence.tool_use_id === result.toolUseId && r.decision_type === "hook_outcome");
    expect(outcome).toMatchObject({ exit_code: 2, assigned_tier: 0, evidence: { event: "PostToolUseFailure", decision: "allowed" } });
    expect(String(outcome?.evidence.error)).toContain("No such file or directory");
  });

  it("deny: a tier-4 command is blocked — even with a client rule allowing it — and our reason reaches the model", async () => {
    const target = absentSystemPath();
    const prompt = world.standin.script("deny", [{ bash: `rm -rf ${target}` }]);
    const run = await world.run(prompt, { args: ["--allowedTools", "Bash(rm:*)"] });
    expect(run.code, run.stderr).toBe(0);
    const result = only(world.standin.resultsFor("deny"));
    expect(result.isError).toBe(true);
    expect(result.content).toContain("agent-sudo: refused (tier 4");
    expect(result.content).toContain(target);
    expect(existsSync(target)).toBe(false);
    const [decision] = await audited(stack.home, (r) => r.evidence.tool_use_id === result.toolUseId);
    expect(decision).toMatchObject({ decision_type: "denied", assigned_tier: 4 });
    // A denied command never ran: no outcome for it.
    expect(
      (await auditRecords(stack.home)).some((r) => r.decision_type === "hook_outcome" && r.evidence.tool_use_id === result.toolUseId),
    ).toBe(false);
  });

  it("no opinion: the client's own permissions decide — refused without a rule, run with one", async () => {
    const file = join(world.project, `no-opinion-${rand()}`);
    const refused = world.standin.script("no-opinion-refused", [{ bash: `touch ${file}` }]);
    await world.run(refused);
    const first = only(world.standin.resultsFor("no-opinion-refused"));
    expect(first.isError).toBe(true);
    expect(first.content).not.toContain("agent-sudo:");
    expect(first.content).toMatch(/needs approval|permission/i);
    expect(existsSync(file)).toBe(false);

    const allowed = world.standin.script("no-opinion-allowed", [{ bash: `touch ${file}` }, SETTLE]);
    await world.run(allowed, { args: ["--allowedTools", "Bash(touch:*)"] });
    const second = firstOf(world.standin.resultsFor("no-opinion-allowed"));
    expect(second.isError).toBe(false);
    expect(existsSync(file)).toBe(true);
    for (const r of [first, second]) {
      const [d] = await audited(stack.home, (x) => x.evidence.tool_use_id === r.toolUseId && x.decision_type !== "hook_outcome");
      expect(d).toMatchObject({ decision_type: "no_opinion", assigned_tier: 1 });
    }
    const [outcome] = await audited(stack.home, (r) => r.evidence.tool_use_id === second.toolUseId && r.decision_type === "hook_outcome");
    expect(outcome).toMatchObject({ exit_code: 0, evidence: { event: "PostToolUse", decision: "no_opinion" } });
  });

  it("subagents: the hook judges a subagent's Bash calls too (deny with our reason, allow runs)", async () => {
    const target = absentSystemPath();
    const prompt = world.standin.script("parent", [{ agent: "agent-sudo client case child", background: false }]);
    world.standin.script("child", [{ bash: `rm -rf ${target}` }, { bash: `ls ${world.scratch}` }]);
    const run = await world.run(prompt);
    expect(run.code, run.stderr).toBe(0);
    const parent = only(world.standin.resultsFor("parent"));
    expect(parent.isError).toBe(false);
    const child = world.standin.resultsFor("child");
    expect(child.map((r) => r.isError)).toEqual([true, false]);
    expect(child[0]?.content).toContain("agent-sudo: refused (tier 4");
    expect(child[1]?.content).toContain(marker);
    // The subagent's conversation is its own (a different system prompt and tool set than the parent's).
    const [denied] = await audited(stack.home, (r) => r.evidence.tool_use_id === child[0]?.toolUseId);
    expect(denied?.decision_type).toBe("denied");
    const [allowed] = await audited(
      stack.home,
      (r) => r.evidence.tool_use_id === child[1]?.toolUseId && r.decision_type !== "hook_outcome",
    );
    expect(allowed?.decision_type).toBe("allowed");
  });

  it("fail closed on a stalled gateway: the hook's deny blocks the command; the answer that came after the limit is audited as late, not allowed", async () => {
    const gw = stack.pids().gateway as number;
    const prompt = world.standin.script("stalled", [{ bash: `ls ${world.scratch}` }]);
    process.kill(gw, "SIGSTOP");
    let result: ToolResult;
    try {
      await world.run(prompt, { env: { AGENT_SUDO_HOOK_TIMEOUT: "1" } });
      result = only(world.standin.resultsFor("stalled"));
    } finally {
      process.kill(gw, "SIGCONT");
    }
    expect(result.isError).toBe(true);
    expect(result.content).toContain("agent-sudo: the gateway did not answer in time");
    expect(result.content).not.toContain(marker);
    const context = JSON.stringify(
      world.standin.requests.find((r) => JSON.stringify(r.messages).includes("agent-sudo client case stalled")),
    );
    expect(context).toContain("SELF-TEST FAILED");
    // Resumed, the gateway judges the queued request (an allow) and finds the hook gone.
    const [late] = await audited(stack.home, (r) => r.evidence.tool_use_id === result.toolUseId, 1, 10_000);
    expect(late).toMatchObject({ decision_type: "late", assigned_tier: 0, evidence: { delivered: false, would_have_been: "allowed" } });
    expect(
      (await auditRecords(stack.home))
        .filter((r) => r.evidence.tool_use_id === result.toolUseId && r.phase === "outcome")
        .map((r) => r.decision_type),
    ).toEqual(["late"]);
  }, 90_000);

  it("hook install --scope project: the client reads the project's .claude/settings.json; after uninstall the client decides alone", async () => {
    const project = new ClientWorld(binary);
    await project.start();
    try {
      await hookInstall(project, ["install", "--scope", "project", "--home", stack.home]);
      expect(existsSync(join(project.project, ".claude", "settings.json"))).toBe(true);
      expect(existsSync(join(project.home, ".claude", "settings.json"))).toBe(false);
      const target = absentSystemPath();
      await project.run(project.standin.script("project", [{ bash: `rm -rf ${target}` }]));
      expect(only(project.standin.resultsFor("project")).content).toContain("agent-sudo: refused (tier 4");

      await hookInstall(project, ["uninstall", "--scope", "project"]);
      await project.run(project.standin.script("project-uninstalled", [{ bash: `rm -rf ${target}` }]));
      const after = only(project.standin.resultsFor("project-uninstalled"));
      expect(after.isError).toBe(true);
      expect(after.content).not.toContain("agent-sudo:");
      expect(existsSync(target)).toBe(false);
      expect(project.standin.problems).toEqual([]);
    } finally {
      await project.close();
    }
  });

  it("the stand-in saw no unexpected request", () => {
    expect(world.standin.problems).toEqual([]);
  });
});

describe.skipIf(skip !== undefined)(named("the real Claude Code client, routed mode", skip), () => {
  let stack: Stack;
  let world: ClientWorld;
  let outside: string;

  beforeAll(async () => {
    stack = await startStack({ env: { AGENT_SUDO_HOOK_MODE: "routed" } });
    world = new ClientWorld(binary);
    await world.start();
    world.relayGateway(stack.port);
    await hookInstall(world, ["install", "--home", stack.home]);
    // Outside the workspace and outside the scratch trees, so the claude
    // policy puts a write there at tier 2 (routed); a temp dir all the same.
    if (root) outside = mkdtempSync("/var/cache/agent-sudo-client-");
  });
  afterAll(async () => {
    await world?.close();
    await stack?.stop();
    if (outside) rmSync(outside, { recursive: true, force: true });
  });

  it("allow: a tier-1 write in the project runs, where the client alone would have asked first", async () => {
    const file = join(world.project, `routed-allow-${rand()}`);
    await world.run(world.standin.script("routed-allow", [{ bash: `touch ${file}` }]));
    const result = only(world.standin.resultsFor("routed-allow"));
    expect(result.isError, result.content).toBe(false);
    expect(existsSync(file)).toBe(true);
    const [d] = await audited(stack.home, (r) => r.evidence.tool_use_id === result.toolUseId && r.decision_type !== "hook_outcome");
    expect(d).toMatchObject({ decision_type: "allowed", assigned_tier: 1 });
  });

  it.skipIf(!root)(
    named(
      "round trip: the deny names `agent-sudo exec -- '…'`, the model sends that, the broker runs it",
      root ? undefined : "skipped: needs root (the stack's executor commits the change)",
    ),
    async () => {
      const file = join(outside, "routed.txt");
      const prompt = world.standin.script("routed", [
        { bash: `touch ${file}` },
        (previous) => {
          const line = /agent-sudo exec -- '(?:[^']|'\\'')*'/.exec(previous?.content ?? "")?.[0];
          return line ? { bash: line } : { text: "stand-in: no route in the deny" };
        },
      ]);
      const run = await world.run(prompt, { env: world.tokenFile(stack.token) });
      expect(run.code, run.stderr).toBe(0);
      const [routed, exec] = world.standin.resultsFor("routed");
      expect(routed?.isError).toBe(true);
      expect(routed?.content).toContain(`agent-sudo exec -- '${`touch ${file}`}'`);
      expect(exec, "the model's second call (the exec line) got a result").toBeDefined();
      expect(exec?.isError, exec?.content).toBe(false);
      expect(existsSync(file)).toBe(true);
      const [viaExec] = await audited(stack.home, (r) => r.source === "http" && r.command === `touch ${file}`);
      expect(viaExec).toMatchObject({ decision_type: "executed", exit_code: 0, assigned_tier: 2 });
      const [first] = await audited(stack.home, (r) => r.evidence.tool_use_id === routed?.toolUseId);
      expect(first?.decision_type).toBe("routed");
      const [second] = await audited(stack.home, (r) => r.evidence.tool_use_id === exec?.toolUseId && r.decision_type !== "hook_outcome");
      expect(second?.decision_type).toBe("allowed");
      expect(world.standin.problems).toEqual([]);
    },
  );
});

describe.skipIf(skip !== undefined)(named("the real Claude Code client, gateway dead", skip), () => {
  let world: ClientWorld;
  let deadHome: string;
  const marker = `listing-marker-${rand()}`;

  beforeAll(async () => {
    // A gateway that died: its socket file is still there, nobody listens.
    deadHome = mkdtempSync("/tmp/agent-sudo-client-dead-");
    const socket = join(deadHome, "run", "hook.sock");
    const holder = spawn(
      process.execPath,
      [
        "-e",
        `require("fs").mkdirSync(${JSON.stringify(join(deadHome, "run"))});require("net").createServer().listen(${JSON.stringify(socket)},()=>console.log("up"))`,
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    await new Promise((r) => holder.stdout.once("data", r));
    holder.kill("SIGKILL");
    await new Promise((r) => holder.once("exit", r));
    expect(existsSync(socket)).toBe(true);
    world = new ClientWorld(binary);
    await world.start();
    writeFileSync(join(world.project, marker), "x");
    await hookInstall(world, ["install", "--home", deadHome]);
  });
  afterAll(async () => {
    await world?.close();
    if (deadHome) rmSync(deadHome, { recursive: true, force: true });
  });

  it("fail closed: every Bash call is denied with our reason, even one the client would run by itself", async () => {
    // A listing of the project: the client runs that by itself (see the escape hatch below).
    await world.run(world.standin.script("dead", [{ bash: `ls ${world.project}` }]));
    const result = only(world.standin.resultsFor("dead"));
    expect(result.isError).toBe(true);
    expect(result.content).toContain("agent-sudo: cannot connect to the gateway's hook socket");
    expect(result.content).toContain("AGENT_SUDO_HOOK_ESCAPE=1");
    expect(result.content).not.toContain(marker);
    const context = JSON.stringify(world.standin.requests.find((r) => JSON.stringify(r.messages).includes("agent-sudo client case dead")));
    expect(context).toContain("SELF-TEST FAILED");
  });

  it("escape hatch: with AGENT_SUDO_HOOK_ESCAPE=1 the client's own permissions decide again", async () => {
    const target = absentSystemPath();
    await world.run(world.standin.script("escape", [{ bash: `ls ${world.project}` }, { bash: `rm -rf ${target}` }]), {
      env: { AGENT_SUDO_HOOK_ESCAPE: "1" },
    });
    const [listing, rm] = world.standin.resultsFor("escape");
    expect(listing?.isError).toBe(false);
    expect(listing?.content).toContain(marker);
    expect(rm?.isError).toBe(true);
    expect(rm?.content).not.toContain("agent-sudo:");
    expect(existsSync(target)).toBe(false);
    expect(world.standin.problems).toEqual([]);
  });
});

describe.skipIf(skip !== undefined)(named("the real Claude Code client, `hook install --type http`", skip), () => {
  let stack: Stack;
  let world: ClientWorld;
  let home: string;
  let broken: Server;
  let brokenPort = 0;
  const BROKEN: Record<string, { status: number; body: string }> = {
    "5xx": { status: 503, body: '{"error":"unavailable"}' },
    garbage: { status: 200, body: "<html>proxy error</html>" },
    "bad-shape": { status: 200, body: JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "yes" } }) },
  };
  const marker = `listing-marker-${rand()}`;

  beforeAll(async () => {
    world = new ClientWorld(binary);
    await world.start();
    writeFileSync(join(world.project, marker), "x");
    // Installed before the stack starts: the install turns hook.tcp on in its config.json.
    home = mkdtempSync("/tmp/agent-sudo-client-http-");
    await hookInstall(world, ["install", "--type", "http", "--url", `http://127.0.0.1:${GATEWAY_PORT}`, "--home", home]);
    stack = await startStack({ home });
    world.relayGateway(stack.port);
    // A STAND-IN for a broken gateway (5xx, garbage): it answers every request with brokenAnswer.
    broken = createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => {
        const kind = /# ([a-z0-9-]+)"/.exec(body)?.[1] ?? "5xx";
        const answer = BROKEN[kind] ?? { status: 500, body: "" };
        res.writeHead(answer.status, { "content-type": "application/json" });
        res.end(answer.body);
      });
    });
    await new Promise<void>((r) => broken.listen(0, "127.0.0.1", r));
    brokenPort = (broken.address() as { port: number }).port;
  });
  afterAll(async () => {
    if (stack) {
      const gw = stack.pids().gateway;
      if (gw) process.kill(gw, "SIGCONT");
    }
    broken?.closeAllConnections();
    broken?.close();
    await world?.close();
    await stack?.stop();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  const token = () => ({ AGENT_SUDO_HOOK_TOKEN: stack.token });

  it("decides through the gateway's TCP port: an allow runs, a deny carries our reason", async () => {
    const target = absentSystemPath();
    await world.run(world.standin.script("http-decide", [{ bash: `ls ${world.project}` }, { bash: `rm -rf ${target}` }]), { env: token() });
    const [listing, rm] = world.standin.resultsFor("http-decide");
    expect(listing?.isError).toBe(false);
    expect(listing?.content).toContain(marker);
    expect(rm?.isError).toBe(true);
    expect(rm?.content).toContain("agent-sudo: refused (tier 4");
    const [d] = await audited(stack.home, (r) => r.evidence.tool_use_id === listing?.toolUseId && r.decision_type !== "hook_outcome");
    expect(d?.decision_type).toBe("allowed");
  });

  // Each failure: the same listing, which the client runs by itself without hooks (see the escape-hatch case), is blocked.
  async function blocked(tag: string, env: Record<string, string>): Promise<ToolResult> {
    await world.run(world.standin.script(tag, [{ bash: `ls ${world.project}` }]), { env });
    const result = only(world.standin.resultsFor(tag));
    expect(result.isError).toBe(true);
    expect(result.content).not.toContain(marker);
    expect(result.content).toContain('blocking because onFailure is "block"');
    return result;
  }

  it("fails closed without the token (401)", async () => {
    expect((await blocked("http-no-token", {})).content).toContain("401");
  });

  it("fails closed on a stalled gateway (the client's 1 s timeout); the late answer is audited as late", async () => {
    const gw = stack.pids().gateway as number;
    process.kill(gw, "SIGSTOP");
    let result: ToolResult;
    try {
      result = await blocked("http-stalled", token());
    } finally {
      process.kill(gw, "SIGCONT");
    }
    expect(result.content).toContain("timed out");
    const [late] = await audited(stack.home, (r) => r.evidence.tool_use_id === result.toolUseId, 1, 10_000);
    expect(late).toMatchObject({ decision_type: "late", evidence: { would_have_been: "allowed" } });
  }, 90_000);

  it("fails closed on a dead gateway (nothing listening)", async () => {
    world.relayGateway(await freePort());
    try {
      await blocked("http-dead", token());
    } finally {
      world.relayGateway(stack.port);
    }
  });

  it("fails closed on a 5xx and on an answer that is not a hook answer", async () => {
    world.relayGateway(brokenPort);
    try {
      // One session, three calls; the broken gateway picks its answer by the command's trailing comment.
      await world.run(
        world.standin.script(
          "http-broken",
          ["5xx", "garbage", "bad-shape"].map((k) => ({ bash: `ls ${world.project} # ${k}` })),
        ),
        { env: token() },
      );
    } finally {
      world.relayGateway(stack.port);
    }
    const results = world.standin.resultsFor("http-broken");
    expect(results.map((r) => r.isError)).toEqual([true, true, true]);
    for (const r of results) {
      expect(r.content).not.toContain(marker);
      expect(r.content).toContain('blocking because onFailure is "block"');
    }
    expect(results[0]?.content).toContain("HTTP 503");
    expect(results[1]?.content).toContain("non-JSON");
    expect(results[2]?.content).toContain("validation failed");
  });
});
