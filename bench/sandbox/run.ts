// bench/sandbox: what a trial adds to a command. N sequential trials of
// `true` and of a small file edit through the real path (TrialRunner →
// privileged launcher → overlay + bubblewrap → diff → signed report),
// against N bare `bash -c` spawns of the same commands. Goal: median
// overhead ≤ 80 ms. Also reports the driver alone (no shellcheck, no
// signing), since shellcheck runs beside the trial.
// Run as root: npm run build && node dist/bench/sandbox/run.js [N]
import { spawn } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { startLauncher } from "../../services/sandbox/privsep.js";
import { loadSandboxSettings } from "../../services/sandbox/settings.js";
import { TrialRunner } from "../../services/sandbox/trial.js";
import { median, pct } from "../stats.js";

const N = Number(process.argv[2] ?? 100);
const distRoot = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const repoRoot = join(distRoot, "..");



function bare(command: string): Promise<number> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn("/bin/bash", ["-c", command], { stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.resume();
    child.stderr.resume();
    child.once("error", reject);
    child.once("close", () => resolve(performance.now() - t0));
  });
}

if (process.getuid?.() !== 0) {
  process.stderr.write("bench/sandbox: run as root (the overlay driver needs it)\n");
  process.exit(2);
}
const home = mkdtempSync(join(tmpdir(), "agent-sudo-sbx-bench-"));
const settings = loadSandboxSettings({ home, repoRoot, policiesDir: join(repoRoot, "policies") });
const handle = await startLauncher(
  join(distRoot, "services", "sandbox", "launcher", "main.js"),
  {
    driver: "overlay",
    hostId: "primary",
    shell: "/bin/bash",
    stdoutCap: settings.stdout_cap_bytes,
    stderrCap: settings.stderr_cap_bytes,
    maxPaths: 4097,
    maxConcurrent: 2,
    overlay: { trialsRoot: join(home, "run", "sandbox-trials"), launcher: "auto", tmpfsSizeMb: 256, masks: settings.masks, skip: [home], mirrors: {} },
    incus: settings.incus,
  },
  (why) => {
    throw new Error(why);
  },
);
if (handle.unavailable) throw new Error(handle.unavailable);
const runner = new TrialRunner({ driver: handle.driver, settings, manifestDir: join(home, "state"), key: generateKeyPairSync("ed25519").privateKey, ttlS: 30 });

const cases = { true: "true", "small file edit": "sed -i 's/^/# /' /etc/hostname" };
const lines: string[] = [];
for (const [label, command] of Object.entries(cases)) {
  const trial: number[] = [];
  const driver: number[] = [];
  const plain: number[] = [];
  for (let i = 0; i < 5; i++) await runner.trial({ requestId: `w${i}`, command, cwd: "/", host: "primary", runAs: "", timeoutS: 30, envNames: [] });
  for (let i = 0; i < N; i++) {
    let t0 = performance.now();
    const r = await runner.trial({ requestId: `b${i}`, command, cwd: "/", host: "primary", runAs: "", timeoutS: 30, envNames: [] });
    trial.push(performance.now() - t0);
    if (!r.ok) throw new Error(`trial not ok: ${r.findings.join("; ")}`);
    t0 = performance.now();
    await handle.driver.run({ host: "primary", command, cwd: "/", runAs: "", timeoutS: 30 });
    driver.push(performance.now() - t0);
    plain.push(await bare(command === "true" ? "true" : "sed 's/^/# /' /etc/hostname > /dev/null"));
  }
  const over = median(trial) - median(plain);
  lines.push(
    `${label}: trial median ${median(trial).toFixed(1)} ms (p95 ${pct(trial, 95).toFixed(1)}), driver alone ${median(driver).toFixed(1)} ms, bare bash ${median(plain).toFixed(1)} ms → overhead ${over.toFixed(1)} ms (goal ≤ 80) ${over <= 80 ? "PASS" : "FAIL"}`,
  );
}
handle.stop();
rmSync(home, { recursive: true, force: true });
process.stdout.write(`bench/sandbox (N=${N})\n${lines.join("\n")}\n`);
