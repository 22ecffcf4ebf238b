// agent-sudo breaker — SECURITY: the self-disarming circuit breaker (seed
// D9). It issues the short signed "armed" leases every tier >= 1 execution
// needs, and hears every outcome the gateway reports. Runs as its own user
// (agent-sudo-brk) after binding, as root, three sockets:
//   run/breaker.sock        Lease, Report, RollbackGrant, Health, Status (read only)   0600, the gateway's user
//   run/breaker-admin.sock  Trip, Status            0660 root:<admin_group> | 0600 root
//   run/breaker-rearm.sock  Rearm                   0600 root (only root connects)
// Trusts: its private key and its own state dir (state/breaker, 0700, its
// user), both set up before the drop. Trusts nothing in a report beyond what
// it counts. It signs a rollback grant only for the undo record of a tier-3
// command it heard fail, once. Trips on ≥ N tier-3 failures in W minutes, any tier-4 attempt,
// a request rate above R/min, a failure ratio above F over the last M; so may
// anyone who can open the admin socket. Tripped = disarmed: no leases, so
// the executor runs tier 0 only. The disarmed state is fsynced before it
// takes effect and survives restarts; an unreadable state file starts it
// disarmed. Only a person re-arms it (root, the CLI, with a reason; recorded).
// Notifications go to ntfy and never block a decision.
import { z } from "zod";
import {
  BreakerServiceService,
  type LeaseRequest,
  type Outcome,
  type RollbackGrantRequest,
} from "../../proto/gen/agent_sudo/v1/breaker_pb.js";
import type { RearmRequest, TripRequest } from "../../proto/gen/agent_sudo/v1/breaker_admin_pb.js";
import { loadPrivateKey } from "../shared/keys.js";
import { createLogger } from "../shared/log.js";
import { Notifier, ntfySettingsFromEnv } from "../shared/ntfy.js";
import { consoleUrl } from "../shared/console-url.js";
import { isRoot, lookupUser } from "../shared/privilege.js";
import { requestId } from "../shared/shapes.js";
import { healthRpc, runService } from "../shared/skeleton.js";
import { type AdminSockets, bindAdminSockets } from "./admin.js";
import { Breaker } from "./breaker.js";
import { TripRules } from "./rules.js";
import { breakerSettingsFromEnv } from "./settings.js";
import { BreakerState, prepareStateDir } from "./state.js";

// Tier enum values 1..5 (tier 0..4); UNSPECIFIED is malformed.
const tierEnum = z.number().int().min(1).max(5);
const LeaseShape = z.object({
  requestId,
  commandDigest: z.instanceof(Uint8Array).refine((d) => d.length === 32),
  tier: tierEnum,
  host: z.string().min(1).max(64),
});
const undoId = z.string().regex(/^$|^[0-9a-f-]{36}$/);
const OutcomeShape = z.object({ requestId, tier: tierEnum, ok: z.boolean(), refused: z.boolean(), undoId, unaudited: z.boolean() });
const GrantShape = z.object({ requestId, undoId: z.string().regex(/^[0-9a-f-]{36}$/) });

// Bound in prepare (as root); opened once runService has dropped privileges.
let admin: AdminSockets | undefined;

await runService<Breaker>({
  name: "breaker",
  definition: BreakerServiceService,
  maxReceiveBytes: 16 * 1024,
  async prepare(config, log) {
    const settings = breakerSettingsFromEnv();
    const owner = isRoot() ? lookupUser(config.users.breaker) : undefined;
    if (isRoot() && !owner) throw new Error(`user ${config.users.breaker} does not exist`);
    const dir = prepareStateDir(config.stateDir, owner);
    const persisted = new BreakerState(dir, owner);
    if (persisted.loadProblem) log.error({ problem: persisted.loadProblem }, "breaker state unreadable: starting DISARMED");
    const notifier = new Notifier(
      { ...ntfySettingsFromEnv(), consoleUrl: consoleUrl(config) },
      createLogger("breaker").child({ part: "ntfy" }),
    );
    const breaker = new Breaker(
      persisted,
      new TripRules(settings),
      settings,
      loadPrivateKey(config.keysDir, "breaker"),
      notifier,
      config.host_id,
      log,
    );
    admin = await bindAdminSockets(
      config,
      settings.admin_group,
      {
        trip: (req: TripRequest, l) => {
          breaker.trip("manual", req.reason, req.by || "admin socket", l);
          return breaker.status();
        },
        status: () => breaker.status(),
        rearm: (req: RearmRequest, l) => {
          breaker.rearm(req.reason, req.by || "root", l);
          return breaker.status();
        },
      },
      log,
    );
    const v = persisted.view();
    log.info(
      { armed: v.armed, rule: v.rule, reason: v.reason, settings },
      v.armed ? "breaker armed" : "breaker starts DISARMED (persisted)",
    );
    breaker.announcePending();
    return breaker;
  },
  table: (breaker) => ({
    Lease: { schema: LeaseShape, handle: async (req: LeaseRequest, log) => breaker.lease(req, log) },
    Report: {
      schema: OutcomeShape,
      handle: async (req: Outcome, log) => {
        breaker.report(req, log);
        return {};
      },
    },
    RollbackGrant: { schema: GrantShape, handle: async (req: RollbackGrantRequest, log) => breaker.grantRollback(req, log) },
    Health: healthRpc("breaker", () => breaker.healthDetail()),
    // Read only (the gateway's /metrics and console): trips and rearms stay on the admin sockets.
    Status: { schema: z.object({}).strict(), handle: async () => breaker.status() },
  }),
});

// runService has dropped privileges by now: the admin sockets may answer.
admin?.open();
