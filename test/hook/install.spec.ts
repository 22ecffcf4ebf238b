// `agent-sudo hook install|uninstall` into a temporary HOME: other hooks and
// settings survive, installing twice adds nothing, uninstall removes only ours.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { HOOK, runCli } from "./hook-client.js";

interface Settings {
  hooks?: Record<string, Array<{ matcher?: string; hooks: Array<{ type: string; command: string; timeout?: number; async?: boolean }> }>>;
  [key: string]: unknown;
}

const ORIGINAL: Settings = {
  model: "opus",
  permissions: { allow: ["Read"] },
  hooks: {
    PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "/opt/hooks/security-enforcement.py", timeout: 5 }] }],
    Notification: [{ hooks: [{ type: "command", command: "notify-send claude" }] }],
  },
};

let home: string;
let project: string;
let gwHome: string;

/** The CLI as a user would run it: HOME is the temp dir, nothing of ours in the environment. */
function hook(args: string[], extraEnv: Record<string, string> = {}) {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: home, ...extraEnv };
  return runCli("hook", "hookCommand", args, { env, cwd: project });
}

const userSettings = () => join(home, ".claude", "settings.json");
const read = (path: string) => JSON.parse(readFileSync(path, "utf8")) as Settings;
const backups = (dir: string) => readdirSync(dir).filter((f) => f.startsWith("settings.json.bak-"));
const commands = (s: Settings, event: string) => (s.hooks?.[event] ?? []).flatMap((g) => g.hooks.map((h) => h.command));
const ours = (s: Settings) => Object.keys(s.hooks ?? {}).flatMap((e) => commands(s, e).filter((c) => c?.includes("agent-sudo-hook")));

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "agent-sudo-home-"));
  project = mkdtempSync(join(tmpdir(), "agent-sudo-project-"));
  gwHome = mkdtempSync(join(tmpdir(), "agent-sudo-gw-"));
  mkdirSync(join(home, ".claude"));
  writeFileSync(userSettings(), `${JSON.stringify(ORIGINAL, null, 2)}\n`);
});
afterEach(() => {
  for (const d of [home, project, gwHome]) rmSync(d, { recursive: true, force: true });
});

describe("agent-sudo hook install", () => {
  it("adds the three registrations and keeps every other hook and setting", async () => {
    const run = await hook(["install"]);
    expect(run.code, run.stderr).toBe(0);
    const s = read(userSettings());
    expect(s.model).toBe("opus");
    expect(s.permissions).toEqual({ allow: ["Read"] });
    expect(commands(s, "PreToolUse")).toContain("/opt/hooks/security-enforcement.py");
    expect(s.hooks?.Notification).toEqual(ORIGINAL.hooks?.Notification);

    const pre = s.hooks?.PreToolUse?.find((g) => g.hooks.some((h) => h.command.includes("agent-sudo-hook")));
    expect(pre?.matcher).toBe("Bash");
    expect(pre?.hooks).toHaveLength(1);
    expect(pre?.hooks[0]?.type).toBe("command");
    expect(pre?.hooks[0]?.timeout).toBe(10);
    const post = s.hooks?.PostToolUse?.find((g) => g.hooks.some((h) => h.command.includes("agent-sudo-hook")));
    expect(post?.matcher).toBe("Bash");
    // Decisions block (the client must wait for them); outcomes run in the background.
    expect(pre?.hooks[0]).not.toHaveProperty("async");
    expect(post?.hooks[0]).toMatchObject({ async: true });
    expect(s.hooks?.PostToolUseFailure?.find((g) => g.hooks.some((h) => h.command.includes("agent-sudo-hook")))?.hooks[0]).toMatchObject({
      async: true,
    });
    // The command is the absolute path of the real script (after a socket pin, if any).
    expect(commands(s, "PreToolUse").find((c) => c.includes("agent-sudo-hook"))).toMatch(new RegExp(`(^|\\s)${HOOK}$`));
    expect(commands(s, "SessionStart")).toEqual([expect.stringMatching(new RegExp(`(^|\\s)${HOOK} --session-start$`))]);
    expect(commands(s, "PostToolUse")).toEqual([expect.stringMatching(new RegExp(`(^|\\s)${HOOK} --post-tool-use$`))]);
    // A command that exits non-zero arrives as PostToolUseFailure: registered too, on the same endpoint.
    expect(commands(s, "PostToolUseFailure")).toEqual([expect.stringMatching(new RegExp(`(^|\\s)${HOOK} --post-tool-use$`))]);
  });

  it("writes exactly `<path>` and `<path> --flag` when the gateway's state dir is the default one", async () => {
    if (process.getuid?.() !== 0) return; // non-root: the default state dir is ~/.agent-sudo, which the install pins
    await hook(["install"]);
    const s = read(userSettings());
    expect(ours(s).sort()).toEqual([HOOK, `${HOOK} --post-tool-use`, `${HOOK} --post-tool-use`, `${HOOK} --session-start`]);
  });

  it("keeps a backup of the previous file", async () => {
    await hook(["install"]);
    const found = backups(join(home, ".claude"));
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^settings\.json\.bak-\d{8}T\d{6}\d*Z/);
    expect(JSON.parse(readFileSync(join(home, ".claude", found[0] as string), "utf8"))).toEqual(ORIGINAL);
  });

  it("is idempotent: a second install changes nothing and adds no duplicate", async () => {
    await hook(["install"]);
    const first = readFileSync(userSettings(), "utf8");
    const run = await hook(["install"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/already installed/);
    expect(readFileSync(userSettings(), "utf8")).toBe(first);
    expect(ours(read(userSettings()))).toHaveLength(4);
    expect(backups(join(home, ".claude"))).toHaveLength(1);
  });

  it("replaces an older registration of ours (another path) instead of adding a second", async () => {
    const old: Settings = structuredClone(ORIGINAL);
    old.hooks?.PreToolUse?.push({ matcher: "Bash", hooks: [{ type: "command", command: "/old/place/hook/agent-sudo-hook", timeout: 10 }] });
    writeFileSync(userSettings(), JSON.stringify(old));
    await hook(["install"]);
    const s = read(userSettings());
    expect(ours(s)).toHaveLength(4);
    expect(ours(s).join(" ")).not.toContain("/old/place");
  });

  it("creates settings.json (and .claude/) when there is none", async () => {
    rmSync(join(home, ".claude"), { recursive: true });
    const run = await hook(["install"]);
    expect(run.code, run.stderr).toBe(0);
    expect(ours(read(userSettings()))).toHaveLength(4);
  });

  it("--scope project writes ./.claude/settings.json and leaves the user's alone", async () => {
    const run = await hook(["install", "--scope", "project"]);
    expect(run.code, run.stderr).toBe(0);
    expect(ours(read(join(project, ".claude", "settings.json")))).toHaveLength(4);
    expect(read(userSettings())).toEqual(ORIGINAL);
  });

  it("--settings PATH writes that file", async () => {
    const path = join(project, "elsewhere.json");
    const run = await hook(["install", "--settings", path]);
    expect(run.code, run.stderr).toBe(0);
    expect(ours(read(path))).toHaveLength(4);
  });

  it("pins the socket when the gateway's state dir is not a default one", async () => {
    await hook(["install"], { AGENT_SUDO_HOME: gwHome });
    const socket = join(gwHome, "run", "hook.sock");
    expect(ours(read(userSettings())).sort()).toEqual([
      `AGENT_SUDO_HOOK_SOCKET=${socket} ${HOOK}`,
      `AGENT_SUDO_HOOK_SOCKET=${socket} ${HOOK} --post-tool-use`,
      `AGENT_SUDO_HOOK_SOCKET=${socket} ${HOOK} --post-tool-use`,
      `AGENT_SUDO_HOOK_SOCKET=${socket} ${HOOK} --session-start`,
    ]);
  });

  it("refuses a settings.json that is not JSON and leaves it untouched", async () => {
    writeFileSync(userSettings(), "{ not json");
    const run = await hook(["install"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/not valid JSON/);
    expect(readFileSync(userSettings(), "utf8")).toBe("{ not json");
    expect(backups(join(home, ".claude"))).toHaveLength(0);
  });

  it("refuses a settings.json whose hooks have an unexpected shape", async () => {
    writeFileSync(userSettings(), JSON.stringify({ hooks: { PreToolUse: { matcher: "Bash" } } }));
    const run = await hook(["install"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/not an array/);
  });

  it("rejects bad options with exit 2", async () => {
    expect((await hook(["install", "--scope", "global"])).code).toBe(2);
    expect((await hook(["install", "--mode", "yolo"])).code).toBe(2);
    expect((await hook(["frobnicate"])).code).toBe(2);
  });
});

describe("agent-sudo hook install --mode", () => {
  it("writes hook.mode into <home>/config.json and keeps the rest of it", async () => {
    writeFileSync(join(gwHome, "config.json"), JSON.stringify({ host_id: "server-01", hook: { tcp: false } }));
    const run = await hook(["install", "--mode", "routed"], { AGENT_SUDO_HOME: gwHome });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/restart the gateway/);
    expect(JSON.parse(readFileSync(join(gwHome, "config.json"), "utf8"))).toEqual({
      host_id: "server-01",
      hook: { tcp: false, mode: "routed" },
    });
  });

  it("creates config.json when there is none", async () => {
    const run = await hook(["install", "--mode", "conservative", "--home", gwHome]);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(gwHome, "config.json"), "utf8"))).toEqual({ hook: { mode: "conservative" } });
  });

  it("leaves a config.json that would not load untouched and says what to set", async () => {
    const bad = JSON.stringify({ hook: { mode: "conservative" }, unknown_key: 1 });
    writeFileSync(join(gwHome, "config.json"), bad);
    const run = await hook(["install", "--mode", "routed"], { AGENT_SUDO_HOME: gwHome });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`"hook": {"mode": "routed"}`);
    expect(run.stderr).toContain("AGENT_SUDO_HOOK_MODE=routed");
    expect(readFileSync(join(gwHome, "config.json"), "utf8")).toBe(bad);
    // The settings part still happened.
    expect(ours(read(userSettings()))).toHaveLength(4);
  });
});

describe("agent-sudo hook install --type http", () => {
  const URL = "http://127.0.0.1:18084";
  it("writes PreToolUse as an http hook that blocks on any failure, keeps the others as commands, and turns hook.tcp on", async () => {
    writeFileSync(join(gwHome, "config.json"), JSON.stringify({ host_id: "server-01" }));
    const run = await hook(["install", "--type", "http", "--url", URL, "--home", gwHome]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/AGENT_SUDO_HOOK_TOKEN/);
    const s = read(userSettings());
    const pre = s.hooks?.PreToolUse?.flatMap((g) => g.hooks.map((h) => ({ matcher: g.matcher, ...h }))).filter(
      (h) => (h as { type: string }).type === "http",
    );
    expect(pre).toEqual([
      {
        matcher: "Bash",
        type: "http",
        url: `${URL}/v1/hook`,
        timeout: 1,
        onFailure: "block",
        headers: { Authorization: "Bearer $AGENT_SUDO_HOOK_TOKEN" },
        allowedEnvVars: ["AGENT_SUDO_HOOK_TOKEN"],
      },
    ]);
    // The user's own PreToolUse hook is still there; no command of ours on PreToolUse.
    expect(commands(s, "PreToolUse")).toEqual(["/opt/hooks/security-enforcement.py", undefined]);
    expect(ours(s)).toHaveLength(3);
    expect(JSON.parse(readFileSync(join(gwHome, "config.json"), "utf8"))).toEqual({ host_id: "server-01", hook: { tcp: true } });
  });

  it("switching back to the command type replaces the http entry; uninstall removes it", async () => {
    await hook(["install", "--type", "http", "--url", URL, "--home", gwHome]);
    await hook(["install", "--home", gwHome]);
    let s = read(userSettings());
    expect(JSON.stringify(s)).not.toContain("/v1/hook");
    expect(ours(s)).toHaveLength(4);
    await hook(["install", "--type", "http", "--url", URL, "--home", gwHome]);
    await hook(["uninstall"]);
    s = read(userSettings());
    expect(s).toEqual(ORIGINAL);
  });

  it("rejects a bad type or url", async () => {
    expect((await hook(["install", "--type", "grpc"])).code).toBe(2);
    expect((await hook(["install", "--type", "http", "--url", "ftp://x"])).code).toBe(2);
    expect((await hook(["install", "--type", "http", "--url", "http://127.0.0.1:1/v1/hook"])).code).toBe(2);
  });
});

describe("agent-sudo hook uninstall", () => {
  it("removes only ours: the file is back to what it was", async () => {
    await hook(["install"]);
    const run = await hook(["uninstall"]);
    expect(run.code, run.stderr).toBe(0);
    expect(read(userSettings())).toEqual(ORIGINAL);
  });

  it("keeps another hook that shares a group with ours", async () => {
    const mixed: Settings = structuredClone(ORIGINAL);
    mixed.hooks?.PreToolUse?.[0]?.hooks.push({ type: "command", command: `${HOOK}`, timeout: 10 });
    writeFileSync(userSettings(), JSON.stringify(mixed));
    await hook(["uninstall"]);
    expect(read(userSettings())).toEqual(ORIGINAL);
  });

  it("changes nothing (and makes no backup) when the hook is not installed", async () => {
    const before = readFileSync(userSettings(), "utf8");
    const run = await hook(["uninstall"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/not installed/);
    expect(readFileSync(userSettings(), "utf8")).toBe(before);
    expect(backups(join(home, ".claude"))).toHaveLength(0);
  });

  it("--scope project leaves the user's settings alone", async () => {
    await hook(["install"]);
    await hook(["install", "--scope", "project"]);
    await hook(["uninstall", "--scope", "project"]);
    expect(ours(read(join(project, ".claude", "settings.json")))).toHaveLength(0);
    expect(ours(read(userSettings()))).toHaveLength(4);
    expect(existsSync(join(project, ".claude", "settings.json"))).toBe(true);
  });
});
