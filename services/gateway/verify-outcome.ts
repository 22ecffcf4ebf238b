// Auto-verify for tier 3: after a command ran, is the thing it touched up?
//   systemd  systemctl is-active UNIT, polled until active (and still active
//            after a settle period) or the timeout, after start/restart/reload
//   docker   docker inspect: running, and healthy when it has a healthcheck,
//            after docker start/restart and docker compose up
//   command  a rule's own verify command, polled until it exits 0
//   exit     the default: the command's own exit code 0
// A command that itself failed never verifies. Probes run through an
// injected runner (argv, never a shell string for local runs), so the caller
// decides where they run: locally (localProbeRunner), or as tier-0 commands
// through the executor when they need privileges the gateway lacks.
import { execFile } from "node:child_process";

export type VerifyPlan =
  | { kind: "systemd"; units: string[]; timeoutMs: number; intervalMs: number; settleMs: number }
  | { kind: "docker"; containers: string[]; compose?: ComposeTarget; timeoutMs: number; intervalMs: number; settleMs: number }
  | { kind: "command"; command: string; timeoutMs: number; intervalMs: number }
  | { kind: "exit" };

export interface ComposeTarget {
  /** Global compose options as given (-f file, -p project, --project-directory dir). */
  options: string[];
  /** Services named on the `up` line; empty = all of the project. */
  services: string[];
  cwd?: string;
}

export interface VerifyResult {
  passed: boolean;
  kind: VerifyPlan["kind"];
  detail: string;
  attempts: number;
  durationMs: number;
}

export interface Probe {
  argv: string[];
  /** The same probe as one shell-quoted line (for running it through /exec). */
  command: string;
  cwd?: string;
}

export type ProbeRunner = (probe: Probe, timeoutMs: number) => Promise<{ exitCode: number; stdout: string }>;

export const VERIFY_DEFAULTS = { timeoutMs: 30_000, intervalMs: 500, settleMs: 2000 } as const;

export function shellQuote(argv: string[]): string {
  return argv.map((a) => (/^[A-Za-z0-9_./:=@%+,-]+$/.test(a) ? a : `'${a.replace(/'/g, "'\\''")}'`)).join(" ");
}

function probe(argv: string[], cwd?: string): Probe {
  return { argv, command: shellQuote(argv), ...(cwd ? { cwd } : {}) };
}

/** Runs a probe here, without a shell, with a timeout and an output cap. */
export function localProbeRunner(env: NodeJS.ProcessEnv = process.env): ProbeRunner {
  return (p, timeoutMs) =>
    new Promise((resolve) => {
      const [file, ...args] = p.argv;
      if (!file) return resolve({ exitCode: 127, stdout: "" });
      execFile(file, args, { env, cwd: p.cwd, timeout: timeoutMs, maxBuffer: 256 * 1024, encoding: "utf8" }, (err, stdout) => {
        const code = err ? (typeof (err as { code?: unknown }).code === "number" ? (err as { code: number }).code : 127) : 0;
        resolve({ exitCode: code, stdout: stdout ?? "" });
      });
    });
}

/** Plain words of a simple command line, or undefined when it is not one (pipes, substitutions …). */
function plainWords(segment: string): string[] | undefined {
  if (/[|<>`$(){}\\*?]/.test(segment)) return undefined;
  const words: string[] = [];
  for (const m of segment.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)) words.push(m[1] ?? m[2] ?? m[3] ?? "");
  return words;
}

const SYSTEMD_VERBS = new Set([
  "start",
  "restart",
  "reload",
  "try-restart",
  "reload-or-restart",
  "try-reload-or-restart",
  "condrestart",
  "force-reload",
]);
const COMPOSE_GLOBAL_VALUED = new Set(["-f", "--file", "-p", "--project-name", "--project-directory", "--env-file", "--profile"]);

/** Drops sudo / nice / timeout (and their options) in front of the program. */
function stripWrappers(words: string[]): string[] {
  let w = words;
  for (;;) {
    const head = w[0];
    if (head !== "sudo" && head !== "nice" && head !== "timeout") return w;
    w = w.slice(1);
    while ((w[0] ?? "").startsWith("-"))
      w = w.slice(["-u", "-g", "--user", "--group", "-n", "-s", "-k", "--signal", "--kill-after"].includes(w[0] ?? "") ? 2 : 1);
    if (head === "timeout") w = w.slice(1); // the duration
  }
}

/**
 * What to verify after `command`. A rule's own verify command wins; else the
 * systemctl / docker lines of the command decide; else the exit code.
 */
export function planVerify(command: string, opts: { ruleVerify?: string; cwd?: string; timeoutMs?: number } = {}): VerifyPlan {
  const timing = {
    timeoutMs: opts.timeoutMs ?? VERIFY_DEFAULTS.timeoutMs,
    intervalMs: VERIFY_DEFAULTS.intervalMs,
    settleMs: VERIFY_DEFAULTS.settleMs,
  };
  if (opts.ruleVerify) return { kind: "command", command: opts.ruleVerify, timeoutMs: timing.timeoutMs, intervalMs: 1000 };
  const units: string[] = [];
  const containers: string[] = [];
  let compose: ComposeTarget | undefined;
  for (const segment of command.split(/&&|;|\n/)) {
    const raw = plainWords(segment.trim());
    if (!raw) continue;
    const w = stripWrappers(raw);
    if (w[0] === "systemctl") {
      const args = w.slice(1).filter((a) => !a.startsWith("-"));
      if (SYSTEMD_VERBS.has(args[0] ?? "")) units.push(...args.slice(1));
    } else if (w[0] === "service" && w[1] && SYSTEMD_VERBS.has(w[2] ?? "")) {
      units.push(w[1]);
    } else if (
      (w[0] === "docker" || w[0] === "podman") &&
      (w[1] === "start" || w[1] === "restart" || (w[1] === "container" && (w[2] === "start" || w[2] === "restart")))
    ) {
      containers.push(...w.slice(w[1] === "container" ? 3 : 2).filter((a) => !a.startsWith("-")));
    } else {
      const at = w[0] === "docker-compose" ? 1 : w[0] === "docker" && w[1] === "compose" ? 2 : -1;
      if (at < 0) continue;
      const options: string[] = [];
      let i = at;
      while (i < w.length && (w[i] ?? "").startsWith("-")) {
        options.push(w[i] ?? "");
        if (COMPOSE_GLOBAL_VALUED.has(w[i] ?? "")) options.push(w[++i] ?? "");
        i++;
      }
      if (w[i] !== "up" && w[i] !== "restart" && w[i] !== "start") continue;
      const services = w
        .slice(i + 1)
        .filter((a, j, all) => !a.startsWith("-") && !(all[j - 1] ?? "").match(/^(--scale|-t|--timeout|--wait-timeout)$/));
      compose = { options, services, ...(opts.cwd ? { cwd: opts.cwd } : {}) };
    }
  }
  if (units.length > 0) return { kind: "systemd", units, ...timing };
  if (containers.length > 0 || compose) return { kind: "docker", containers, ...(compose ? { compose } : {}), ...timing };
  return { kind: "exit" };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `check` until it has held for settleMs, or the timeout passes. */
async function pollUntil(
  check: () => Promise<{ ok: boolean; detail: string }>,
  timeoutMs: number,
  intervalMs: number,
  settleMs: number,
): Promise<{ ok: boolean; detail: string; attempts: number }> {
  const deadline = Date.now() + timeoutMs;
  let attempts = 0;
  let okSince: number | undefined;
  let last = { ok: false, detail: "not checked" };
  for (;;) {
    attempts++;
    last = await check();
    const now = Date.now();
    if (last.ok) {
      okSince ??= now;
      if (now - okSince >= settleMs) return { ...last, attempts };
    } else okSince = undefined;
    if (now >= deadline) return { ok: false, detail: last.ok ? `${last.detail} (not yet settled)` : last.detail, attempts };
    await sleep(Math.min(intervalMs, Math.max(0, deadline - now)));
  }
}

async function systemdCheck(units: string[], run: ProbeRunner): Promise<{ ok: boolean; detail: string }> {
  const states = await Promise.all(units.map(async (u) => ({ u, r: await run(probe(["systemctl", "is-active", u]), 5000) })));
  const bad = states.filter((s) => s.r.exitCode !== 0 || s.r.stdout.trim() !== "active");
  const detail = states.map((s) => `${s.u}: ${s.r.stdout.trim() || `exit ${s.r.exitCode}`}`).join(", ");
  return { ok: bad.length === 0, detail };
}

async function dockerCheck(plan: Extract<VerifyPlan, { kind: "docker" }>, run: ProbeRunner): Promise<{ ok: boolean; detail: string }> {
  let names = plan.containers;
  if (plan.compose) {
    const ps = await run(
      probe(["docker", "compose", ...plan.compose.options, "ps", "-q", ...plan.compose.services], plan.compose.cwd),
      10_000,
    );
    if (ps.exitCode !== 0) return { ok: false, detail: `docker compose ps failed (exit ${ps.exitCode})` };
    names = [
      ...names,
      ...ps.stdout
        .split("\n")
        .map((l) => l.trim())
        .filter(Boolean),
    ];
    if (names.length === 0) return { ok: false, detail: "compose project has no containers" };
  }
  const format = "{{.State.Status}} {{if .State.Health}}{{.State.Health.Status}}{{else}}none{{end}}";
  const states = await Promise.all(
    names.map(async (n) => ({ n, r: await run(probe(["docker", "inspect", "--format", format, n]), 5000) })),
  );
  const detail = states.map((s) => `${s.n.slice(0, 24)}: ${s.r.stdout.trim() || `exit ${s.r.exitCode}`}`).join(", ");
  const ok = states.every((s) => {
    const [status, health] = s.r.stdout.trim().split(/\s+/);
    return s.r.exitCode === 0 && status === "running" && (health === "healthy" || health === "none");
  });
  return { ok, detail };
}

/** Verifies the outcome of a command that exited with `exitCode`, per `plan`. */
export async function verifyOutcome(plan: VerifyPlan, exitCode: number, run: ProbeRunner = localProbeRunner()): Promise<VerifyResult> {
  const t0 = Date.now();
  const done = (passed: boolean, detail: string, attempts: number): VerifyResult => ({
    passed,
    kind: plan.kind,
    detail,
    attempts,
    durationMs: Date.now() - t0,
  });
  if (exitCode !== 0) return done(false, `command exited ${exitCode}`, 0);
  switch (plan.kind) {
    case "exit":
      return done(true, "exit code 0", 0);
    case "systemd": {
      const r = await pollUntil(() => systemdCheck(plan.units, run), plan.timeoutMs, plan.intervalMs, plan.settleMs);
      return done(r.ok, r.detail, r.attempts);
    }
    case "docker": {
      const r = await pollUntil(() => dockerCheck(plan, run), plan.timeoutMs, plan.intervalMs, plan.settleMs);
      return done(r.ok, r.detail, r.attempts);
    }
    case "command": {
      const check = async () => {
        const r = await run({ argv: ["/bin/sh", "-c", plan.command], command: plan.command }, Math.min(plan.timeoutMs, 30_000));
        return { ok: r.exitCode === 0, detail: `verify command exited ${r.exitCode}` };
      };
      const r = await pollUntil(check, plan.timeoutMs, plan.intervalMs, 0);
      return done(r.ok, r.detail, r.attempts);
    }
  }
}
