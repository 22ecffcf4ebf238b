// Shared set-up for the sandbox acceptance tests: the real privileged
// launcher (dist/services/sandbox/launcher/main.js, forked into its own mount
// namespace exactly as the service does) behind a TrialRunner, and
// checksums of host paths so every test can prove the host did not change.
import { generateKeyPairSync } from "node:crypto";
import { createHash } from "node:crypto";
import { existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { TrialReport } from "../../proto/gen/agent_sudo/v1/sandbox_pb.js";
import { startLauncher, type LauncherHandle } from "../../services/sandbox/privsep.js";
import { loadSandboxSettings } from "../../services/sandbox/settings.js";
import { TrialRunner } from "../../services/sandbox/trial.js";
import { missing } from "../support/needs.js";

export const repoRoot = resolve(import.meta.dirname, "..", "..");
export const launcherEntry = join(repoRoot, "dist", "services", "sandbox", "launcher", "main.js");
export const canRun = process.getuid?.() === 0 && existsSync(launcherEntry);
/** The trial cases run once per launcher; bubblewrap's are skipped, saying so, where it is not installed (CI installs it). */
export const LAUNCHERS = ["envelope", "bwrap"] as const;
export const launcherMissing = (launcher: string): string | undefined => (launcher === "bwrap" ? missing("/usr/bin/bwrap") : undefined);

export interface Sandbox {
  home: string;
  runner: TrialRunner;
  handle: LauncherHandle;
  trial(command: string, opts?: { cwd?: string; runAs?: string; timeoutS?: number }): Promise<TrialReport>;
  stop(): void;
}

export async function startSandbox(launcher: "envelope" | "bwrap" = "envelope"): Promise<Sandbox> {
  const home = mkdtempSync(join(tmpdir(), "agent-sudo-sbx-test-"));
  const settings = loadSandboxSettings({ home, repoRoot, policiesDir: join(repoRoot, "policies") });
  const handle = await startLauncher(
    launcherEntry,
    {
      driver: "overlay",
      hostId: "primary",
      shell: "/bin/bash",
      stdoutCap: settings.stdout_cap_bytes,
      stderrCap: settings.stderr_cap_bytes,
      maxPaths: 4097,
      maxConcurrent: 4,
      overlay: { trialsRoot: join(home, "run", "sandbox-trials"), launcher, tmpfsSizeMb: 512, masks: settings.masks, skip: [home], mirrors: {} },
      incus: settings.incus,
    },
    (why) => {
      throw new Error(why);
    },
  );
  if (handle.unavailable) throw new Error(handle.unavailable);
  const { privateKey } = generateKeyPairSync("ed25519");
  const runner = new TrialRunner({ driver: handle.driver, settings, manifestDir: join(home, "state", "sandbox"), key: privateKey, ttlS: 30 });
  let n = 0;
  return {
    home,
    runner,
    handle,
    trial: (command, opts = {}) => runner.trial({ requestId: `t${n++}`, command, cwd: opts.cwd ?? "/", host: "primary", runAs: opts.runAs ?? "", timeoutS: opts.timeoutS ?? 60, envNames: [] }),
    stop() {
      handle.stop();
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/** sha256 of a path's type, mode, owner and content (directories: their listing), or "absent". */
export function fingerprint(path: string): string {
  if (!existsSync(path)) {
    try {
      return `link:${readlinkSync(path)}`;
    } catch {
      return "absent";
    }
  }
  const st = lstatSync(path);
  const h = createHash("sha256").update(`${st.mode}:${st.uid}:${st.gid}:`);
  if (st.isSymbolicLink()) h.update(readlinkSync(path));
  else if (st.isDirectory()) h.update(readdirSync(path).sort().join("\0"));
  else if (st.isFile()) h.update(readFileSync(path));
  return h.digest("hex");
}

export function fingerprints(paths: readonly string[]): Record<string, string> {
  return Object.fromEntries(paths.map((p) => [p, fingerprint(p)]));
}
