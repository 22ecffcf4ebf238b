// `agent-sudo breaker status|trip|rearm`: talks to the breaker's admin
// sockets. Status and trip go to run/breaker-admin.sock (root, or the
// breaker admin group); rearm goes to run/breaker-rearm.sock, which only
// root can open, and is refused here before that unless run as root. A
// stack started without root (development) has no root boundary at all: its
// own user stands in for root there, and the CLI says so.
import { accessSync, constants, existsSync, statSync } from "node:fs";
import { userInfo } from "node:os";
import { credentials, type Client } from "@grpc/grpc-js";
import { BreakerAdminServiceClient, BreakerRearmServiceClient, type BreakerStatus } from "../proto/gen/agent_sudo/v1/breaker_admin_pb.js";
import { call } from "../services/shared/unary.js";
import { breakerAdminSocketPath, breakerRearmSocketPath, loadConfig } from "../services/shared/config.js";

const USAGE = `usage: agent-sudo breaker status [--json]
       agent-sudo breaker trip --reason TEXT [--by NAME]
       agent-sudo breaker rearm --reason TEXT      (as root)`;

const DEADLINE_MS = 5000;

interface Parsed {
  verb: string;
  reason?: string;
  by?: string;
  json: boolean;
}

function parse(argv: string[]): Parsed | string {
  const [verb, ...rest] = argv;
  if (!verb || !["status", "trip", "rearm"].includes(verb)) return `unknown or missing subcommand ${JSON.stringify(verb ?? "")}`;
  const out: Parsed = { verb, json: false };
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i] ?? "";
    const [flag, inline] =
      arg.startsWith("--") && arg.includes("=") ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)] : [arg, undefined];
    if (flag === "--json") out.json = true;
    else if (flag === "--reason" || flag === "--by") {
      const value = inline ?? rest[++i];
      if (value === undefined) return `${flag} needs a value`;
      if (flag === "--reason") out.reason = value;
      else out.by = value;
    } else return `unknown option ${JSON.stringify(arg)}`;
  }
  if (out.verb !== "status" && (!out.reason || out.reason.trim().length < 3)) return `${out.verb} needs --reason (at least 3 characters)`;
  return out;
}

/** Who is asking, as recorded with a rearm: login name, uid, and the sudo caller if any. */
function whoAmI(): string {
  const uid = process.getuid?.() ?? -1;
  let name = String(uid);
  try {
    name = userInfo().username;
  } catch {
    // no passwd entry: the uid alone
  }
  const via = process.env.SUDO_USER ? ` via sudo from ${process.env.SUDO_USER}` : "";
  return `${name} (uid ${uid})${via}`;
}

function reachable(path: string): string | undefined {
  if (!existsSync(path)) return `no socket at ${path}: is the breaker running (agent-sudo start)?`;
  try {
    accessSync(path, constants.W_OK);
  } catch {
    return `permission denied on ${path}`;
  }
  return undefined;
}

function print(s: BreakerStatus, json: boolean): void {
  if (json) {
    process.stdout.write(`${JSON.stringify(s, null, 2)}\n`);
    return;
  }
  const since = new Date(s.since * 1000).toISOString();
  process.stdout.write(s.armed ? `breaker: ARMED since ${since}\n` : `breaker: DISARMED since ${since} by ${s.rule}: ${s.reason}\n`);
  if (s.rearms.length > 0) {
    process.stdout.write("rearms (newest last):\n");
    for (const e of s.rearms.slice(-10)) process.stdout.write(`  ${new Date(e.at * 1000).toISOString()}  ${e.by}: ${e.reason}\n`);
  }
}

async function withClient<C extends Client, R>(make: () => C, use: (c: C) => Promise<R>): Promise<R> {
  const client = make();
  try {
    return await use(client);
  } finally {
    client.close();
  }
}

function failure(err: unknown): string {
  const e = err as { details?: string; message?: string };
  return e.details ?? e.message ?? String(err);
}

export async function breakerCommand(argv: string[]): Promise<number> {
  const parsed = parse(argv);
  if (typeof parsed === "string") {
    process.stderr.write(`agent-sudo breaker: ${parsed}\n${USAGE}\n`);
    return 2;
  }
  const config = loadConfig();
  const insecure = credentials.createInsecure();
  try {
    if (parsed.verb === "rearm") {
      const path = breakerRearmSocketPath(config);
      const uid = process.getuid?.() ?? -1;
      const devStack = existsSync(path) && uid !== 0 && statSync(path).uid === uid;
      if (uid !== 0 && !devStack) {
        process.stderr.write("agent-sudo breaker: rearm must be run as root (re-arming is a person's act)\n");
        return 1;
      }
      const problem = reachable(path);
      if (problem) throw new Error(problem);
      const by = whoAmI();
      process.stderr.write(
        `agent-sudo breaker: RE-ARMING the breaker as ${by}${devStack ? " (development stack without root)" : ""}: ${parsed.reason}\n`,
      );
      const status = await withClient(
        () => new BreakerRearmServiceClient(`unix://${path}`, insecure),
        (c) => call(c, c.rearm, { reason: parsed.reason ?? "", by }, DEADLINE_MS),
      );
      print(status, parsed.json);
      return status.armed ? 0 : 1;
    }
    const path = breakerAdminSocketPath(config);
    const problem = reachable(path);
    if (problem) throw new Error(problem);
    const status = await withClient(
      () => new BreakerAdminServiceClient(`unix://${path}`, insecure),
      (c) =>
        parsed.verb === "trip"
          ? call(c, c.trip, { reason: parsed.reason ?? "", by: parsed.by ?? whoAmI() }, DEADLINE_MS)
          : call(c, c.status, {}, DEADLINE_MS),
    );
    print(status, parsed.json);
    return 0;
  } catch (err) {
    process.stderr.write(`agent-sudo breaker: ${failure(err)}\n`);
    return 1;
  }
}
