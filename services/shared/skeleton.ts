// The one start-up path every service takes (Postfix's single_server):
// load config → bind its Unix socket (mode 0600, owned by the one caller)
// → load keys → drop to the service's own user (all but the executor) →
// serve a closed table of RPCs. Nothing is served before the drop.
import { chmodSync, chownSync, existsSync, lstatSync, mkdirSync, unlinkSync } from "node:fs";
import {
  Server,
  ServerCredentials,
  status,
  type sendUnaryData,
  type ServerUnaryCall,
  type ServiceDefinition,
  type UntypedServiceImplementation,
} from "@grpc/grpc-js";
import { Socket } from "node:net";
import type { ZodType } from "zod";
import { type Config, loadConfig, type ServiceName, socketPath, type UnprivilegedService } from "./config.js";
import { CodedError, ERRORS } from "./errors.js";
import { createLogger, type Logger } from "./log.js";
import { dropPrivileges, isRoot, lookupUser } from "./privilege.js";

/** What a handler may know of its call: when the caller stops waiting. */
export interface CallContext {
  /** The caller's deadline (ms since the epoch; Infinity without one). */
  deadlineMs: number;
  /** The caller gave up (cancelled, or its deadline passed). */
  cancelled(): boolean;
}

export interface Rpc<Req, Res> {
  /** Shape check of the decoded request, before the handler sees it. */
  schema?: ZodType<unknown>;
  /**
   * Checked on the raw bytes, before anything is decoded: the most times each
   * top-level field number may occur (a repeated or map field once per
   * entry); a field not named here at most once. Without it, any count.
   */
  fieldCounts?: Readonly<Record<number, number>>;
  handle(req: Req, log: Logger, call: CallContext): Promise<Res>;
}

// Handlers are typed by the generated service; the table erases them.
// biome-ignore lint/suspicious/noExplicitAny: the table erases the generated handler types
export type RpcTable = Record<string, Rpc<any, any>>;

export interface ServiceSpec<State> {
  name: ServiceName;
  definition: ServiceDefinition;
  /** Largest request this service accepts, in bytes. */
  maxReceiveBytes: number;
  maxSendBytes?: number;
  /** Runs with full privileges after the bind: read keys, policies, tokens. */
  prepare(config: Config, log: Logger): Promise<State> | State;
  table(state: State, config: Config, log: Logger): RpcTable;
}

function requestIdOf(req: unknown): string | undefined {
  const id = (req as { requestId?: unknown } | null)?.requestId;
  return typeof id === "string" && id ? id : undefined;
}

/** What a request whose raw bytes broke its RPC's fieldCounts decodes to: refused before its handler. */
class Uncounted {
  constructor(readonly why: string) {}
}

/**
 * Why `buf`, read as a protobuf message's top-level fields without decoding
 * any, has a field more often than `most` allows (or is not a message), or
 * undefined. Counts entries at no cost: nothing is built from them.
 */
export function fieldCountProblem(buf: Uint8Array, most: Readonly<Record<number, number>>): string | undefined {
  const seen = new Map<number, number>();
  let at = 0;
  const varint = (): number => {
    let value = 0;
    for (let shift = 1, n = 0; n < 10 && at < buf.length; n++, shift *= 128) {
      const b = buf[at++] as number;
      value += (b & 0x7f) * shift;
      if (b < 0x80) return value;
    }
    at = Number.POSITIVE_INFINITY; // no end within 10 bytes or the message: not a message
    return 0;
  };
  while (at < buf.length) {
    const key = varint();
    if (at > buf.length) break;
    const field = Math.floor(key / 8);
    const count = (seen.get(field) ?? 0) + 1;
    seen.set(field, count);
    if (count > (most[field] ?? 1)) return `field ${field} more than ${most[field] ?? 1} times`;
    const wire = key % 8;
    if (wire === 0) varint();
    else if (wire === 1) at += 8;
    else if (wire === 2) {
      const length = varint(); // read first: `at += varint()` would add to the old `at`
      at += length;
    } else if (wire === 5) at += 4;
    else return `field ${field}: wire type ${wire}`;
  }
  return at > buf.length ? "truncated" : undefined;
}

/** `definition` with each RPC that has fieldCounts checking them before its own decoder runs. */
export function countedDefinition(definition: ServiceDefinition, table: RpcTable): ServiceDefinition {
  const out: Record<string, ServiceDefinition[string]> = {};
  for (const [method, def] of Object.entries(definition)) {
    const most = table[def.path.split("/").pop() ?? method]?.fieldCounts;
    out[method] = !most
      ? def
      : {
          ...def,
          requestDeserialize: (buf: Buffer) => {
            const why = fieldCountProblem(buf, most);
            return why === undefined ? def.requestDeserialize(buf) : new Uncounted(why);
          },
        };
  }
  return out as ServiceDefinition;
}

function wrap(name: string, rpc: Rpc<unknown, unknown>, log: Logger, ready: () => boolean) {
  return (call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>): void => {
    const reqLog = log.child({ rpc: name, request_id: requestIdOf(call.request) });
    if (!ready()) {
      callback({ code: status.UNAVAILABLE, details: "UNAVAILABLE" });
      return;
    }
    if (call.request instanceof Uncounted) {
      reqLog.warn({ why: call.request.why }, "malformed request refused before decoding");
      callback({ code: status.INVALID_ARGUMENT, details: "BAD_REQUEST" });
      return;
    }
    if (rpc.schema) {
      const parsed = rpc.schema.safeParse(call.request);
      if (!parsed.success) {
        reqLog.warn({ issues: parsed.error.issues.slice(0, 5) }, "malformed request refused");
        callback({ code: status.INVALID_ARGUMENT, details: "BAD_REQUEST" });
        return;
      }
    }
    const d = call.getDeadline();
    const deadlineMs = d instanceof Date ? d.getTime() : typeof d === "number" ? d : Infinity;
    const ctx: CallContext = { deadlineMs, cancelled: () => call.cancelled || Date.now() >= deadlineMs };
    rpc.handle(call.request, reqLog, ctx).then(
      (res) => callback(null, res),
      (err: unknown) => {
        if (err instanceof CodedError) {
          reqLog.warn({ code: err.code, detail: err.detail }, "request refused");
          // Only a bad request's detail is the caller's business (which field).
          const details = err.code === "BAD_REQUEST" && err.detail ? `${err.code}: ${err.detail}` : err.code;
          callback({ code: ERRORS[err.code].grpc, details });
        } else {
          reqLog.error({ err }, "handler failed");
          callback({ code: status.INTERNAL, details: "INTERNAL" });
        }
      },
    );
  };
}

/**
 * The implementation of `definition` from `table`, checked both ways: every
 * RPC of the .proto has a handler and every handler is an RPC of the .proto
 * (keyed by the RPC names: Execute, Health …). Each call is shape-checked,
 * refused while not `ready`, and answered with the closed error vocabulary.
 */
export function closedTable(
  service: string,
  definition: ServiceDefinition,
  table: RpcTable,
  log: Logger,
  ready: () => boolean,
): UntypedServiceImplementation {
  const impl: UntypedServiceImplementation = {};
  for (const [method, def] of Object.entries(definition)) {
    const rpcName = def.path.split("/").pop() ?? method;
    const rpc = table[rpcName];
    if (!rpc) throw new Error(`${service}: no handler for ${rpcName}`);
    impl[method] = wrap(rpcName, rpc, log, ready);
  }
  for (const name of Object.keys(table)) {
    if (!Object.values(definition).some((d) => d.path.endsWith(`/${name}`))) throw new Error(`${service}: ${name} is not in the service`);
  }
  return impl;
}

/** A gRPC server bound to the Unix socket `path` (a stale one cleared first), created under umask 077, then given `mode` and `owner`. */
export async function bindSocket(
  path: string,
  limits: { maxReceiveBytes: number; maxSendBytes: number; maxStreams: number },
  mode: number,
  owner?: { uid: number; gid: number },
): Promise<Server> {
  clearStaleSocket(path);
  const server = new Server({
    "grpc.max_receive_message_length": limits.maxReceiveBytes,
    "grpc.max_send_message_length": limits.maxSendBytes,
    "grpc.max_concurrent_streams": limits.maxStreams,
    // No channelz bookkeeping: per-call tracing CPU on every hop, read by nobody here.
    "grpc.enable_channelz": 0,
  });
  const previousUmask = process.umask(0o177);
  try {
    await new Promise<void>((resolve, reject) =>
      server.bindAsync(`unix://${path}`, ServerCredentials.createInsecure(), (err) => (err ? reject(err) : resolve())),
    );
  } finally {
    process.umask(previousUmask);
  }
  chmodSync(path, mode);
  if (owner) chownSync(path, owner.uid, owner.gid);
  return server;
}

/** Removes a stale socket left by a previous run; refuses to remove anything else. */
export function clearStaleSocket(path: string): void {
  if (existsSync(path)) {
    if (!lstatSync(path).isSocket()) throw new Error(`${path} exists and is not a socket`);
    unlinkSync(path);
  }
}

/** Who may connect to each service's socket: the gateway, alone. */
function socketOwner(config: Config): { uid: number; gid: number } | undefined {
  if (!isRoot()) return undefined;
  const gw = lookupUser(config.users.gateway);
  if (!gw) throw new Error(`user ${config.users.gateway} does not exist (create it, or run agent-sudo start as root)`);
  return { uid: gw.uid, gid: gw.gid };
}

/** When root, become the service's own user for good (all but the executor). */
export function dropToServiceUser(config: Config, name: UnprivilegedService): void {
  if (!isRoot()) return;
  const user = config.users[name];
  const account = lookupUser(user);
  if (!account) throw new Error(`user ${user} for ${name} does not exist`);
  dropPrivileges(account);
}

/**
 * Under `agent-sudo start` the supervisor hands each service the read end of
 * a pipe (AGENT_SUDO_SUPERVISOR_FD): its end closes when the supervisor dies,
 * however it dies, and the service exits with it instead of serving on
 * unsupervised (a killed supervisor would otherwise leave a stack no one
 * restarts). Under systemd there is no such fd.
 */
export function dieWithSupervisor(log: Logger): void {
  const fd = Number(process.env.AGENT_SUDO_SUPERVISOR_FD);
  if (!Number.isInteger(fd) || fd < 3) return;
  delete process.env.AGENT_SUDO_SUPERVISOR_FD;
  const watch = new Socket({ fd, readable: true, writable: false });
  watch.on("data", () => undefined);
  watch.once("close", () => {
    log.error("the supervisor is gone: exiting with it");
    process.exit(75);
  });
  watch.on("error", () => undefined);
}

export async function runService<State>(spec: ServiceSpec<State>): Promise<void> {
  const log = createLogger(spec.name);
  process.on("uncaughtException", (err) => {
    log.fatal({ err }, "uncaught exception; exiting");
    process.exit(70);
  });
  dieWithSupervisor(log);
  const config = loadConfig();
  mkdirSync(config.runDir, { recursive: true, mode: 0o711 });
  const path = socketPath(config, spec.name);

  let isReady = false;
  const server = await bindSocket(
    path,
    { maxReceiveBytes: spec.maxReceiveBytes, maxSendBytes: spec.maxSendBytes ?? 4 * 1024 * 1024, maxStreams: 64 },
    0o600,
    socketOwner(config),
  );

  const state = await spec.prepare(config, log);
  const table = spec.table(state, config, log);

  if (spec.name !== "executor") dropToServiceUser(config, spec.name);

  server.addService(
    countedDefinition(spec.definition, table),
    closedTable(spec.name, spec.definition, table, log, () => isReady),
  );
  isReady = true;
  log.info({ socket: path, uid: process.getuid?.() }, "serving");

  const stop = (signal: string) => {
    log.info({ signal }, "stopping");
    server.tryShutdown(() => process.exit(0));
    setTimeout(() => process.exit(0), 2000).unref();
  };
  process.once("SIGTERM", () => stop("SIGTERM"));
  process.once("SIGINT", () => stop("SIGINT"));
}

export function healthRpc(service: ServiceName, detail: () => string = () => "", ok: () => boolean = () => true) {
  return {
    async handle() {
      return { service, ok: ok(), detail: detail(), pid: process.pid, uid: process.getuid?.() ?? -1 };
    },
  };
}
