// `agent-sudo hook install|uninstall`: registers hook/agent-sudo-hook with
// Claude Code (PreToolUse, PostToolUse and PostToolUseFailure on Bash, SessionStart) in a
// settings.json, and sets the gateway's hook mode. With --type http,
// PreToolUse is an http hook to the gateway instead (hook-http.ts).
//
// Touches only what is ours: our entries are the hook commands that run a
// program named `agent-sudo-hook`, and our http hooks. Everything else in settings.json is kept.
// Idempotent: an unchanged file is not rewritten. Before any change the old
// file is copied to settings.json.bak-<timestamp>; the new one is written to
// a temporary file and renamed into place. A settings.json that is not JSON
// or whose `hooks` has an unexpected shape is refused, never overwritten.
import { existsSync, readFileSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { defaultHome } from "../services/shared/config.js";
import { gatewayHookUrl, httpPreToolUse, isOurHttp } from "./hook-http.js";

export const SYSTEM_HOME = "/var/lib/agent-sudo";

/** The repository root: the first directory above this file holding hook/agent-sudo-hook. */
function findRoot(from: string): string {
  for (let dir = from; dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, "hook", "agent-sudo-hook"))) return dir;
  }
  return resolve(from, "..", "..");
}

export const HOOK_SCRIPT = join(findRoot(import.meta.dirname), "hook", "agent-sudo-hook");

export const REGISTRATIONS = [
  { event: "PreToolUse", matcher: "Bash", flag: "", async: false },
  { event: "SessionStart", matcher: undefined, flag: "--session-start", async: false },
  // Outcomes only inform the audit: `async` (Claude Code ≥ 2.1) runs them in
  // the background, so the agent does not wait for them after every command.
  { event: "PostToolUse", matcher: "Bash", flag: "--post-tool-use", async: true },
  // Claude Code sends a command that exits non-zero as PostToolUseFailure, not PostToolUse.
  { event: "PostToolUseFailure", matcher: "Bash", flag: "--post-tool-use", async: true },
] as const;

export type Scope = "user" | "project";
export type { HookMode } from "./hook-files.js";
import { type HookMode, setHookConfig, setHookMode, writeWithBackup } from "./hook-files.js";

export type Json = Record<string, unknown>;

export interface HookEntry {
  type?: unknown;
  command?: unknown;
  url?: unknown;
  [key: string]: unknown;
}
interface Group {
  matcher?: unknown;
  hooks?: unknown;
  [key: string]: unknown;
}

export class SettingsError extends Error {}

/** Claude Code's settings file for a scope (CLAUDE_CONFIG_DIR moves the user one). */
export function settingsPath(scope: Scope, env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): string {
  if (scope === "project") return join(cwd, ".claude", "settings.json");
  return join(env.CLAUDE_CONFIG_DIR || join(homedir(), ".claude"), "settings.json");
}

/** The gateway's state dir: --home, AGENT_SUDO_HOME, the system one when present, else the default for this user. */
export function gatewayHome(explicit?: string): string {
  if (explicit) return resolve(explicit);
  if (process.env.AGENT_SUDO_HOME) return resolve(process.env.AGENT_SUDO_HOME);
  if (existsSync(join(SYSTEM_HOME, "config.json")) || existsSync(join(SYSTEM_HOME, "run"))) return SYSTEM_HOME;
  return defaultHome();
}

/** The socket hook/agent-sudo-hook finds with no AGENT_SUDO_* variables set (mirrors its shell code). */
export function scriptDefaultSocket(): string {
  const system = join(SYSTEM_HOME, "run", "hook.sock");
  const user = join(homedir(), ".agent-sudo", "run", "hook.sock");
  const isSocket = (p: string) => {
    try {
      return statSync(p).isSocket();
    } catch {
      return false;
    }
  };
  return !isSocket(system) && isSocket(user) ? user : system;
}

export function shellWord(text: string): string {
  return /^[A-Za-z0-9_./:@%+=-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** The words of a hook command, quotes removed (enough for the commands we write and to spot ours). */
function words(command: string): string[] {
  return (command.match(/'[^']*'|"[^"]*"|\S+/g) ?? []).map((w) => w.replace(/^['"]|['"]$/g, ""));
}

/** Ours: a command that runs a program named agent-sudo-hook (after any VAR=value prefixes). */
export function isOurCommand(command: unknown): boolean {
  if (typeof command !== "string") return false;
  const program = words(command).find((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w));
  return program !== undefined && basename(program) === "agent-sudo-hook";
}

/** The script path and pinned socket (if any) of one of our commands. */
export function parseOurCommand(command: string): { script: string; socket?: string } {
  const ws = words(command);
  const pin = ws.find((w) => w.startsWith("AGENT_SUDO_HOOK_SOCKET="));
  const script = ws.find((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w)) ?? "";
  return { script, ...(pin ? { socket: pin.slice("AGENT_SUDO_HOOK_SOCKET=".length) } : {}) };
}

export function ourCommand(script: string, flag: string, socket?: string): string {
  return [socket ? `AGENT_SUDO_HOOK_SOCKET=${shellWord(socket)}` : "", shellWord(script), flag].filter(Boolean).join(" ");
}

export function readSettings(path: string): { settings: Json; existed: boolean } {
  if (!existsSync(path)) return { settings: {}, existed: false };
  let parsed: unknown;
  try {
    const text = readFileSync(path, "utf8");
    parsed = text.trim() === "" ? {} : JSON.parse(text);
  } catch (err) {
    throw new SettingsError(`${path} is not valid JSON (${(err as Error).message}); fix it by hand, nothing was changed`);
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed))
    throw new SettingsError(`${path} is not a JSON object; nothing was changed`);
  const hooks = (parsed as Json).hooks;
  if (hooks !== undefined && (!hooks || typeof hooks !== "object" || Array.isArray(hooks))) {
    throw new SettingsError(`${path}: "hooks" is not an object; nothing was changed`);
  }
  for (const [event, groups] of Object.entries((hooks as Json | undefined) ?? {})) {
    if (!Array.isArray(groups)) throw new SettingsError(`${path}: hooks.${event} is not an array; nothing was changed`);
  }
  return { settings: parsed as Json, existed: true };
}

/** Ours: one of our commands, or one of our http hooks (hook-http.ts). */
function isOurs(hook: HookEntry | undefined): boolean {
  return !!hook && (isOurCommand(hook.command) || isOurHttp(hook));
}

/** Our entries in a settings object: which event, which command (or, for an http hook, its url; command ""). */
export function ourEntries(settings: Json): Array<{ event: string; matcher: unknown; command: string; url?: string }> {
  const found: Array<{ event: string; matcher: unknown; command: string; url?: string }> = [];
  for (const [event, groups] of Object.entries((settings.hooks as Json | undefined) ?? {})) {
    if (!Array.isArray(groups)) continue;
    for (const group of groups as Group[]) {
      if (!group || !Array.isArray(group.hooks)) continue;
      for (const hook of group.hooks as HookEntry[]) {
        if (hook && isOurCommand(hook.command)) found.push({ event, matcher: group.matcher, command: hook.command as string });
        else if (hook && isOurHttp(hook)) found.push({ event, matcher: group.matcher, command: "", url: hook.url as string });
      }
    }
  }
  return found;
}

/** A copy without our entries; groups and events left empty by that removal go too. */
export function withoutOurs(settings: Json): Json {
  const out: Json = structuredClone(settings);
  const hooks = out.hooks as Json | undefined;
  if (!hooks) return out;
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) continue;
    const kept = (groups as Group[]).flatMap((group) => {
      if (!group || !Array.isArray(group.hooks)) return [group];
      const rest = (group.hooks as HookEntry[]).filter((h) => !isOurs(h));
      if (rest.length === group.hooks.length) return [group];
      return rest.length === 0 ? [] : [{ ...group, hooks: rest }];
    });
    if (kept.length === 0 && groups.length > 0) delete hooks[event];
    else hooks[event] = kept;
  }
  if (Object.keys(hooks).length === 0 && Object.keys((settings.hooks as Json | undefined) ?? {}).length > 0) delete out.hooks;
  return out;
}

/**
 * A copy with exactly our registrations (any older ones of ours replaced).
 * With `httpUrl`, PreToolUse is an http hook to that URL (hook-http.ts); the
 * others stay commands.
 */
export function withOurs(settings: Json, script: string, socket?: string, httpUrl?: string): Json {
  const out = withoutOurs(settings);
  const hooks = ((out.hooks as Json | undefined) ?? {}) as Record<string, unknown[]>;
  for (const r of REGISTRATIONS) {
    const entry =
      httpUrl && r.event === "PreToolUse"
        ? httpPreToolUse(httpUrl)
        : { type: "command", command: ourCommand(script, r.flag, socket), timeout: 10, ...(r.async ? { async: true } : {}) };
    const group = r.matcher === undefined ? { hooks: [entry] } : { matcher: r.matcher, hooks: [entry] };
    hooks[r.event] = [...(hooks[r.event] ?? []), group];
  }
  out.hooks = hooks;
  return out;
}

/** JSON with object keys sorted: equal for settings that differ only in key order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Json).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

const USAGE = `usage: agent-sudo hook install   [--scope user|project] [--mode conservative|routed] [--type command|http [--url URL]] [--settings PATH] [--home DIR]
       agent-sudo hook uninstall [--scope user|project] [--settings PATH]

  --scope     user: ~/.claude/settings.json (default); project: ./.claude/settings.json
  --settings  another settings.json instead
  --mode      also set the gateway's hook.mode in <home>/config.json (restart the gateway after)
  --type      command (default): PreToolUse runs hook/agent-sudo-hook (fails closed by itself; honours
              AGENT_SUDO_HOOK_ESCAPE=1). http: PreToolUse is Claude Code's http hook to the gateway's TCP
              port (no process per call; fails closed through onFailure "block"; no escape hatch); sets
              hook.tcp in config.json; the client needs AGENT_SUDO_HOOK_TOKEN (a caller token) in its environment
  --url       the gateway's base URL for --type http (default: http(s)://127.0.0.1:<http.port> from config.json)
  --home      the gateway's state dir (default: AGENT_SUDO_HOME, else ${SYSTEM_HOME} when present, else ~/.agent-sudo)`;

interface HookArgs {
  action: "install" | "uninstall";
  scope: Scope;
  mode?: HookMode;
  type?: "command" | "http";
  url?: string;
  settings?: string;
  home?: string;
}

function parseHookArgs(argv: string[]): HookArgs | string {
  const [action, ...rest] = argv;
  if (action !== "install" && action !== "uninstall") return action ? `unknown hook action ${JSON.stringify(action)}` : "no action given";
  const args: HookArgs = { action, scope: "user" };
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i] as string;
    const eq = arg.indexOf("=");
    const flag = arg.startsWith("--") && eq > 0 ? arg.slice(0, eq) : arg;
    const value = arg.startsWith("--") && eq > 0 ? arg.slice(eq + 1) : rest[++i];
    if (value === undefined) return `${flag} needs a value`;
    if (flag === "--scope") {
      if (value !== "user" && value !== "project") return `--scope is user or project, not ${JSON.stringify(value)}`;
      args.scope = value;
    } else if (flag === "--mode" && action === "install") {
      if (value !== "conservative" && value !== "routed") return `--mode is conservative or routed, not ${JSON.stringify(value)}`;
      args.mode = value;
    } else if (flag === "--type" && action === "install") {
      if (value !== "command" && value !== "http") return `--type is command or http, not ${JSON.stringify(value)}`;
      args.type = value;
    } else if (flag === "--url" && action === "install") {
      if (!/^https?:\/\/[^/]+\/?$/.test(value)) return `--url is the gateway's base URL (http://HOST:PORT), not ${JSON.stringify(value)}`;
      args.url = value.replace(/\/$/, "");
    } else if (flag === "--settings") args.settings = resolve(value);
    else if (flag === "--home" && action === "install") args.home = value;
    else return `unknown option ${JSON.stringify(arg)}`;
  }
  return args;
}

export async function hookCommand(argv: string[]): Promise<number> {
  const say = (line: string) => process.stdout.write(`agent-sudo hook: ${line}\n`);
  if (argv[0] === "--help" || argv[0] === "-h" || argv[0] === "help") {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const args = parseHookArgs(argv);
  if (typeof args === "string") {
    process.stderr.write(`agent-sudo hook: ${args}\n${USAGE}\n`);
    return 2;
  }
  const path = args.settings ?? settingsPath(args.scope);
  let current: { settings: Json; existed: boolean };
  try {
    current = readSettings(path);
  } catch (err) {
    if (!(err instanceof SettingsError)) throw err;
    process.stderr.write(`agent-sudo hook: ${err.message}\n`);
    return 1;
  }
  let next: Json;
  if (args.action === "install") {
    try {
      if ((statSync(HOOK_SCRIPT).mode & 0o111) === 0) throw new Error("not executable");
    } catch (err) {
      process.stderr.write(`agent-sudo hook: ${HOOK_SCRIPT} is missing or not executable (${(err as Error).message})\n`);
      return 1;
    }
    const home = gatewayHome(args.home);
    const socket = join(home, "run", "hook.sock");
    let httpUrl: string | undefined;
    if (args.type === "http") {
      const base = args.url ?? gatewayHookUrl(home);
      if (typeof base !== "string") {
        process.stderr.write(`agent-sudo hook: ${base.error}\n`);
        return 1;
      }
      httpUrl = `${base}/v1/hook`;
    }
    next = withOurs(current.settings, HOOK_SCRIPT, socket === scriptDefaultSocket() ? undefined : socket, httpUrl);
  } else {
    next = withoutOurs(current.settings);
  }
  if (canonical(next) === canonical(current.settings)) {
    say(args.action === "install" ? `already installed in ${path}; nothing changed` : `not installed in ${path}; nothing changed`);
  } else {
    const backup = writeWithBackup(path, `${JSON.stringify(next, null, 2)}\n`, current.existed);
    say(`${args.action === "install" ? "installed in" : "removed from"} ${path}${backup ? ` (previous file kept as ${backup})` : ""}`);
  }
  if (args.action === "uninstall") return 0;
  for (const e of ourEntries(next)) say(`  ${e.event}${typeof e.matcher === "string" ? ` [${e.matcher}]` : ""}: ${e.command}`);
  let code = 0;
  if (args.type === "http") {
    const home = gatewayHome(args.home);
    const tcp = setHookConfig(home, "tcp", true, `set "hook": {"tcp": true} in ${join(home, "config.json")}, then restart the gateway`);
    if (tcp.ok)
      say(
        tcp.changed
          ? `hook.tcp set in ${tcp.file}: the gateway serves /v1/hook on its TCP port behind a Bearer token; restart the gateway`
          : `hook.tcp is already on in ${tcp.file}`,
      );
    else {
      process.stderr.write(`agent-sudo hook: hook.tcp not set: ${tcp.message}\n`);
      code = 1;
    }
    say(
      "the client must have AGENT_SUDO_HOOK_TOKEN (a caller token) in its environment; without it every Bash call is refused (401, onFailure block)",
    );
    say(
      "with --type http, AGENT_SUDO_HOOK_ESCAPE=1 does not help while the gateway is down: `agent-sudo hook uninstall` (or install without --type http) is the way back to normal prompts",
    );
  }
  if (args.mode) {
    const result = setHookMode(gatewayHome(args.home), args.mode);
    if (result.ok) {
      say(
        result.changed
          ? `hook.mode set to ${args.mode} in ${result.file}; restart the gateway for it to take effect`
          : `hook.mode is already ${args.mode} in ${result.file}`,
      );
      const env = process.env.AGENT_SUDO_HOOK_MODE;
      if (env !== undefined && env !== args.mode) say(`note: AGENT_SUDO_HOOK_MODE=${env} in the gateway's environment overrides the file`);
    } else {
      process.stderr.write(`agent-sudo hook: mode not set: ${result.message}\n`);
      code = 1;
    }
  }
  say("new Claude Code sessions use the hook; check it with: agent-sudo doctor");
  return code;
}
