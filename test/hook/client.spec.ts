// The real hook/agent-sudo-hook against a running stack, in conservative and
// routed mode, and against broken or absent gateways. Every run must exit 0
// (or 2 when it cannot even print): never 1, which Claude Code reads as
// "hook failed, run the command anyway".
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { missing, named } from "../support/needs.js";
import { startStack, type Stack } from "../support/stack.js";
import {
  decisionOf,
  fakeGateway,
  HOOK,
  type HookClient,
  hookPath,
  httpResponse,
  preToolUse,
  removeHookPaths,
  runHook as runHookWith,
  runProcess,
} from "./hook-client.js";

const hookSocket = (stack: Stack) => join(stack.home, "run", "hook.sock");
afterAll(() => removeHookPaths());

// Every case runs with both ways the hook reaches the gateway: perl-base (what
// it uses where perl is installed) and curl (where there is no perl), each on a
// PATH that holds that one program alone.
for (const client of ["curl", "perl"] as const satisfies readonly HookClient[]) {
  const why = missing(client);
  const runHook = (stdin: Buffer | string, env: Record<string, string>, args: string[] = []) => runHookWith(stdin, env, args, client);
  describe.skipIf(why)(named(`hook client over ${client}`, why), () => {
    describe("hook client, conservative mode (the default)", () => {
      let stack: Stack;
      let env: Record<string, string>;
      beforeAll(async () => {
        stack = await startStack();
        env = { AGENT_SUDO_HOOK_SOCKET: hookSocket(stack) };
      });
      afterAll(async () => {
        await stack?.stop();
      });

      it("allows git status", async () => {
        const run = await runHook(preToolUse("git status"), env);
        expect(run.code).toBe(0);
        expect(decisionOf(run.stdout).decision).toBe("allow");
      });

      it("denies rm -rf /", async () => {
        const run = await runHook(preToolUse("rm -rf /"), env);
        expect(run.code).toBe(0);
        expect(decisionOf(run.stdout).decision).toBe("deny");
      });

      // Needs the real policy engine (apt-get is tier 2/3 there; the starter list makes it tier 4).
      it("has no opinion on apt-get install -y htop (empty stdout, normal prompt)", async () => {
        const run = await runHook(preToolUse("apt-get install -y htop"), env);
        expect(run.code).toBe(0);
        expect(run.stdout).toBe("");
      });

      it("has no opinion on a tool other than Bash", async () => {
        const event = JSON.stringify({
          session_id: "s",
          cwd: "/tmp",
          hook_event_name: "PreToolUse",
          tool_name: "Read",
          tool_input: { file_path: "/etc/hostname" },
        });
        const run = await runHook(event, env);
        expect(run.code).toBe(0);
        expect(run.stdout).toBe("");
      });

      const badInputs: Array<[string, Buffer]> = [
        ["invalid JSON", Buffer.from('{"hook_event_name":"PreToolUse","tool_name":"Bash",')],
        ["empty input", Buffer.alloc(0)],
        ["a JSON array", Buffer.from("[1,2]")],
        ["no hook_event_name", Buffer.from(JSON.stringify({ tool_name: "Bash", tool_input: { command: "git status" } }))],
        ["no tool_name", Buffer.from(JSON.stringify({ hook_event_name: "PreToolUse", tool_input: { command: "git status" } }))],
        ["no tool_input", Buffer.from(JSON.stringify({ hook_event_name: "PreToolUse", tool_name: "Bash" }))],
        ["no tool_input.command", Buffer.from(JSON.stringify({ hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: {} }))],
        [
          "a non-string command",
          Buffer.from(JSON.stringify({ hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: ["git", "status"] } })),
        ],
        ["more than 1 MiB", Buffer.from(preToolUse(`echo ${"a".repeat(1024 * 1024)}`))],
        [
          "non-UTF-8 bytes",
          Buffer.concat([
            Buffer.from('{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"echo '),
            Buffer.from([0xff, 0xfe, 0xc3]),
            Buffer.from('"}}'),
          ]),
        ],
        ["a byte-order mark", Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(preToolUse("git status"))])],
      ];
      for (const [name, input] of badInputs) {
        it(`denies ${name}`, async () => {
          const run = await runHook(input, env);
          expect(run.code).toBe(0);
          const answer = decisionOf(run.stdout);
          expect(answer.decision).toBe("deny");
          expect(answer.reason).toMatch(/agent-sudo/);
        });
      }

      it("denies an unknown argument rather than guessing", async () => {
        const run = await runHook(preToolUse("git status"), env, ["--bogus"]);
        expect(run.code).toBe(0);
        expect(decisionOf(run.stdout).decision).toBe("deny");
      });

      it("--session-start reports a passed self-test as additional context", async () => {
        const run = await runHook(JSON.stringify({ session_id: "s", hook_event_name: "SessionStart", source: "startup" }), env, [
          "--session-start",
        ]);
        expect(run.code).toBe(0);
        const out = JSON.parse(run.stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
        expect(Object.keys(out)).toEqual(["hookSpecificOutput"]);
        expect(out.hookSpecificOutput.hookEventName).toBe("SessionStart");
        expect(out.hookSpecificOutput.additionalContext).toMatch(/self-test passed/);
        expect(out.hookSpecificOutput.additionalContext).toMatch(/mode conservative/);
      });

      it("--post-tool-use records quietly: no output, exit 0", async () => {
        const event = JSON.stringify({
          session_id: "s",
          hook_event_name: "PostToolUse",
          tool_name: "Bash",
          tool_input: { command: "git status" },
          tool_response: { stdout: "", stderr: "", interrupted: false },
        });
        const run = await runHook(event, env, ["--post-tool-use"]);
        expect(run.code).toBe(0);
        expect(run.stdout).toBe("");
      });

      it("with the escape hatch prints nothing and warns on stderr", async () => {
        const run = await runHook(preToolUse("rm -rf /"), { ...env, AGENT_SUDO_HOOK_ESCAPE: "1" });
        expect(run.code).toBe(0);
        expect(run.stdout).toBe("");
        expect(run.stderr).toMatch(/AGENT_SUDO_HOOK_ESCAPE/);
      });

      it("exits 2 when it cannot even print its answer", async () => {
        // stdout closed: printf fails, and SIGPIPE must not kill the shell.
        const run = await runProcess("/bin/sh", ["-c", 'exec "$0" >&-', HOOK], {
          stdin: preToolUse("git status"),
          env: { PATH: hookPath(client), ...env },
        });
        expect(run.signal).toBeNull();
        expect(run.code).toBe(2);
      });
    });

    describe("hook client, routed mode", () => {
      let stack: Stack;
      let env: Record<string, string>;
      beforeAll(async () => {
        stack = await startStack({ env: { AGENT_SUDO_HOOK_MODE: "routed" } });
        env = { AGENT_SUDO_HOOK_SOCKET: hookSocket(stack) };
      });
      afterAll(async () => {
        await stack?.stop();
      });

      it("allows git status", async () => {
        const run = await runHook(preToolUse("git status"), env);
        expect(run.code).toBe(0);
        expect(decisionOf(run.stdout).decision).toBe("allow");
      });

      it("denies rm -rf / with no route to the broker", async () => {
        const run = await runHook(preToolUse("rm -rf /"), env);
        expect(run.code).toBe(0);
        const answer = decisionOf(run.stdout);
        expect(answer.decision).toBe("deny");
        expect(answer.reason).not.toMatch(/agent-sudo exec/);
      });

      // Needs the real policy engine (apt-get is tier 2/3 there; the starter list makes it tier 4).
      it("denies apt-get install -y htop with the agent-sudo exec route", async () => {
        const run = await runHook(preToolUse("apt-get install -y htop"), env);
        expect(run.code).toBe(0);
        const answer = decisionOf(run.stdout);
        expect(answer.decision).toBe("deny");
        expect(answer.reason).toContain("agent-sudo exec -- 'apt-get install -y htop'");
      });

      it("allows agent-sudo exec -- 'apt-get install -y htop' (the broker judges the inside)", async () => {
        const run = await runHook(preToolUse("agent-sudo exec -- 'apt-get install -y htop'"), env);
        expect(run.code).toBe(0);
        expect(decisionOf(run.stdout).decision).toBe("allow");
      });

      it("does not allow an agent-sudo exec line with a second command after it", async () => {
        const run = await runHook(preToolUse("agent-sudo exec -- 'true'; rm -rf /"), env);
        expect(run.code).toBe(0);
        expect(decisionOf(run.stdout).decision).toBe("deny");
      });

      it("--session-start reports routed mode", async () => {
        const run = await runHook("{}", env, ["--session-start"]);
        expect(run.code).toBe(0);
        expect(run.stdout).toMatch(/mode routed/);
      });

      it("denies within 1 s once the gateway is stopped", async () => {
        await stack.stop();
        const run = await runHook(preToolUse("git status"), env);
        expect(run.code).toBe(0);
        expect(decisionOf(run.stdout).decision).toBe("deny");
        expect(run.ms).toBeLessThan(1000);
      });
    });

    describe("hook client against an absent or broken gateway", () => {
      let dir: string;
      beforeAll(() => {
        dir = mkdtempSync(join(tmpdir(), "agent-sudo-hook-fake-"));
      });
      afterAll(() => {
        rmSync(dir, { recursive: true, force: true });
      });

      it("denies when the socket does not exist, and says how to escape", async () => {
        const run = await runHook(preToolUse("git status"), { AGENT_SUDO_HOOK_SOCKET: join(dir, "absent.sock") });
        expect(run.code).toBe(0);
        const answer = decisionOf(run.stdout);
        expect(answer.decision).toBe("deny");
        expect(answer.reason).toMatch(/AGENT_SUDO_HOOK_ESCAPE=1/);
        expect(run.ms).toBeLessThan(1000);
      });

      it("finds the socket as $AGENT_SUDO_HOME/run/hook.sock when AGENT_SUDO_HOOK_SOCKET is unset", async () => {
        const home = join(dir, "home");
        mkdirSync(join(home, "run"), { recursive: true });
        const body =
          '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"from the fake"}}';
        const fake = await fakeGateway(join(home, "run", "hook.sock"), httpResponse(200, body));
        try {
          const run = await runHook(preToolUse("git status"), { AGENT_SUDO_HOME: home });
          expect(run.code).toBe(0);
          expect(decisionOf(run.stdout).reason).toBe("from the fake");
        } finally {
          await fake.close();
        }
      });

      it("with the escape hatch prints nothing even when the gateway is absent", async () => {
        const run = await runHook(preToolUse("rm -rf /"), {
          AGENT_SUDO_HOOK_SOCKET: join(dir, "absent.sock"),
          AGENT_SUDO_HOOK_ESCAPE: "1",
        });
        expect(run.code).toBe(0);
        expect(run.stdout).toBe("");
        expect(run.stderr).toMatch(/AGENT_SUDO_HOOK_ESCAPE/);
      });

      it("--session-start says Bash is blocked and how to use the escape hatch", async () => {
        const run = await runHook("{}", { AGENT_SUDO_HOOK_SOCKET: join(dir, "absent.sock") }, ["--session-start"]);
        expect(run.code).toBe(0);
        const out = JSON.parse(run.stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
        expect(out.hookSpecificOutput.hookEventName).toBe("SessionStart");
        expect(out.hookSpecificOutput.additionalContext).toMatch(/denied|blocked/);
        expect(out.hookSpecificOutput.additionalContext).toMatch(/AGENT_SUDO_HOOK_ESCAPE=1/);
      });

      it("--post-tool-use stays silent and exits 0 when the gateway is absent", async () => {
        const run = await runHook("{}", { AGENT_SUDO_HOOK_SOCKET: join(dir, "absent.sock") }, ["--post-tool-use"]);
        expect(run.code).toBe(0);
        expect(run.stdout).toBe("");
      });

      const broken: Array<[string, string | null]> = [
        ["never answers", null],
        ["answers 500", httpResponse(500, '{"error":"internal"}')],
        ["answers 403", httpResponse(403, '{"error":"refused"}')],
        ["answers 200 with an empty body", httpResponse(200, "")],
        ["answers 200 with text", httpResponse(200, "allow")],
        ["answers 200 with JSON that is not a hook answer", httpResponse(200, '{"permissionDecision":"allow"}')],
        [
          "answers 200 with a SessionStart answer",
          httpResponse(200, '{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"x"}}'),
        ],
        [
          "answers 200 with a truncated hook answer",
          httpResponse(200, '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"'),
        ],
        [
          "answers 200 with an invalid decision",
          httpResponse(
            200,
            '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"block","permissionDecisionReason":"x"}}',
          ),
        ],
        ["answers garbage", "garbage\r\n\r\n"],
        ["closes without answering", ""],
      ];
      for (const [name, response] of broken) {
        it(`denies within 2 s when the gateway ${name}`, async () => {
          const path = join(dir, `g${Math.random().toString(36).slice(2, 8)}.sock`);
          const fake = await fakeGateway(path, response);
          try {
            const run = await runHook(preToolUse("git status"), { AGENT_SUDO_HOOK_SOCKET: path });
            expect(run.code).toBe(0);
            expect(decisionOf(run.stdout).decision).toBe("deny");
            expect(run.ms).toBeLessThan(2000);
          } finally {
            await fake.close();
          }
        });
      }

      it("passes a well-formed allow through unchanged", async () => {
        const body = '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"ok"}}';
        const path = join(dir, "ok.sock");
        const fake = await fakeGateway(path, httpResponse(200, body));
        try {
          const run = await runHook(preToolUse("git status"), { AGENT_SUDO_HOOK_SOCKET: path });
          expect(run.code).toBe(0);
          expect(run.stdout).toBe(`${body}\n`);
        } finally {
          await fake.close();
        }
      });
    });
  });
}

describe("hook client without a way to reach the gateway", () => {
  it("denies when neither curl nor perl is on PATH, and says so", async () => {
    const empty = mkdtempSync(join(tmpdir(), "agent-sudo-hook-empty-path-"));
    try {
      const run = await runProcess(HOOK, [], {
        stdin: preToolUse("git status"),
        env: { PATH: empty, AGENT_SUDO_HOOK_SOCKET: join(empty, "absent.sock") },
      });
      expect(run.code).toBe(0);
      const answer = decisionOf(run.stdout);
      expect(answer.decision).toBe("deny");
      expect(answer.reason).toContain("neither curl nor perl is installed");
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
