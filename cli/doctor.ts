// `agent-sudo doctor`: is the Claude Code hook installed, and would it work?
// Reports where the hook is registered, the mode, the gateway on TCP and on
// the hook socket, the SessionStart self-test (policy digest), the policy
// signature and breaker state, the exec token, and runs the real hook client
// once. Every problem comes with what to do; any failure exits 1.
// Talks only to the configured gateway URL and the local hook socket.
import { spawn } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { request } from "node:http";
import { dirname, join, resolve } from "node:path";
import { gatewayUrl, tokenFilePath } from "./exec.js";
import { gatewayHome, HOOK_SCRIPT, type Json, ourEntries, parseOurCommand, readSettings, REGISTRATIONS, settingsPath } from "./hook.js";
import { findProgram, pathDirs } from "../services/shared/programs.js";

type Level = "ok" | "warn" | "FAIL" | "info";
interface Finding {
  level: Level;
  what: string;
  fix?: string;
}

interface Answer {
  status: number;
  body: string;
}

/** One HTTP request over TCP or a Unix socket, with a deadline; rejects with the socket error. */
function ask(target: { url?: URL; socketPath?: string }, method: string, path: string, body?: string, timeoutMs = 3000): Promise<Answer> {
  return new Promise((resolveAnswer, reject) => {
    const req = request(
      {
        method,
        path,
        ...(target.socketPath
          ? { socketPath: target.socketPath, host: "agent-sudo" }
          : { host: target.url?.hostname.replace(/^\[|\]$/g, ""), port: target.url?.port || 80 }),
        headers: body === undefined ? {} : { "content-type": "application/json", "content-length": Buffer.byteLength(body) },
        timeout: timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolveAnswer({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }));
        res.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(Object.assign(new Error("timed out"), { code: "ETIMEDOUT" })));
    req.on("error", reject);
    req.end(body);
  });
}

function parse(text: string): Json {
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Json) : {};
  } catch {
    return {};
  }
}

function onPath(program: string): boolean {
  return findProgram(program, pathDirs()) !== undefined;
}

/** Runs the real hook client once with a PreToolUse for `git status`. */
function runHookClient(script: string, socket: string): Promise<{ code: number | null; stdout: string; ms: number }> {
  const event = {
    session_id: "doctor",
    cwd: process.cwd(),
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command: "git status" },
  };
  const env: NodeJS.ProcessEnv = { ...process.env, AGENT_SUDO_HOOK_SOCKET: socket };
  delete env.AGENT_SUDO_HOOK_ESCAPE;
  const t0 = performance.now();
  return new Promise((resolveRun) => {
    const child = spawn(script, [], { env, stdio: ["pipe", "pipe", "ignore"] });
    let stdout = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.on("error", () => resolveRun({ code: null, stdout, ms: performance.now() - t0 }));
    child.on("close", (code) => resolveRun({ code, stdout, ms: performance.now() - t0 }));
    child.stdin.end(JSON.stringify(event));
  });
}

function errCode(err: unknown): string {
  return (err as NodeJS.ErrnoException).code ?? (err as Error).message;
}

const USAGE = `usage: agent-sudo doctor [--settings PATH] [--home DIR] [--socket PATH]

Checks the Claude Code hook end to end; exits 1 when something is wrong.
environment: AGENT_SUDO_URL (default http://127.0.0.1:8084), AGENT_SUDO_HOME, AGENT_SUDO_HOOK_SOCKET, AGENT_SUDO_TOKEN_FILE`;

type Note = (level: Level, what: string, fix?: string) => void;

/** The hook script and what it reaches the gateway with: perl-base, else curl. */
function checkClient(note: Note): void {
  const scriptOk = existsSync(HOOK_SCRIPT) && (statSync(HOOK_SCRIPT).mode & 0o111) !== 0;
  if (scriptOk) note("ok", `hook client ${HOOK_SCRIPT}`);
  else note("FAIL", `hook client ${HOOK_SCRIPT} is missing or not executable`, "reinstall agent-sudo, or chmod 755 it");
  if (onPath("perl")) note("ok", "the hook client talks to the gateway with perl-base");
  else if (onPath("curl")) note("ok", "the hook client talks to the gateway with curl (perl is not installed)");
  else
    note(
      "FAIL",
      "neither perl nor curl is on PATH; the hook client needs one, so every Bash command will be denied",
      "install perl-base or curl",
    );
}

/** Where the hook is registered; returns the socket an installed command pins, if any. */
function checkInstall(note: Note, custom?: string): string | undefined {
  const project = settingsPath("project");
  const places = custom
    ? [{ scope: "custom", path: resolve(custom), fix: `agent-sudo hook install --settings ${custom}` }]
    : [
        { scope: "user", path: settingsPath("user"), fix: "agent-sudo hook install --scope user" },
        { scope: "project", path: project, fix: "agent-sudo hook install --scope project" },
        {
          scope: "project-local",
          path: join(dirname(project), "settings.local.json"),
          fix: "agent-sudo hook uninstall --settings <that file>, then install in one scope",
        },
      ];
  let pinned: string | undefined;
  const installedIn: string[] = [];
  const seen = new Set<string>();
  for (const place of places) {
    if (seen.has(place.path)) continue; // run from $HOME, the project file is the user file
    seen.add(place.path);
    let settings: Json;
    try {
      settings = readSettings(place.path).settings;
    } catch (err) {
      note("FAIL", `${place.scope} settings: ${(err as Error).message}`, "fix the file by hand; Claude Code cannot read it either");
      continue;
    }
    const ours = ourEntries(settings);
    if (ours.length === 0) continue;
    installedIn.push(place.scope);
    const events = REGISTRATIONS.filter((r) =>
      ours.some((o) => o.event === r.event && (r.matcher === undefined || o.matcher === r.matcher)),
    );
    const missing = REGISTRATIONS.filter((r) => !events.includes(r)).map((r) => r.event);
    const commands = ours.filter((o) => o.command !== "");
    const broken = [...new Set(commands.map((o) => parseOurCommand(o.command).script))].filter((script) => !existsSync(script));
    pinned ??= commands.map((o) => parseOurCommand(o.command).socket).find(Boolean);
    const http = ours.find((o) => o.url !== undefined);
    if (http) {
      note("ok", `${place.scope}: PreToolUse is an http hook to ${http.url} (fails closed through onFailure "block"; no escape hatch)`);
      if (!process.env.AGENT_SUDO_HOOK_TOKEN)
        note(
          "warn",
          "AGENT_SUDO_HOOK_TOKEN is not set here; the http hook sends it as the Bearer token, so without it in Claude Code's environment every Bash call is refused",
          "export AGENT_SUDO_HOOK_TOKEN=<a caller token> in the environment Claude Code starts from",
        );
    }
    const where = `${place.scope} (${place.path})`;
    if (broken.length > 0)
      note("FAIL", `${where}: the registered hook ${broken.join(", ")} does not exist, so Claude Code's hook fails`, place.fix);
    else if (missing.length > 0)
      note(
        "FAIL",
        `${where}: registered for ${events.map((r) => r.event).join(", ") || "nothing"}, missing ${missing.join(", ")}`,
        place.fix,
      );
    else note("ok", `hook installed (${place.scope}: ${place.path}): ${REGISTRATIONS.map((r) => r.event).join(", ")}`);
  }
  if (installedIn.length === 0)
    note("FAIL", "the hook is not installed in any settings.json Claude Code reads here", "agent-sudo hook install [--scope user|project]");
  if (installedIn.length > 1)
    note(
      "warn",
      `the hook is installed in more than one scope (${installedIn.join(", ")}); it runs once per registration`,
      "agent-sudo hook uninstall --scope project (or user)",
    );
  return pinned;
}

/** hook.mode as <home>/config.json sets it. */
function configuredMode(configFile: string): string {
  if (!existsSync(configFile)) return "conservative (default)";
  const hook = parse(readFileSync(configFile, "utf8")).hook;
  return hook && typeof hook === "object" && typeof (hook as Json).mode === "string"
    ? String((hook as Json).mode)
    : "conservative (default)";
}

interface Reported {
  breaker: string;
  signature: string;
}

/** GET /health on the TCP URL; returns the breaker and policy-signature states it reports ("unknown" when it does not). */
async function checkTcp(note: Note, home: string): Promise<Reported> {
  let url: URL;
  try {
    url = gatewayUrl();
  } catch (err) {
    note("FAIL", (err as Error).message, "set AGENT_SUDO_URL to the gateway's address");
    return { breaker: "unknown", signature: "unknown" };
  }
  try {
    const res = await ask({ url }, "GET", "/health");
    const body = parse(res.body);
    const services = (body.services ?? {}) as Json;
    const down = Object.entries(services)
      .filter(([, state]) => state !== "up")
      .map(([name]) => name);
    if (res.status === 200) note("ok", `gateway ${url.origin}/health: all ${Object.keys(services).length} services up`);
    else
      note(
        "FAIL",
        `gateway ${url.origin}/health answered ${res.status}${down.length ? `; down: ${down.join(", ")}` : ""}`,
        `see the logs in ${join(home, "logs")}; the supervisor restarts failed services`,
      );
    const policy = (body.policy ?? {}) as Json;
    const signature =
      typeof policy.signature === "string"
        ? `${policy.signature}${policy.enforce === true ? " (enforced)" : " (not enforced)"}`
        : "unknown";
    const b = body.breaker;
    if (typeof b === "string") return { breaker: b, signature };
    if (b && typeof b === "object") {
      const o = b as Json;
      return { breaker: String(o.state ?? (o.armed === true ? "armed" : o.armed === false ? "disarmed" : "unknown")), signature };
    }
    return { breaker: "unknown", signature };
  } catch (err) {
    note(
      "FAIL",
      `gateway ${url.origin}/health unreachable (${errCode(err)})`,
      "start it: agent-sudo start (or systemctl start agent-sudo.target); set AGENT_SUDO_URL if it listens elsewhere",
    );
    return { breaker: "unknown", signature: "unknown" };
  }
}

/** The hook socket: /health, the SessionStart self-test, then the real client once. */
async function checkSocket(note: Note, socket: string, home: string): Promise<{ liveMode?: string; digest: string }> {
  try {
    const health = await ask({ socketPath: socket }, "GET", "/health");
    note(health.status === 200 ? "ok" : "FAIL", `hook socket ${socket}: /health ${health.status}`);
    const start = await ask(
      { socketPath: socket },
      "POST",
      "/v1/hook/session-start",
      JSON.stringify({ hook_event_name: "SessionStart", source: "startup" }),
      5000,
    );
    const context = String(((parse(start.body).hookSpecificOutput ?? {}) as Json).additionalContext ?? "");
    const liveMode = /mode (\w+)/.exec(context)?.[1];
    const digest = /policy ([0-9a-f]+)/.exec(context)?.[1] ?? "unknown";
    if (context.includes("self-test passed")) note("ok", "SessionStart self-test passed (git status allowed, rm -rf / refused)");
    else
      note(
        "FAIL",
        `SessionStart self-test: ${context || `HTTP ${start.status}`}`,
        `check the classifier and policies; logs in ${join(home, "logs")}`,
      );
    const run = await runHookClient(HOOK_SCRIPT, socket);
    if (run.code === 0 && run.stdout.includes('"permissionDecision":"allow"'))
      note("ok", `hook client: git status → allow in ${run.ms.toFixed(0)} ms`);
    else
      note(
        "FAIL",
        `hook client: git status → exit ${String(run.code)}, ${run.stdout.trim() || "no output"}`,
        "run hook/agent-sudo-hook by hand with a PreToolUse JSON on stdin to see why",
      );
    return { ...(liveMode ? { liveMode } : {}), digest };
  } catch (err) {
    const code = errCode(err);
    const fix =
      code === "EACCES"
        ? `this user may not use the socket (mode 0660): set hook.socket_group in ${join(home, "config.json")} to a group this user is in, and restart the gateway`
        : code === "ENOENT" || code === "ECONNREFUSED"
          ? "the gateway is not running with this state dir: start it, or set AGENT_SUDO_HOME / AGENT_SUDO_HOOK_SOCKET; meanwhile every Bash command is denied (AGENT_SUDO_HOOK_ESCAPE=1 restores prompts)"
          : "check the gateway's logs";
    note("FAIL", `hook socket ${socket} unusable (${code})`, fix);
    return { digest: "unknown" };
  }
}

/** The token `agent-sudo exec` reads: needed in routed mode, where every consequential command goes through it. */
function checkToken(note: Note, mode: string): void {
  const tokenFile = tokenFilePath();
  let state: "ok" | "missing" | "open";
  try {
    readFileSync(tokenFile);
    state = (statSync(tokenFile).mode & 0o077) === 0 ? "ok" : "open";
  } catch {
    state = "missing";
  }
  if (state === "ok") note("ok", `exec token: ${tokenFile}`);
  else if (state === "open") note("warn", `exec token ${tokenFile} is readable by other users`, `chmod 600 ${tokenFile}`);
  else
    note(
      mode === "routed" ? "FAIL" : "warn",
      `no exec token at ${tokenFile}; \`agent-sudo exec\` (the route routed mode gives) cannot run`,
      `put this caller's token in ${tokenFile} (chmod 600) or set AGENT_SUDO_TOKEN_FILE`,
    );
}

function parseDoctorArgs(argv: string[]): { settings?: string; home?: string; socket?: string } | "help" | string[] {
  const opts: { settings?: string; home?: string; socket?: string } = {};
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i] as string;
    const value = argv[i + 1];
    if (flag === "--help" || flag === "-h") return "help";
    if ((flag === "--settings" || flag === "--home" || flag === "--socket") && value !== undefined) {
      opts[flag.slice(2) as "settings" | "home" | "socket"] = value;
      i++;
    } else return [flag];
  }
  return opts;
}

export async function doctorCommand(argv: string[]): Promise<number> {
  const opts = parseDoctorArgs(argv);
  if (opts === "help" || Array.isArray(opts)) {
    if (Array.isArray(opts)) process.stderr.write(`agent-sudo doctor: unknown or incomplete option ${JSON.stringify(opts[0])}\n`);
    process[Array.isArray(opts) ? "stderr" : "stdout"].write(`${USAGE}\n`);
    return Array.isArray(opts) ? 2 : 0;
  }
  const findings: Finding[] = [];
  const note: Note = (level, what, fix) => findings.push({ level, what, ...(fix ? { fix } : {}) });
  const home = gatewayHome(opts.home);
  const configFile = join(home, "config.json");

  checkClient(note);
  const pinned = checkInstall(note, opts.settings);
  const { breaker, signature } = await checkTcp(note, home);
  const socket = opts.socket ?? process.env.AGENT_SUDO_HOOK_SOCKET ?? pinned ?? join(home, "run", "hook.sock");
  const { liveMode, digest } = await checkSocket(note, socket, home);

  const fileMode = configuredMode(configFile);
  const mode = liveMode ?? fileMode;
  if (liveMode && !fileMode.startsWith(liveMode)) {
    note(
      "warn",
      `mode: the gateway runs ${liveMode}, ${configFile} says ${fileMode}`,
      "AGENT_SUDO_HOOK_MODE in the gateway's environment overrides the file, or the gateway was not restarted since the change",
    );
  } else note("info", `mode: ${mode}${liveMode ? "" : ` (from ${configFile}; the gateway did not say)`}`);
  note("info", `policy digest: ${digest}`);
  if (signature.startsWith("tampered"))
    note(
      "FAIL",
      `policy signature: ${signature}`,
      "a policy file changed after it was signed: review the change, then `agent-sudo policy sign` (GET /health lists the file)",
    );
  else if (signature.startsWith("unsigned"))
    note("warn", `policy signature: ${signature}`, "sign the policies: agent-sudo policy keygen && agent-sudo policy sign");
  else note("info", `policy signature: ${signature}`);
  if (/disarm|trip|open/i.test(breaker))
    note("FAIL", `breaker: ${breaker} (only tier 0 runs)`, "a person must review the audit and re-arm the breaker");
  else note("info", `breaker: ${breaker}`);
  if (process.env.AGENT_SUDO_HOOK_ESCAPE === "1") {
    note(
      "warn",
      "AGENT_SUDO_HOOK_ESCAPE=1 is set here: a Claude Code started from this shell gets no decisions from the hook",
      "unset AGENT_SUDO_HOOK_ESCAPE once the gateway works",
    );
  }
  checkToken(note, mode);

  const out = process.stdout;
  out.write("agent-sudo doctor\n");
  for (const f of findings) {
    out.write(`  ${f.level.padEnd(4)}  ${f.what}\n`);
    if (f.fix) out.write(`        → ${f.fix}\n`);
  }
  const failed = findings.filter((f) => f.level === "FAIL").length;
  out.write(failed ? `${failed} problem${failed > 1 ? "s" : ""} found\n` : "no problems found\n");
  return failed ? 1 : 0;
}
