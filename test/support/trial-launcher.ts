// The real privileged sandbox launcher (dist/services/sandbox/launcher/main.js,
// forked into its own mount namespace exactly as the sandbox service does)
// running the overlay driver for host primary, and a TrialRunner over it
// that signs its reports with a fresh key: what the sandbox acceptance tests
// (test/sandbox/fixture.ts) and bench/sandbox run trials through. Needs root
// and a build.
import { generateKeyPairSync } from "node:crypto";
import { join } from "node:path";
import { type LauncherHandle, startLauncher } from "../../services/sandbox/privsep.js";
import { loadSandboxSettings } from "../../services/sandbox/settings.js";
import { DEFAULT_SECRET_MASKS, DEFAULT_STATE_DIRS } from "../../services/shared/envelope/masks.js";
import { TrialRunner } from "../../services/sandbox/trial.js";
import { repoRoot } from "./stack.js";

export const launcherEntry = join(repoRoot, "dist", "services", "sandbox", "launcher", "main.js");

export interface TrialLauncherOptions {
  /** How the overlay driver confines a trial. */
  launcher: "auto" | "bwrap" | "envelope";
  maxConcurrent: number;
  tmpfsSizeMb: number;
  /** Where the runner keeps its rebuild manifests. */
  manifestDir: string;
}

/** Starts the launcher with `home` as the state dir (its trials under home/run/sandbox-trials, home itself never mirrored); a lost launcher throws. */
export async function startTrialLauncher(home: string, o: TrialLauncherOptions): Promise<{ handle: LauncherHandle; runner: TrialRunner }> {
  const settings = loadSandboxSettings({
    home,
    repoRoot,
    policiesDir: join(repoRoot, "policies"),
    envelope: { state_dirs: DEFAULT_STATE_DIRS, masks: DEFAULT_SECRET_MASKS },
  });
  const handle = await startLauncher(
    launcherEntry,
    {
      driver: "overlay",
      hostId: "primary",
      shell: "/bin/bash",
      stdoutCap: settings.stdout_cap_bytes,
      stderrCap: settings.stderr_cap_bytes,
      maxPaths: 4097,
      maxConcurrent: o.maxConcurrent,
      overlay: {
        trialsRoot: join(home, "run", "sandbox-trials"),
        launcher: o.launcher,
        tmpfsSizeMb: o.tmpfsSizeMb,
        masks: settings.masks,
        skip: [home],
        mirrors: {},
      },
      incus: settings.incus,
    },
    (why) => {
      throw new Error(why);
    },
  );
  if (handle.unavailable) throw new Error(handle.unavailable);
  const runner = new TrialRunner({
    driver: handle.driver,
    settings,
    manifestDir: o.manifestDir,
    key: generateKeyPairSync("ed25519").privateKey,
    ttlS: 30,
  });
  return { handle, runner };
}
