// Shared set-up for the sandbox acceptance tests: the real privileged
// launcher (test/support/trial-launcher.ts) behind a TrialRunner in a temp
// state dir, and checksums of host paths so every test can prove the host
// did not change.
import { createHash } from "node:crypto";
import { existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TrialReport } from "../../proto/gen/agent_sudo/v1/sandbox_pb.js";
import type { LauncherHandle } from "../../services/sandbox/privsep.js";
import type { TrialRunner } from "../../services/sandbox/trial.js";
import { missing } from "../support/needs.js";
import { launcherEntry, startTrialLauncher } from "../support/trial-launcher.js";

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
  const { handle, runner } = await startTrialLauncher(home, {
    launcher,
    maxConcurrent: 4,
    tmpfsSizeMb: 512,
    manifestDir: join(home, "state", "sandbox"),
  });
  let n = 0;
  return {
    home,
    runner,
    handle,
    trial: (command, opts = {}) =>
      runner.trial({
        requestId: `t${n++}`,
        command,
        cwd: opts.cwd ?? "/",
        host: "primary",
        runAs: opts.runAs ?? "",
        timeoutS: opts.timeoutS ?? 60,
        envNames: [],
      }),
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
