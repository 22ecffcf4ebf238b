// agent-sudo sandbox — SECURITY: runs tier 1–2 commands once on a
// disposable copy-on-write copy of the host and signs the manifest of what
// they changed (Run), and trials package commands as their simulation
// (Trial). Moderately security sensitive: what it signs is judged by both
// classifiers before the executor commits anything.
//
// Privilege design (tried on this kernel, 6.18, and reasoned for the owner's
// 6.12): an overlay whose lower layer is the host's `/` cannot be mounted
// without real root. As an unprivileged user in a user namespace the kernel
// refuses it ("failed to clone lowerpath": `/` has locked child mounts), and
// even where it works every host file owned by root would appear as
// `nobody` and be unwritable, so the mirror would not behave like the host.
// So the work is split the way OpenSSH splits sshd:
//   * the gRPC-facing process (this file: request parsing, static checks,
//     gap manifest, signing) drops to agent-sudo-sbx in the shared skeleton
//     like every other service;
//   * before the drop, in `prepare`, it forks launcher/main.js, which stays root
//     and does only the trial itself (mounts, bubblewrap, diff) or the Incus
//     calls. The two talk over the inherited IPC channel; the launcher
//     accepts one validated message type and its configuration is fixed
//     from root before the drop. No setuid binary, no socket to guard.
//   * the trial runs as uid 0 of an identity-mapped user namespace with a
//     small bounding set (no CAP_SYS_ADMIN), no nested user namespaces, no
//     network, its own pid/ipc/uts namespaces (see overlay.ts).
// It trusts the gateway (its only caller: socket 0600, owned by the gateway's
// user) and its launcher. It refuses live-service commands (skipped), hosts
// it has no mirror of, and anything the launcher cannot run: each is a
// signed not-ok report, so tier 2 cannot execute. If the launcher dies after
// start the service exits (crash, don't limp) and the supervisor restarts
// both. With no root (a developer's run) the overlay driver is unavailable
// and every trial is not ok.
// Every RPC it serves and what each requires:
//   Run     a tier 1–3 command: one run in the mirror, the manifest of its
//           diff signed; network only if the classifier's signed decision
//           for exactly this request grants it
//   Trial   a package command: its simulation in the mirror, a signed report
//   Health  nothing
import { chownSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { SandboxServiceService, type RunRequest, type TrialRequest } from "../../proto/gen/agent_sudo/v1/sandbox_pb.js";
import type { Config } from "../shared/config.js";
import { loadPrivateKey, loadPublicKey } from "../shared/keys.js";
import type { Logger } from "../shared/log.js";
import { isRoot, lookupUser } from "../shared/privilege.js";
import { command, cwd, envNames, requestId, runAs } from "../shared/shapes.js";
import { MAX_ENV_VALUE_BYTES } from "../shared/env-names.js";
import { healthRpc, runService } from "../shared/skeleton.js";
import { MAX_TOUCHED } from "./report.js";
import { startLauncher } from "./privsep.js";
import { loadSandboxSettings } from "./settings.js";
import { TrialRunner, type Driver } from "./trial.js";
import { runTransaction, type RunContext } from "./run.js";

const TrialShape = z.object({
  requestId,
  command,
  cwd,
  host: z.string().min(1).max(64),
  runAs,
  timeoutS: z.number().int().min(1).max(3600),
  envNames,
});
const RunShape = TrialShape.extend({
  classifier: z.unknown(),
  // Secret values: names re-checked against the bound ones in run.ts; never logged.
  env: z
    .record(
      z.string().max(64),
      z
        .string()
        .max(MAX_ENV_VALUE_BYTES)
        .refine((v) => !v.includes("\0")),
    )
    .refine((e) => Object.keys(e).length <= 32),
});

interface State {
  runner: TrialRunner;
  run: RunContext;
  detail: string;
}

async function prepare(config: Config, log: Logger): Promise<State> {
  const settings = loadSandboxSettings(config);
  const key = loadPrivateKey(config.keysDir, "sandbox");
  const manifestDir = join(config.stateDir, "sandbox");
  // The state dir must stay searchable by the service users (as cli/home.ts makes it).
  mkdirSync(config.stateDir, { recursive: true, mode: 0o711 });
  mkdirSync(manifestDir, { recursive: true, mode: 0o750 });
  if (isRoot()) {
    const sbx = lookupUser(config.users.sandbox);
    if (sbx) chownSync(manifestDir, sbx.uid, sbx.gid);
  }
  let driver: Driver | undefined;
  let detail = "driver: none";
  if (settings.driver !== "none") {
    const entry = join(dirname(fileURLToPath(import.meta.url)), "launcher", "main.js");
    const handle = await startLauncher(
      entry,
      {
        driver: settings.driver,
        hostId: config.host_id,
        shell: config.executor.shell,
        stdoutCap: settings.stdout_cap_bytes,
        stderrCap: settings.stderr_cap_bytes,
        maxPaths: MAX_TOUCHED + 1,
        maxConcurrent: settings.max_concurrent,
        overlay: {
          trialsRoot: join(config.runDir, "sandbox-trials"),
          launcher: settings.launcher,
          tmpfsSizeMb: settings.tmpfs_size_mb,
          masks: settings.masks,
          skip: [config.home],
          mirrors: settings.mirrors,
        },
        incus: settings.incus,
      },
      (why) => {
        log.fatal({ why }, "sandbox launcher lost; exiting");
        process.exit(70);
      },
    );
    if (handle.unavailable) {
      detail = `driver: ${settings.driver} unavailable (${handle.unavailable})`;
      log.error({ reason: handle.unavailable }, "sandbox driver unavailable: every trial will be not ok");
      driver = { name: settings.driver, describe: () => detail, refuses: () => detail, run: () => Promise.reject(new Error(detail)) };
    } else {
      driver = handle.driver;
      detail = `driver: ${settings.driver} (${handle.driver.describe()})`;
    }
  }
  log.info({ detail }, "sandbox prepared");
  return {
    runner: new TrialRunner({ driver, settings, manifestDir, key, ttlS: config.decision_ttl_s }),
    run: { driver, settings, key, classifierKey: loadPublicKey(config.keysDir, "classifier"), ttlS: config.decision_ttl_s },
    detail,
  };
}

await runService<State>({
  name: "sandbox",
  definition: SandboxServiceService,
  maxReceiveBytes: 64 * 1024,
  maxSendBytes: 80 * 1024 * 1024, // a run's report carries the content it changed (≤ 64 MiB)
  prepare,
  table: (state) => ({
    Trial: { schema: TrialShape, handle: async (req: TrialRequest) => state.runner.trial(req) },
    Run: { schema: RunShape, handle: async (req: RunRequest) => runTransaction(req, state.run) },
    Health: healthRpc("sandbox", () => state.detail),
  }),
});
