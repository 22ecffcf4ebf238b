// bench/load: 200 concurrent clients for 60 s on a tier-0 mix against a
// real stack (supervisor, six services, embedded PostgreSQL, the real
// shell). Reports errors (goal 0; 429 "busy" answers are counted apart —
// the executor runs 4 commands at once and queues 16, so 200 clients are
// expected to meet it), p50/p99 latency, throughput, and the peak RSS of
// each service (VmRSS sampled from /proc/<pid>/status every 200 ms, and
// the kernel's own VmHWM at the end) — goal: all services together ≤ 600 MB,
// PostgreSQL reported separately (postmaster and all its backends).
// Clients honour the 429's Retry-After (1 s); RETRY_AFTER=0 makes them retry at once.
// Run: npx tsc -p tsconfig.json && node dist/bench/load/run.js [seconds=60] [clients=200]
import { readFileSync } from "node:fs";
import { Agent, request } from "node:http";
import { join } from "node:path";
import { startStack } from "../../test/support/stack.js";
import { childPids } from "../../test/support/processes.js";
import { pct } from "../stats.js";

const SECONDS = Number(process.argv[2] ?? 60);
const CLIENTS = Number(process.argv[3] ?? 200);
const HONOUR_RETRY_AFTER = process.env.RETRY_AFTER !== "0";
const MIX = ["echo hi", "true", "id", "uname -a", "cat /proc/loadavg", "ls /tmp", "date", "hostname"];
const SERVICES = ["gateway", "executor", "classifier", "concurrence", "sandbox", "breaker"] as const;

function statusField(pid: number, field: "VmRSS" | "VmHWM"): number {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** The postmaster and every process whose parent is it (backends, checkpointer, walwriter …). */
function postgresPids(postmaster: number): number[] {
  return [postmaster, ...childPids(postmaster)];
}

const mb = (b: number) => Math.round((b / 1048576) * 10) / 10;

const stack = await startStack();
try {
  const pids = stack.pids();
  const postmaster = Number(readFileSync(join(stack.home, "state", "postgres", "postmaster.pid"), "utf8").split("\n")[0]);
  const peak: Record<string, number> = {};
  let peakTogether = 0;
  let peakPostgres = 0;
  let peakPostmaster = 0;
  const sample = () => {
    let together = 0;
    for (const s of SERVICES) {
      const pid = pids[s];
      const rss = pid ? statusField(pid, "VmRSS") : 0;
      peak[s] = Math.max(peak[s] ?? 0, rss);
      together += rss;
    }
    peakTogether = Math.max(peakTogether, together);
    const pg = postgresPids(postmaster).reduce((n, p) => n + statusField(p, "VmRSS"), 0);
    peakPostgres = Math.max(peakPostgres, pg);
    peakPostmaster = Math.max(peakPostmaster, statusField(postmaster, "VmRSS"));
  };
  sample();
  const sampler = setInterval(sample, 200);

  const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });
  const url = new URL(stack.url);
  const post = (command: string): Promise<{ status: number | string; ms: number }> => {
    const body = JSON.stringify({ command });
    const t0 = performance.now();
    return new Promise((resolve) => {
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: "/exec",
          method: "POST",
          agent,
          headers: {
            authorization: `Bearer ${stack.token}`,
            "content-type": "application/json",
            "content-length": Buffer.byteLength(body),
          },
        },
        (res) => {
          res.resume();
          res.on("end", () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - t0 }));
          res.on("error", (e) => resolve({ status: e.message, ms: performance.now() - t0 }));
        },
      );
      req.setTimeout(60_000, () => req.destroy(new Error("timeout")));
      req.on("error", (e: NodeJS.ErrnoException) => resolve({ status: e.code ?? e.message, ms: performance.now() - t0 }));
      req.end(body);
    });
  };

  for (let i = 0; i < 20; i++) await post("echo warm-up");
  const okMs: number[] = [];
  const allMs: number[] = [];
  const counts: Record<string, number> = {};
  let n = 0;
  const t0 = performance.now();
  const end = t0 + SECONDS * 1000;
  const client = async () => {
    while (performance.now() < end) {
      const r = await post(MIX[n++ % MIX.length] ?? "true");
      counts[String(r.status)] = (counts[String(r.status)] ?? 0) + 1;
      allMs.push(r.ms);
      if (r.status === 200) okMs.push(r.ms);
      // A 429 carries Retry-After: 1; a well-behaved client waits that long
      // (RETRY_AFTER=0 in the environment: retry at once, the worst case).
      if (r.status === 429 && HONOUR_RETRY_AFTER) await new Promise((res) => setTimeout(res, 1000));
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, client));
  const elapsed = (performance.now() - t0) / 1000;
  clearInterval(sampler);
  sample();
  agent.destroy();

  const hwm: Record<string, number> = {};
  for (const s of SERVICES) hwm[s] = pids[s] ? statusField(pids[s] as number, "VmHWM") : 0;
  const restarted = SERVICES.filter((s) => stack.pids()[s] !== pids[s]);
  okMs.sort((a, b) => a - b);
  allMs.sort((a, b) => a - b);
  const total = allMs.length;
  const ok = counts["200"] ?? 0;
  const busy = counts["429"] ?? 0;
  const errors = total - ok - busy;
  const sumPeaks = Object.values(peak).reduce((a, b) => a + b, 0);
  const result = {
    seconds: Math.round(elapsed * 10) / 10,
    honour_retry_after: HONOUR_RETRY_AFTER,
    clients: CLIENTS,
    requests: total,
    ok,
    busy_429: busy,
    errors,
    error_kinds: Object.fromEntries(Object.entries(counts).filter(([k]) => k !== "200" && k !== "429")),
    throughput_ok_per_s: Math.round(ok / elapsed),
    latency_ok_ms: { p50: +pct(okMs, 50).toFixed(1), p99: +pct(okMs, 99).toFixed(1), max: +(okMs[okMs.length - 1] ?? NaN).toFixed(1) },
    latency_all_ms: { p50: +pct(allMs, 50).toFixed(1), p99: +pct(allMs, 99).toFixed(1) },
    peak_rss_mb: Object.fromEntries(SERVICES.map((s) => [s, mb(peak[s] ?? 0)])),
    vm_hwm_mb: Object.fromEntries(SERVICES.map((s) => [s, mb(hwm[s] ?? 0)])),
    services_sum_of_peaks_mb: mb(sumPeaks),
    services_peak_together_mb: mb(peakTogether),
    postgres_peak_rss_mb: { postmaster: mb(peakPostmaster), all_processes: mb(peakPostgres) },
    restarted_services: restarted,
  };
  console.log(
    `load: ${CLIENTS} clients × ${result.seconds} s, tier-0 mix (${MIX.join(", ")}); on 429 the clients ${HONOUR_RETRY_AFTER ? "wait the Retry-After second" : "retry at once"}`,
  );
  console.log(
    `  requests ${total}: 200 ${ok}, 429 busy ${busy}, errors ${errors} (goal 0)${errors ? ` ${JSON.stringify(result.error_kinds)}` : ""}`,
  );
  console.log(
    `  throughput ${result.throughput_ok_per_s} executed/s; latency of 200s p50 ${result.latency_ok_ms.p50} ms, p99 ${result.latency_ok_ms.p99} ms (all answers p50 ${result.latency_all_ms.p50}, p99 ${result.latency_all_ms.p99})`,
  );
  console.log(`  peak RSS (MB): ${SERVICES.map((s) => `${s} ${result.peak_rss_mb[s]}`).join(", ")}`);
  console.log(
    `  services together: sum of peaks ${result.services_sum_of_peaks_mb} MB, peak at one instant ${result.services_peak_together_mb} MB (goal ≤ 600 MB: ${sumPeaks <= 600 * 1048576 ? "met" : "NOT met"})`,
  );
  console.log(
    `  PostgreSQL: postmaster ${result.postgres_peak_rss_mb.postmaster} MB, all its processes ${result.postgres_peak_rss_mb.all_processes} MB (RSS counts shared buffers once per process)`,
  );
  if (restarted.length) console.log(`  RESTARTED during the run: ${restarted.join(", ")}`);
  console.log(`RESULT ${JSON.stringify(result)}`);
} finally {
  await stack.stop();
}
