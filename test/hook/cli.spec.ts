// `agent-sudo exec` (the route routed mode gives the agent) and `agent-sudo
// doctor`, against a running stack.
import { spawn } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, startStack, type Stack } from "../support/stack.js";
import { decisionOf, preToolUse, runCli, type Run } from "./hook-client.js";

let stack: Stack;
let dir: string;
let tokenFile: string;

beforeAll(async () => {
  // The exec tests send a tier-4 command; keep the breaker armed so doctor reports a healthy stack.
  stack = await startStack({ env: { AGENT_SUDO_BREAKER_TRIP_ON_TIER4: "0" } });
  dir = mkdtempSync(join(tmpdir(), "agent-sudo-cli-"));
  tokenFile = join(dir, "token");
  writeFileSync(tokenFile, `${stack.token}\n`, { mode: 0o600 });
});
afterAll(async () => {
  await stack?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function exec(args: string[], env: Record<string, string> = {}, cwd = "/tmp"): Promise<Run> {
  return runCli("exec", "execCommand", args, {
    env: { PATH: process.env.PATH, HOME: dir, AGENT_SUDO_URL: stack.url, AGENT_SUDO_TOKEN_FILE: tokenFile, ...env },
    cwd,
  });
}

describe("agent-sudo exec", () => {
  it("prints the output of echo hi and exits 0", async () => {
    const run = await exec(["--", "echo hi"]);
    expect(run.stdout).toBe("hi\n");
    expect(run.code).toBe(0);
  });

  it("passes on the command's stderr and exit code", async () => {
    const run = await exec(["--", "ls /nonexistent"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("nonexistent");
  });

  it("runs in the caller's directory by default, or --cwd", async () => {
    expect((await exec(["--", "pwd"], {}, "/tmp")).stdout).toBe("/tmp\n");
    expect((await exec(["--cwd", "/", "--", "pwd"])).stdout).toBe("/\n");
  });

  it("exits 77 with the reason when the broker refuses", async () => {
    // Tier 4 under any policy, and harmless if it ever ran: the device does not exist.
    const run = await exec(["--", "mkfs.ext4 /dev/agent-sudo-no-such-device"]);
    expect(run.code).toBe(77);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/refused \(tier 4\)/);
  });

  it("exits 78 for a rejected token or a missing token file", async () => {
    const wrong = join(dir, "wrong-token");
    writeFileSync(wrong, "not-the-right-token-0123456789\n", { mode: 0o600 });
    const rejected = await exec(["--", "echo hi"], { AGENT_SUDO_TOKEN_FILE: wrong });
    expect(rejected.code).toBe(78);
    expect(rejected.stderr).toMatch(/401/);
    const missing = await exec(["--", "echo hi"], { AGENT_SUDO_TOKEN_FILE: join(dir, "absent") });
    expect(missing.code).toBe(78);
    expect(missing.stderr).toMatch(/no token file/);
  });

  it("reads ~/.config/agent-sudo/token by default", async () => {
    const home = mkdtempSync(join(tmpdir(), "agent-sudo-cli-home-"));
    try {
      const { mkdirSync } = await import("node:fs");
      mkdirSync(join(home, ".config", "agent-sudo"), { recursive: true });
      writeFileSync(join(home, ".config", "agent-sudo", "token"), stack.token, { mode: 0o600 });
      const run = await runCli("exec", "execCommand", ["--", "echo default"], {
        env: { PATH: process.env.PATH, HOME: home, AGENT_SUDO_URL: stack.url },
        cwd: "/tmp",
      });
      expect(run.stdout).toBe("default\n");
      expect(run.code).toBe(0);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  it("exits 65 when the gateway rejects the request (a missing cwd)", async () => {
    const run = await exec(["--cwd", "/nonexistent/dir", "--", "pwd"]);
    expect(run.code).toBe(65);
    expect(run.stderr).toMatch(/rejected the request/);
  });

  it("exits 69 when the gateway is unreachable", async () => {
    const run = await exec(["--", "echo hi"], { AGENT_SUDO_URL: `http://127.0.0.1:${await freePort()}` });
    expect(run.code).toBe(69);
    expect(run.stderr).toMatch(/cannot reach the gateway.*nothing was run/);
  });

  it("exits 64 for bad usage, and refuses plain http off loopback without sending anything", async () => {
    expect((await exec([])).code).toBe(64);
    expect((await exec(["--timeout", "0", "--", "echo hi"])).code).toBe(64);
    expect((await exec(["--bogus", "--", "echo hi"])).code).toBe(64);
    const remote = await exec(["--", "echo hi"], { AGENT_SUDO_URL: "http://192.0.2.1:8084" });
    expect(remote.code).toBe(64);
    expect(remote.stderr).toMatch(/https, or http on loopback/);
  });
});

describe("agent-sudo doctor", () => {
  let home: string;
  const doctor = (env: Record<string, string>) =>
    runCli("doctor", "doctorCommand", [], {
      env: { PATH: process.env.PATH, HOME: home, AGENT_SUDO_URL: stack.url, AGENT_SUDO_TOKEN_FILE: tokenFile, ...env },
      cwd: home,
    });

  beforeAll(() => {
    home = mkdtempSync(join(tmpdir(), "agent-sudo-doctor-"));
  });
  afterAll(() => {
    rmSync(home, { recursive: true, force: true });
  });

  it("reports a missing installation and exits 1", async () => {
    const run = await doctor({ AGENT_SUDO_HOME: stack.home });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/not installed/);
    expect(run.stdout).toMatch(/agent-sudo hook install/);
  });

  it("after install: reports scope, mode, reachability, digest, signature and breaker, and exits 0", async () => {
    const install = await runCli("hook", "hookCommand", ["install"], {
      env: { PATH: process.env.PATH, HOME: home, AGENT_SUDO_HOME: stack.home },
      cwd: home,
    });
    expect(install.code, install.stderr).toBe(0);
    const run = await doctor({ AGENT_SUDO_HOME: stack.home });
    expect(run.code, run.stdout).toBe(0);
    expect(run.stdout).toMatch(/ok\s+hook installed \(user: /);
    expect(run.stdout).toMatch(/ok\s+gateway http:\/\/127\.0\.0\.1:\d+\/health/);
    expect(run.stdout).toMatch(/ok\s+hook socket .*hook\.sock: \/health 200/);
    expect(run.stdout).toMatch(/self-test passed/);
    expect(run.stdout).toMatch(/hook client: git status → allow/);
    expect(run.stdout).toMatch(/mode: conservative/);
    expect(run.stdout).toMatch(/policy digest: [0-9a-f]{12}/);
    expect(run.stdout).toMatch(/policy signature: unsigned/);
    expect(run.stdout).toMatch(/breaker: armed/);
  });

  it("the installed command, run as Claude Code runs it, reaches the stack", async () => {
    const { readFileSync } = await import("node:fs");
    const settings = JSON.parse(readFileSync(join(home, ".claude", "settings.json"), "utf8")) as {
      hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>>;
    };
    const command = settings.hooks.PreToolUse?.[0]?.hooks[0]?.command ?? "";
    const out = await new Promise<string>((resolveOut) => {
      const child = spawn("/bin/sh", ["-c", command], { env: { PATH: process.env.PATH, HOME: home } });
      let text = "";
      child.stdout.on("data", (c: Buffer) => (text += c.toString()));
      child.on("close", () => resolveOut(text));
      child.stdin.end(preToolUse("git status"));
    });
    expect(decisionOf(out).decision).toBe("allow");
  });

  it("after install --type http: names the http hook and warns when AGENT_SUDO_HOOK_TOKEN is missing", async () => {
    const httpHome = mkdtempSync(join(tmpdir(), "agent-sudo-doctor-http-"));
    const gwCopy = mkdtempSync(join(tmpdir(), "agent-sudo-doctor-gw-"));
    try {
      const install = await runCli("hook", "hookCommand", ["install", "--type", "http", "--url", stack.url, "--home", gwCopy], {
        env: { PATH: process.env.PATH, HOME: httpHome },
        cwd: httpHome,
      });
      expect(install.code, install.stderr).toBe(0);
      const run = await runCli("doctor", "doctorCommand", [], {
        env: {
          PATH: process.env.PATH,
          HOME: httpHome,
          AGENT_SUDO_URL: stack.url,
          AGENT_SUDO_TOKEN_FILE: tokenFile,
          AGENT_SUDO_HOME: stack.home,
        },
        cwd: httpHome,
      });
      expect(run.stdout).toMatch(/ok\s+hook installed \(user: /);
      expect(run.stdout).toContain(`PreToolUse is an http hook to ${stack.url}/v1/hook`);
      expect(run.stdout).toMatch(/warn\s+AGENT_SUDO_HOOK_TOKEN is not set/);
    } finally {
      rmSync(httpHome, { recursive: true, force: true });
      rmSync(gwCopy, { recursive: true, force: true });
    }
  });

  it("reports an unreachable gateway with what to do, and exits 1", async () => {
    const run = await doctor({
      AGENT_SUDO_HOME: dir,
      AGENT_SUDO_URL: `http://127.0.0.1:${await freePort()}`,
      AGENT_SUDO_HOOK_SOCKET: join(dir, "absent.sock"),
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/FAIL\s+gateway .*unreachable/);
    expect(run.stdout).toMatch(/FAIL\s+hook socket .*unusable \(ENOENT\)/);
    expect(run.stdout).toMatch(/→ .*AGENT_SUDO_HOOK_ESCAPE=1/);
  });
});

describe("the token file", () => {
  it("warns when it is readable by others", async () => {
    const open = join(dir, "open-token");
    writeFileSync(open, stack.token);
    chmodSync(open, 0o644);
    const run = await exec(["--", "echo hi"], { AGENT_SUDO_TOKEN_FILE: open });
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/readable by other users/);
  });
});
