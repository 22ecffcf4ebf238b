// The breaker's two administrative sockets, bound as root before the
// privilege drop (the skeleton's discipline) and served only once the drop
// is done:
//   run/breaker-admin.sock  Trip, Status  0660 root:<admin_group>, or 0600 root:root
//   run/breaker-rearm.sock  Rearm         0600 root:root — only root can connect
// The kernel's permission check on connect() is the authentication: no
// token, nothing in the request decides who may call. Closed tables, small
// messages, zod-checked requests, coded errors only.
import { chmodSync, chownSync } from "node:fs";
import {
  Server,
  ServerCredentials,
  status,
  type sendUnaryData,
  type ServerUnaryCall,
  type ServiceDefinition,
  type UntypedServiceImplementation,
} from "@grpc/grpc-js";
import { z, type ZodType } from "zod";
import {
  BreakerAdminServiceService,
  BreakerRearmServiceService,
  type BreakerStatus,
  type RearmRequest,
  type TripRequest,
} from "../../proto/gen/agent_sudo/v1/breaker_admin_pb.js";
import { breakerAdminSocketPath, breakerRearmSocketPath, type Config } from "../shared/config.js";
import { CodedError, ERRORS } from "../shared/errors.js";
import type { Logger } from "../shared/log.js";
import { isRoot, lookupGroupId } from "../shared/privilege.js";
import { clearStaleSocket } from "../shared/skeleton.js";

// A reason is one printable line a person can read in the record.
const reason = z
  .string()
  .min(3)
  .max(500)
  .regex(/^[^\p{Cc}]+$/u, "one line of printable text");
const by = z
  .string()
  .max(100)
  .regex(/^[^\p{Cc}]*$/u);
const TripShape = z.object({ reason, by });
const RearmShape = z.object({ reason, by });

export interface AdminHandlers {
  trip(req: TripRequest, log: Logger): BreakerStatus;
  status(): BreakerStatus;
  rearm(req: RearmRequest, log: Logger): BreakerStatus;
}

interface Handler {
  schema?: ZodType<unknown>;
  handle(req: unknown, log: Logger): BreakerStatus;
}


function serve(def: ServiceDefinition, table: Record<string, Handler>, log: Logger, ready: () => boolean): UntypedServiceImplementation {
  const impl: UntypedServiceImplementation = {};
  for (const [method, d] of Object.entries(def)) {
    const name = d.path.split("/").pop() ?? method;
    const h = table[name];
    if (!h) throw new Error(`breaker admin: no handler for ${name}`);
    impl[method] = (call: ServerUnaryCall<unknown, unknown>, cb: sendUnaryData<unknown>) => {
      const reqLog = log.child({ rpc: name, socket: "admin" });
      if (!ready()) return cb({ code: status.UNAVAILABLE, details: "UNAVAILABLE" });
      const parsed = h.schema?.safeParse(call.request);
      if (parsed && !parsed.success) {
        reqLog.warn({ issues: parsed.error.issues.slice(0, 5) }, "malformed admin request refused");
        return cb({ code: status.INVALID_ARGUMENT, details: `BAD_REQUEST: ${parsed.error.issues[0]?.path.join(".") ?? ""}` });
      }
      try {
        cb(null, h.handle(call.request, reqLog));
      } catch (err) {
        if (err instanceof CodedError) {
          reqLog.warn({ code: err.code, detail: err.detail }, "admin request refused");
          return cb({ code: ERRORS[err.code].grpc, details: err.code });
        }
        reqLog.error({ err }, "admin handler failed");
        cb({ code: status.INTERNAL, details: "INTERNAL" });
      }
    };
  }
  return impl;
}

async function bindOne(path: string, def: ServiceDefinition, impl: UntypedServiceImplementation, mode: number, gid: number | undefined): Promise<Server> {
  clearStaleSocket(path);
  const server = new Server({ "grpc.max_receive_message_length": 4096, "grpc.max_send_message_length": 256 * 1024, "grpc.max_concurrent_streams": 8 });
  server.addService(def, impl);
  const previous = process.umask(0o177);
  try {
    await new Promise<void>((resolve, reject) => server.bindAsync(`unix://${path}`, ServerCredentials.createInsecure(), (err) => (err ? reject(err) : resolve())));
  } finally {
    process.umask(previous);
  }
  chmodSync(path, mode);
  if (isRoot()) chownSync(path, 0, gid ?? 0);
  return server;
}

export interface AdminSockets {
  /** Starts answering (call after the privilege drop). */
  open(): void;
  close(): void;
}

/** Binds both sockets now (as root, before the drop); they answer UNAVAILABLE until `open`. */
export async function bindAdminSockets(config: Config, adminGroup: string | undefined, h: AdminHandlers, log: Logger): Promise<AdminSockets> {
  let ready = false;
  const isReady = () => ready;
  let gid: number | undefined;
  if (adminGroup !== undefined && isRoot()) {
    gid = lookupGroupId(adminGroup);
    if (gid === undefined) throw new Error(`breaker admin group ${adminGroup} does not exist`);
  }
  const admin = await bindOne(
    breakerAdminSocketPath(config),
    BreakerAdminServiceService,
    serve(BreakerAdminServiceService, { Trip: { schema: TripShape, handle: (r, l) => h.trip(r as TripRequest, l) }, Status: { handle: () => h.status() } }, log, isReady),
    gid === undefined ? 0o600 : 0o660,
    gid,
  );
  const rearm = await bindOne(
    breakerRearmSocketPath(config),
    BreakerRearmServiceService,
    serve(BreakerRearmServiceService, { Rearm: { schema: RearmShape, handle: (r, l) => h.rearm(r as RearmRequest, l) } }, log, isReady),
    0o600,
    undefined,
  );
  log.info({ admin: breakerAdminSocketPath(config), admin_group: adminGroup ?? null, rearm: breakerRearmSocketPath(config) }, "admin sockets bound");
  return {
    open: () => {
      ready = true;
    },
    close: () => {
      admin.forceShutdown();
      rearm.forceShutdown();
    },
  };
}
