// `agent-sudo exec [--timeout S] [--cwd DIR] -- 'CMD'`: runs one command
// through the broker's POST /exec, as the caller whose token sits in a
// user-readable file. This is the route the hook's routed mode points the
// agent to: the hook allows the `agent-sudo exec` line itself and /exec
// judges the command inside (trial, snapshot, audit, or refusal).
//
// Trusts: the gateway at AGENT_SUDO_URL (plain http only on loopback, so the
// token never crosses a network unencrypted). Prints the command's stdout and
// stderr and exits with its exit code; a broker refusal or failure exits with
// one of the EXIT codes below, chosen from sysexits.h so they rarely collide
// with a command's own codes.
import { readFileSync, statSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { UsageError } from "./command.js";

export const EXIT = {
  /** Bad arguments to `agent-sudo exec`. */
  USAGE: 64,
  /** 400/413: the gateway found the request malformed (bad cwd, oversized command). */
  BAD_REQUEST: 65,
  /** Gateway unreachable, or 503: a part of the broker is down. */
  UNAVAILABLE: 69,
  /** 500, or an answer that is not the /exec contract. */
  INTERNAL: 70,
  /** 429: the executor is busy; retry. */
  BUSY: 75,
  /** 403: refused by policy (tier 4, a failed trial, a disarmed breaker, a veto). */
  REFUSED: 77,
  /** 401, or the token file is missing or unreadable. */
  TOKEN: 78,
} as const;

const USAGE = `usage: agent-sudo exec [--timeout S] [--cwd DIR] -- 'CMD'

Runs CMD through the broker's POST /exec and exits with its exit code.
  --timeout S   seconds the command may run (1–3600; the gateway's default is 300)
  --cwd DIR     working directory (default: the current one)

environment:
  AGENT_SUDO_URL         the gateway (default http://127.0.0.1:8084; http only on loopback)
  AGENT_SUDO_TOKEN_FILE  the caller's token (default ~/.config/agent-sudo/token)

exit codes: the command's own; or 64 usage, 65 bad request (400/413),
69 broker unavailable (unreachable/503), 70 internal error, 75 busy (429),
77 refused (403), 78 token missing or rejected (401)`;

interface ExecArgs {
  command: string;
  timeout?: number;
  cwd: string;
}

export function parseExecArgs(argv: string[], cwd: string = process.cwd()): ExecArgs {
  let timeout: number | undefined;
  let dir = cwd;
  let i = 0;
  for (; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === "--") {
      i++;
      break;
    }
    const [flag, inline] =
      arg.startsWith("--") && arg.includes("=") ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)] : [arg, undefined];
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined) throw new UsageError(`${flag} needs a value`);
      return v;
    };
    if (flag === "--timeout") {
      const v = value();
      timeout = Number(v);
      if (!/^\d+$/.test(v) || timeout < 1 || timeout > 3600)
        throw new UsageError(`--timeout must be a whole number of seconds from 1 to 3600, not ${JSON.stringify(v)}`);
    } else if (flag === "--cwd") {
      dir = resolve(cwd, value());
    } else if (arg.startsWith("-")) {
      throw new UsageError(`unknown option ${JSON.stringify(arg)}`);
    } else {
      break; // the command without a `--`
    }
  }
  const words = argv.slice(i);
  if (words.length === 0) throw new UsageError("no command given");
  const command = words.join(" ");
  if (command.trim() === "") throw new UsageError("the command is empty");
  return { command, ...(timeout === undefined ? {} : { timeout }), cwd: dir };
}

export function tokenFilePath(env: NodeJS.ProcessEnv = process.env): string {
  return env.AGENT_SUDO_TOKEN_FILE || join(homedir(), ".config", "agent-sudo", "token");
}

class TokenError extends Error {}

export function readToken(file: string): string {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new TokenError(
      code === "ENOENT"
        ? `no token file at ${file}. Put the caller's token there (chmod 600), or point AGENT_SUDO_TOKEN_FILE at it.`
        : `cannot read the token file ${file} (${code ?? "error"}).`,
    );
  }
  const token = text.trim();
  if (!/^[\x21-\x7e]{16,512}$/.test(token))
    throw new TokenError(`the token file ${file} does not hold a token (16–512 printable characters, one line).`);
  try {
    if ((statSync(file).mode & 0o077) !== 0)
      process.stderr.write(`agent-sudo exec: warning: ${file} is readable by other users; chmod 600 it\n`);
  } catch {
    // it was just read; a vanished file only loses the warning
  }
  return token;
}

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

export function gatewayUrl(env: NodeJS.ProcessEnv = process.env): URL {
  const raw = env.AGENT_SUDO_URL || "http://127.0.0.1:8084";
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`AGENT_SUDO_URL is not a URL: ${JSON.stringify(raw)}`);
  }
  if (url.protocol === "https:") return url;
  if (url.protocol === "http:" && (LOOPBACK.has(url.hostname) || /^127\.\d+\.\d+\.\d+$/.test(url.hostname))) return url;
  throw new UsageError(`AGENT_SUDO_URL must be https, or http on loopback (the token must not cross a network in clear): ${raw}`);
}

/** POSTs a JSON body with the Bearer token; node:http rather than fetch, which refuses some ports. */
function post(url: URL, token: string, payload: string, timeoutMs: number): Promise<{ status: number; text: string }> {
  const request = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolveAnswer, reject) => {
    const req = request(
      url,
      {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json", "content-length": Buffer.byteLength(payload) },
        timeout: timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolveAnswer({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }));
        res.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(Object.assign(new Error("no answer in time"), { code: "ETIMEDOUT" })));
    req.on("error", reject);
    req.end(payload);
  });
}

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/** Maps an /exec answer to output and an exit code. */
export function reportAnswer(status: number, body: Record<string, unknown>, say: (line: string) => void): number {
  if (status === 200 && typeof body.exit_code === "number") {
    process.stdout.write(text(body.output));
    process.stderr.write(text(body.stderr));
    if (body.truncated === true) say("output truncated by the executor's cap");
    if (body.timed_out === true) say("the command timed out and was stopped");
    return Number.isInteger(body.exit_code) && body.exit_code >= 0 && body.exit_code <= 255 ? body.exit_code : EXIT.INTERNAL;
  }
  const id = text(body.request_id) ? ` (request ${text(body.request_id)})` : "";
  switch (status) {
    case 400:
    case 413:
      say(`the gateway rejected the request: ${text(body.details) || text(body.error) || `HTTP ${status}`}${id}`);
      return EXIT.BAD_REQUEST;
    case 401:
      say("the gateway rejected the token (401). Check the token file (AGENT_SUDO_TOKEN_FILE) against the gateway's tokens.json.");
      return EXIT.TOKEN;
    case 403:
      say(
        `refused (tier ${String(body.tier ?? "?")}): ${text(body.reason) || "no reason given"}${id}. ` +
          "The broker will not run this; a person must run it in an interactive session.",
      );
      return EXIT.REFUSED;
    case 429:
      say(`the executor is busy; retry in a moment${id}`);
      return EXIT.BUSY;
    case 503:
      say(
        `the broker is unavailable: ${text(body.component) || "a service"} is down; nothing was run. Try again shortly or run: agent-sudo doctor`,
      );
      return EXIT.UNAVAILABLE;
    default:
      say(`unexpected answer from the gateway: HTTP ${status} ${text(body.error)}${id}`);
      return EXIT.INTERNAL;
  }
}

export async function execCommand(argv: string[]): Promise<number> {
  const say = (line: string) => process.stderr.write(`agent-sudo exec: ${line}\n`);
  if (argv[0] === "--help" || argv[0] === "-h") {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  let args: ExecArgs;
  let url: URL;
  let token: string;
  try {
    args = parseExecArgs(argv);
    url = gatewayUrl();
    token = readToken(tokenFilePath());
  } catch (err) {
    if (err instanceof UsageError) {
      say(err.message);
      process.stderr.write(`${USAGE}\n`);
      return EXIT.USAGE;
    }
    if (err instanceof TokenError) {
      say(err.message);
      return EXIT.TOKEN;
    }
    throw err;
  }
  if (!isAbsolute(args.cwd)) args.cwd = resolve(args.cwd);
  // The gateway bounds the run by `timeout`; wait for that plus its own margins.
  const waitMs = ((args.timeout ?? 300) + 30) * 1000;
  const payload = JSON.stringify({
    command: args.command,
    cwd: args.cwd,
    ...(args.timeout === undefined ? {} : { timeout: args.timeout }),
  });
  let res: { status: number; text: string };
  try {
    res = await post(new URL("/exec", url), token, payload, waitMs);
  } catch (err) {
    say(
      `cannot reach the gateway at ${url.origin} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); nothing was run. Is it running? Try: agent-sudo doctor`,
    );
    return EXIT.UNAVAILABLE;
  }
  let body: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(res.text);
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) body = parsed as Record<string, unknown>;
  } catch {
    // an unparsable body is reported by status below
  }
  return reportAnswer(res.status, body, say);
}
