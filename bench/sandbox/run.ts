// bench/sandbox: what a trial adds to a command. N sequential trials of
// `true` and of a small file edit through the real path (TrialRunner →
// privileged launcher → overlay + bubblewrap → diff → signed report),
// against N bare `bash -c` spawns of the same commands. Goal: median
// overhead ≤ 80 ms. Also reports the driver alone (no shellcheck, no
// signing), since shellcheck runs beside the trial.
// Run as root: npm run build && node dist/bench/sandbox/run.js [N]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTrialLauncher } from "../../test/support/trial-launcher.js";
import { bare, median, pct } from "../stats.js";

const N = Number(process.argv[2] ?? 100);

if (process.getuid?.() !== 0) {
  process.stderr.write("bench/sandbox: run as root (the overlay driver needs it)\n");
  process.exit(2);
}
const home = mkdtempSync(join(tmpdir(), "agent-sudo-sbx-bench-"));
const { handle, runner } = await startTrialLauncher(home, {
  launcher: "auto",
  maxConcurrent: 2,
  tmpfsSizeMb: 256,
  manifestDir: join(home, "state"),
});

const cases = { true: "true", "small file edit": "sed -i 's/^/# /' /etc/hostname" };
const lines: string[] = [];
for (const [label, command] of Object.entries(cases)) {
  const trial: number[] = [];
  const driver: number[] = [];
  const plain: number[] = [];
  for (let i = 0; i < 5; i++)
    await runner.trial({ requestId: `w${i}`, command, cwd: "/", host: "primary", runAs: "", timeoutS: 30, envNames: [] });
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
