// npm run bench: builds if needed (tsc is incremental), runs every
// benchmark one after the other, and writes bench/RESULTS.md with every
// figure, the command that reproduces it and the machine it ran on.
// Each benchmark's own output is kept verbatim in the report too.
// BENCH_ONLY=load,fuzz runs a subset (the report then holds only those).
import { execFileSync, spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const repo = join(dirname(fileURLToPath(import.meta.url)), "..");
const only = process.env.BENCH_ONLY ? process.env.BENCH_ONLY.split(",") : undefined;

function sh(cmd, args) {
  try {
    return execFileSync(cmd, args, { cwd: repo, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return "";
  }
}

function machine() {
  const cpus = os.cpus();
  const mem = readFileSync("/proc/meminfo", "utf8");
  const kb = (k) => Number(new RegExp(`^${k}:\\s+(\\d+)`, "m").exec(mem)?.[1] ?? 0);
  return {
    date: new Date().toISOString(),
    nproc: sh("nproc", []) || String(os.availableParallelism()),
    cpu: cpus[0]?.model ?? "unknown",
    memory: `${(kb("MemTotal") / 1048576).toFixed(1)} GiB total, ${(kb("MemAvailable") / 1048576).toFixed(1)} GiB available`,
    kernel: `${os.type()} ${os.release()} ${sh("uname", ["-v"])}`.trim(),
    node: process.version,
    loadavg: os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" "),
    user: process.getuid?.() === 0 ? "root" : String(process.getuid?.()),
    commit: sh("git", ["rev-parse", "--short", "HEAD"]) || "unknown",
  };
}

/** Runs one benchmark; resolves with its output and wall time, never rejects. */
function run(command, args, timeoutMs) {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const child = spawn(command, args, { cwd: repo, stdio: ["ignore", "pipe", "pipe"], env: process.env });
    let out = "";
    const onData = (c) => {
      out += c.toString();
      process.stdout.write(c);
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    const timer = setTimeout(() => {
      out += `\n[run-all: killed after ${timeoutMs / 1000} s]\n`;
      child.kill("SIGTERM");
      setTimeout(() => child.kill("SIGKILL"), 10_000).unref();
    }, timeoutMs);
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ out, code, seconds: Math.round((Date.now() - t0) / 100) / 10 });
    });
  });
}

const num = (re, text) => {
  const m = re.exec(text);
  return m ? m[1] : undefined;
};
const resultLine = (text) => {
  const line = text.split("\n").find((l) => l.startsWith("RESULT "));
  try {
    return line ? JSON.parse(line.slice(7)) : undefined;
  } catch {
    return undefined;
  }
};
const jsonBlock = (text) => {
  const a = text.indexOf("{");
  const b = text.lastIndexOf("}");
  try {
    return a >= 0 && b > a ? JSON.parse(text.slice(a, b + 1)) : undefined;
  } catch {
    return undefined;
  }
};

// Each bench: how to run it, and how to read its figures as [figure, value, goal] rows.
const BENCHES = [
  {
    name: "exec-overhead",
    what: "What the broker adds to a tier-0 command: 1,000 sequential `echo hi` through POST /exec on a real stack vs 1,000 bare `bash -c`.",
    cmd: ["node", ["dist/bench/exec-overhead/run.js", "1000"]],
    timeout: 15 * 60_000,
    figures: (o) => [
      [
        "/exec median / p99",
        `${num(/\/exec\s+median ([\d.]+) ms/, o)} ms / ${num(/\/exec\s+median [\d.]+ ms\s+p99 ([\d.]+) ms/, o)} ms`,
        "",
      ],
      [
        "bare bash -c median / p99",
        `${num(/bare bash -c median ([\d.]+) ms/, o)} ms / ${num(/bare bash -c median [\d.]+ ms\s+p99 ([\d.]+) ms/, o)} ms`,
        "",
      ],
      ["/exec overhead (median − median)", `${num(/overhead \(median[^)]*\) ([-\d.]+) ms/, o)} ms`, "≤ 5 ms"],
    ],
  },
  {
    name: "tiers",
    what: "/exec end to end per tier against bare `bash -c`: 200 sequential requests each of `echo hi` (tier 0, read-only envelope), `echo N > DIR/f` (tier 1) and `sed -i … DIR/cfg` (tier 2), both run once in the mirror and committed from their judged diff.",
    cmd: ["node", ["dist/bench/tiers/run.js", "200"]],
    timeout: 15 * 60_000,
    figures: (o) =>
      [0, 1, 2].map((t) => {
        const m = new RegExp(
          `^tier ${t}: /exec median ([\\d.]+) ms p95 ([\\d.]+) ms; bare median ([\\d.]+) ms; overhead ([-\\d.]+) ms`,
          "m",
        ).exec(o);
        return [
          `tier ${t} overhead over bare`,
          m ? `${m[4]} ms (median ${m[1]} ms, p95 ${m[2]} ms; bare ${m[3]} ms)` : "n/a",
          t === 0 ? "≤ 10 ms" : t === 1 ? "≤ 25 ms" : "≤ the trial + run it replaced",
        ];
      }),
  },
  {
    name: "hook",
    what: "The Claude Code hook per Bash command: 500 sequential spawns of hook/agent-sudo-hook (git status → allow) against a real stack.",
    cmd: ["node", ["dist/bench/hook/run.js", "500"]],
    timeout: 15 * 60_000,
    figures: (o) => {
      const row = (label, name) => {
        const m = new RegExp(`${name}\\s+median ([\\d.]+) ms\\s+p95 ([\\d.]+) ms\\s+p99 ([\\d.]+) ms`).exec(o);
        return [label, m ? `median ${m[1]} ms, p95 ${m[2]} ms, p99 ${m[3]} ms` : "n/a"];
      };
      return [
        [...row("hook (spawn → decision)", "agent-sudo-hook"), "median ≤ 15 ms, p95 ≤ 25 ms"],
        [...row("gateway share (no spawn)", "gateway only \\(no spawn\\)"), ""],
        [...row("floor: sh -c true", "floor: sh -c true"), ""],
        [...row("floor: curl --version", "floor: curl --version"), ""],
      ];
    },
  },
  {
    name: "client",
    what: "What the hook costs per Bash call as the real Claude Code client feels it: tool_use sent → tool_result received at the Messages API stand-in, 20 rounds × 4 calls per variant, variants rotated each round (bare = no hooks).",
    cmd: ["node", ["dist/bench/client/run.js", "20", "4"]],
    timeout: 30 * 60_000,
    figures: (o) =>
      ["bare", "installed", "sync-post", "pre-only", "http"].map((v) => {
        const per = new RegExp(`^${v}\\s+per call median ([\\d.]+) ms`, "m").exec(o);
        const added = new RegExp(
          `^${v}\\s+per call[^\\n]*\\n[^\\n]*\\n[^\\n]*\\n\\s+added per call: ([-\\d.]+) ms[^;]*; paired by round ([-\\d.]+) ms`,
          "m",
        ).exec(o);
        return [
          `${v}: per call median${v === "bare" ? "" : " / added (paired)"}`,
          per ? `${per[1]} ms${added ? ` / +${added[2]} ms` : ""}` : "n/a",
          v === "installed" || v === "http" ? "added ≤ 40 ms" : "",
        ];
      }),
  },
  {
    name: "classify",
    what: "The classifier engine in process: every command of the labelled corpus × 20 rounds after warm-up.",
    cmd: ["node", ["bench/classify/run.mjs"]],
    timeout: 10 * 60_000,
    figures: (o) => [
      ["engine load", `${num(/engine load\s+([\d.]+) ms/, o)} ms`, ""],
      ["throughput", `${num(/throughput\s+(\d+) commands\/s/, o)} commands/s`, ""],
      [
        "p50 / p99 / max per command",
        `${num(/p50 per command\s+([\d.]+ µs)/, o)} / ${num(/p99 per command\s+([\d.]+ µs)/, o)} / ${num(/max per command\s+([\d.]+ µs)/, o)}`,
        "p99 ≤ 300 µs",
      ],
    ],
  },
  {
    name: "sandbox",
    what: "What a sandbox trial adds: 100 sequential trials (overlay + bubblewrap + diff + signed report) of `true` and of a small file edit vs bare bash.",
    cmd: ["node", ["dist/bench/sandbox/run.js", "100"]],
    timeout: 20 * 60_000,
    figures: (o) =>
      ["true", "small file edit"].map((label) => {
        const m = new RegExp(
          `^${label}: trial median ([\\d.]+) ms \\(p95 ([\\d.]+)\\), driver alone ([\\d.]+) ms, bare bash ([\\d.]+) ms → overhead ([-\\d.]+) ms`,
          "m",
        ).exec(o);
        return [
          `trial overhead, ${label}`,
          m ? `${m[5]} ms (trial median ${m[1]} ms, p95 ${m[2]} ms; driver alone ${m[3]} ms; bare ${m[4]} ms)` : "n/a",
          "≤ 80 ms",
        ];
      }),
  },
  {
    name: "audit",
    what: "Audit throughput: records through the fsync'd spool and the shipper into an embedded PostgreSQL (20,000 records, 50 writers).",
    cmd: ["node", ["dist/bench/audit/run.js"]],
    timeout: 20 * 60_000,
    figures: (o) => {
      const j = jsonBlock(o);
      if (!j) return [["audit", "n/a", ""]];
      return [
        ["single-writer append p50 / p99", `${j.single_writer_append_ms?.p50} ms / ${j.single_writer_append_ms?.p99} ms`, ""],
        [
          "spool append (50 writers, group commit)",
          `${j.spool_append_records_per_s} records/s (mean group ${j.mean_group_commit_size})`,
          "",
        ],
        ["shipper drain into PostgreSQL", `${j.shipper_drain_records_per_s} records/s`, ""],
        ["end to end (append + ship)", `${j.end_to_end_records_per_s} records/s`, ""],
      ];
    },
  },
  {
    name: "load",
    what: "200 concurrent clients for 60 s on a tier-0 mix against a real stack (clients honour 429 Retry-After).",
    cmd: ["node", ["dist/bench/load/run.js", "60", "200"]],
    timeout: 10 * 60_000,
    figures: (o) => {
      const j = resultLine(o);
      if (!j) return [["load", "n/a", ""]];
      return [
        ["requests / executed (200) / 429 busy", `${j.requests} / ${j.ok} / ${j.busy_429}`, "429 expected (4 running + 16 queued)"],
        ["errors (not 200, not 429)", `${j.errors}${j.errors ? ` ${JSON.stringify(j.error_kinds)}` : ""}`, "0"],
        ["throughput (executed)", `${j.throughput_ok_per_s}/s`, ""],
        ["latency of 200s p50 / p99", `${j.latency_ok_ms.p50} ms / ${j.latency_ok_ms.p99} ms`, ""],
        ["latency of all answers p50 / p99", `${j.latency_all_ms.p50} ms / ${j.latency_all_ms.p99} ms`, ""],
        ...Object.entries(j.peak_rss_mb).map(([s, v]) => [`peak RSS ${s}`, `${v} MB`, ""]),
        [
          "services together (sum of peaks / peak at one instant)",
          `${j.services_sum_of_peaks_mb} MB / ${j.services_peak_together_mb} MB`,
          "≤ 600 MB",
        ],
        [
          "PostgreSQL peak RSS (postmaster / all its processes)",
          `${j.postgres_peak_rss_mb.postmaster} MB / ${j.postgres_peak_rss_mb.all_processes} MB`,
          "reported separately",
        ],
        ["services restarted during the run", j.restarted_services.length ? j.restarted_services.join(", ") : "none", "none"],
      ];
    },
  },
  {
    name: "chaos",
    what: "kill -9 of each service and PostgreSQL: 3× idle, then once under load (50 clients, 1,000 requests, tiers 0–4, recorder shell), reconciled against the recorder log, the executor journal and the audit.",
    cmd: ["node", ["dist/bench/chaos/run.js", "1000", "3"]],
    timeout: 40 * 60_000,
    figures: (o) => {
      const j = resultLine(o);
      if (!j) return [["chaos", "n/a", ""]];
      const rows = [];
      for (const r of j.results) {
        const bad = Object.entries(r.violations).filter(
          ([k, v]) => v > 0 && !["connection_resets", "connections_refused", "executed_answer_lost"].includes(k),
        );
        rows.push([
          `${r.target}: time to healthy idle (×${r.idle_ms.length}) / under load`,
          `${r.idle_ms.join(", ")} ms / ${r.load_ms ?? "n/a"} ms${r.error ? ` — FAILED: ${r.error}` : ""}`,
          "",
        ]);
        rows.push([
          `${r.target}: answers under load`,
          `${Object.entries(r.by_status)
            .map(([k, v]) => `${k}×${v}`)
            .join(
              " ",
            )}; ${r.executed} executed; ${r.in_flight_at_kill} in flight at the kill${r.violations.connection_resets ? `; ${r.violations.connection_resets} resets (${r.violations.executed_answer_lost} of them had run)` : ""}`,
          "every request answered",
        ]);
        rows.push([
          `${r.target}: violations`,
          bad.length ? bad.map(([k, v]) => `${k} ${v}`).join(", ") : "none",
          "0 without quorum, 0 tier 4, audit reconciles",
        ]);
      }
      return rows;
    },
  },
  {
    name: "soak",
    what: "10 minutes of the chaos tier mix (50 clients, recorder shell) with one random service or PostgreSQL SIGKILLed or SIGSTOPped (8 s) every 20 s; then every answer, the audit, the journal chain and what is left behind are checked.",
    cmd: ["node", ["dist/bench/soak/run.js", "600", "20", "50"]],
    timeout: 30 * 60_000,
    figures: (o) => {
      const j = resultLine(o);
      if (!j) return [["soak", "n/a", ""]];
      const bad = Object.entries(j.violations).filter(([, v]) => v > 0);
      return [
        [
          "requests / executed",
          `${j.requests} (${Object.entries(j.by_status)
            .map(([k, v]) => `${k}×${v}`)
            .join(" ")}) / ${j.executed}`,
          "every request answered",
        ],
        [
          "faults (seed)",
          `${j.faults.map((f) => `${f.at_s}s ${f.signal === "SIGKILL" ? "kill" : "stop"} ${f.target}`).join(", ")} (seed ${j.seed})`,
          "",
        ],
        ["healthy after a fault, median / max", `${j.healthy_after_ms.median} ms / ${j.healthy_after_ms.max} ms`, ""],
        ["connections lost while the gateway was down", String(j.lost_connections_during_gateway_faults), ""],
        ["executor journal", j.journal, "chain intact"],
        [
          "violations",
          bad.length ? bad.map(([k, v]) => `${k} ${v}`).join(", ") : "none",
          "none (answers, audit, quorum, journal, processes, cgroups)",
        ],
      ];
    },
  },
  {
    name: "fuzz",
    what: "The fuzz properties of test/fuzz, long: body parser, parseJson, readBody, decoders, checkQuorum (random and model-checked signed decisions), hook input.",
    cmd: ["node", ["dist/bench/fuzz/run.js", "1"]],
    timeout: 30 * 60_000,
    figures: (o) => {
      const j = resultLine(o);
      if (!j) return [["fuzz", "n/a", ""]];
      return [
        ...j.rows.map((r) => [r.name, `${r.cases} cases, ${r.failures ? `FAILED: ${r.error}` : "0 failures"}, ${r.perS}/s`, "0 failures"]),
        ["total", `${j.total} cases, ${j.failures} failing properties (seed ${j.seed})`, "0"],
      ];
    },
  },
];

const started = machine();
console.log(`run-all: ${JSON.stringify(started)}`);
console.log("run-all: building (npx tsc -p tsconfig.json, incremental)");
const build = await run("npx", ["tsc", "-p", "tsconfig.json"], 10 * 60_000);
if (build.code !== 0) {
  console.error("run-all: the build failed");
  process.exit(1);
}

const sections = [];
for (const b of BENCHES) {
  if (only && !only.includes(b.name)) continue;
  const load = os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
  console.log(`\nrun-all: ${b.name}: ${b.cmd[0]} ${b.cmd[1].join(" ")} (load average ${load})`);
  const r = await run(b.cmd[0], b.cmd[1], b.timeout);
  let figures;
  try {
    figures = b.figures(r.out);
  } catch (err) {
    figures = [[b.name, `could not read the figures: ${err.message}`, ""]];
  }
  sections.push({ ...b, ...r, figures, load });
}

const finished = new Date().toISOString();
const md = [];
md.push("# agent-sudo benchmark results", "");
md.push(
  `Generated by \`npm run bench\` (bench/run-all.mjs) from ${started.date} to ${finished}, commit ${started.commit}. Every figure below is reproduced by that command; the command for each benchmark alone is given with it. Figures are from one run on the machine below, which also ran other work at the time (see the load averages).`,
  "",
);
md.push("## Machine", "");
md.push("| | |", "|---|---|");
md.push(
  `| nproc | ${started.nproc} |`,
  `| CPU | ${started.cpu} |`,
  `| memory | ${started.memory} |`,
  `| kernel | ${started.kernel} |`,
  `| node | ${started.node} |`,
  `| load average at start (1, 5, 15 min) | ${started.loadavg} |`,
  `| user | ${started.user} |`,
  "",
);
md.push("## Summary", "");
md.push("| benchmark | figure | value | goal |", "|---|---|---|---|");
for (const s of sections)
  for (const [fig, val, goal] of s.figures) md.push(`| ${s.name} | ${fig} | ${String(val).replace(/\|/g, "\\|")} | ${goal ?? ""} |`);
md.push("");
for (const s of sections) {
  md.push(`## ${s.name}`, "");
  md.push(s.what, "");
  md.push(
    `Reproduce: \`npx tsc -p tsconfig.json && ${s.cmd[0]} ${s.cmd[1].join(" ")}\` — took ${s.seconds} s, exit code ${s.code}, load average at its start ${s.load}.`,
    "",
  );
  md.push(
    "```",
    s.out
      .split("\n")
      .filter((l) => !l.startsWith("RESULT "))
      .join("\n")
      .trim(),
    "```",
    "",
  );
}
writeFileSync(join(repo, "bench", "RESULTS.md"), `${md.join("\n")}\n`);
console.log(`\nrun-all: wrote bench/RESULTS.md (${sections.length} benchmarks)`);
process.exitCode = sections.some((s) => s.code !== 0) ? 1 : 0;
