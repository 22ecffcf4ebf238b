// agent-sudo sandbox launcher — SECURITY: the sandbox's privileged half
// (OpenSSH's monitor pattern). Forked by the sandbox service while it is
// still root, before it drops to agent-sudo-sbx; it stays root because an
// overlay of the host's `/` and an identity-mapped user namespace need real
// root (see main.ts). It trusts only its parent, over the inherited IPC
// channel (no socket anyone else could open), and only for one message
// type: "trial" with a validated command, cwd, run-as user, host, timeout
// and, for a transactional run, whether it gets network and what its
// manifest binds. Its configuration (masks, mirrors, caps, sizes) comes from argv,
// set by the root parent; the unprivileged parent cannot change it. Any
// other message is fatal. It exits when the parent goes away.
import { z } from "zod";
import { command, cwd, runAs } from "../../shared/shapes.js";
import { LauncherConfigShape, openLocalDriver } from "./local-driver.js";

const TrialMessage = z
  .object({
    type: z.literal("trial"),
    id: z.number().int().min(0),
    input: z
      .object({
        host: z.string().min(1).max(64),
        command,
        cwd,
        runAs,
        timeoutS: z.number().int().min(1).max(3600),
        network: z.boolean().optional(),
        env: z.record(z.string().max(64), z.string().max(8192)).optional(),
        manifest: z
          .object({
            requestId: z.string().max(128),
            commandDigest: z.instanceof(Uint8Array).refine((d) => d.length === 32),
            host: z.string().min(1).max(64),
            maxBlobBytes: z
              .number()
              .int()
              .min(0)
              .max(64 * 1024 * 1024),
          })
          .strict()
          .optional(),
      })
      .strict(),
  })
  .strict();

export type LauncherReply =
  | { type: "ready"; describe: string }
  | { type: "fatal"; message: string }
  | { type: "result"; id: number; run: unknown }
  | { type: "error"; id: number; message: string };

function send(msg: LauncherReply): void {
  process.send?.(msg);
}

function fatal(message: string): never {
  process.stderr.write(`agent-sudo sandbox launcher: ${message}\n`);
  process.exit(70);
}

if (!process.send) fatal("must be started by the sandbox service (no IPC channel)");
const parsed = LauncherConfigShape.safeParse(JSON.parse(process.argv[2] ?? "null"));
if (!parsed.success) fatal(`bad configuration: ${parsed.error.issues.map((i) => i.path.join(".")).join(", ")}`);
const config = parsed.data;

let driver: ReturnType<typeof openLocalDriver>;
try {
  driver = openLocalDriver(config);
} catch (err) {
  send({ type: "fatal", message: (err as Error).message });
  // Let the message reach the parent before exiting.
  process.disconnect?.();
  process.exit(0);
}
let running = 0;
process.on("disconnect", () => {
  driver.close?.();
  process.exit(0);
});
process.on("message", (raw: unknown) => {
  const msg = TrialMessage.safeParse(raw);
  if (!msg.success) fatal("unpermitted message from the sandbox service");
  const { id, input } = msg.data;
  if (running >= config.maxConcurrent) {
    send({ type: "error", id, message: "busy: too many trials at once" });
    return;
  }
  running++;
  driver
    .run(input)
    .then(
      (run) => send({ type: "result", id, run }),
      (err: unknown) => send({ type: "error", id, message: (err as Error).message }),
    )
    .finally(() => {
      running--;
    });
});
send({ type: "ready", describe: driver.describe() });
