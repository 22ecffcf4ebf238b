// The breaker's two administrative sockets, bound as root before the
// privilege drop (the skeleton's discipline) and served only once the drop
// is done:
//   run/breaker-admin.sock  Trip, Status  0660 root:<admin_group>, or 0600 root:root
//   run/breaker-rearm.sock  Rearm         0600 root:root — only root can connect
// The kernel's permission check on connect() is the authentication: no
// token, nothing in the request decides who may call. Bound and served by
// the skeleton's own bindSocket and closedTable (small messages, zod-checked
// requests, request ids in the log, coded errors only).
import { z } from "zod";
import {
  BreakerAdminServiceService,
  BreakerRearmServiceService,
  type BreakerStatus,
  type RearmRequest,
  type TripRequest,
} from "../../proto/gen/agent_sudo/v1/breaker_admin_pb.js";
import { breakerAdminSocketPath, breakerRearmSocketPath, type Config } from "../shared/config.js";
import type { Logger } from "../shared/log.js";
import { isRoot, lookupGroupId } from "../shared/privilege.js";
import { bindSocket, closedTable } from "../shared/skeleton.js";

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

export interface AdminSockets {
  /** Starts answering (call after the privilege drop). */
  open(): void;
  close(): void;
}

/** Binds both sockets now (as root, before the drop); they answer UNAVAILABLE until `open`. */
export async function bindAdminSockets(
  config: Config,
  adminGroup: string | undefined,
  h: AdminHandlers,
  log: Logger,
): Promise<AdminSockets> {
  let ready = false;
  const isReady = () => ready;
  let gid: number | undefined;
  if (adminGroup !== undefined && isRoot()) {
    gid = lookupGroupId(adminGroup);
    if (gid === undefined) throw new Error(`breaker admin group ${adminGroup} does not exist`);
  }
  // Small limits: a reason and a name, a status back.
  const limits = { maxReceiveBytes: 4096, maxSendBytes: 256 * 1024, maxStreams: 8 };
  const owner = (g: number | undefined) => (isRoot() ? { uid: 0, gid: g ?? 0 } : undefined);
  const admin = await bindSocket(breakerAdminSocketPath(config), limits, gid === undefined ? 0o600 : 0o660, owner(gid));
  admin.addService(
    BreakerAdminServiceService,
    closedTable(
      "breaker admin",
      BreakerAdminServiceService,
      {
        Trip: { schema: TripShape, handle: async (r: TripRequest, l: Logger) => h.trip(r, l) },
        Status: { handle: async () => h.status() },
      },
      log.child({ socket: "admin" }),
      isReady,
    ),
  );
  const rearm = await bindSocket(breakerRearmSocketPath(config), limits, 0o600, owner(undefined));
  rearm.addService(
    BreakerRearmServiceService,
    closedTable(
      "breaker rearm",
      BreakerRearmServiceService,
      { Rearm: { schema: RearmShape, handle: async (r: RearmRequest, l: Logger) => h.rearm(r, l) } },
      log.child({ socket: "rearm" }),
      isReady,
    ),
  );
  log.info(
    { admin: breakerAdminSocketPath(config), admin_group: adminGroup ?? null, rearm: breakerRearmSocketPath(config) },
    "admin sockets bound",
  );
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
