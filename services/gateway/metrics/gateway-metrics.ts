// The gateway's Prometheus metrics (prom-client): what it answered, what it
// decided, how long each stage took, and the state of the parts it depends
// on. Counters move when the gateway answers or audits; the gauges of the
// spool, the shipper and the breaker are read when /metrics is scraped.
//
// Labels are closed sets (routes the gateway serves, tiers 0–4, the audit's
// decision vocabulary, stage names the pipeline uses): a caller cannot grow
// the registry by sending odd paths or commands.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import type { BreakerStatus } from "../../../proto/gen/agent_sudo/v1/breaker_admin_pb.js";

/** What the scrape reads from the rest of the gateway. */
export interface MetricSources {
  /** config.host_id: the label of the gauges that may be absent (an unlabelled gauge always shows a value). */
  host: string;
  spool: () => { depth: number; segments: number; rejected_total: number };
  /** undefined: no database configured (nothing ships). */
  shipper: () => { state: string; shipped_total: number } | undefined;
  unauditedRefusals: () => number;
  /** The breaker's read-only status; rejects when the breaker is down. */
  breaker: () => Promise<BreakerStatus>;
}

/** One audited decision, as the audit trail writes its outcome. */
export interface ObservedOutcome {
  source: string;
  decision: string;
  tier: number | undefined;
  durationMs: number | undefined;
  evidence: Record<string, unknown>;
}

const ROUTES = new Set(["/exec", "/health", "/allowlist", "/metrics", "/v1/hook", "/v1/hook/session-start", "/v1/hook/post-tool-use"]);
const STAGES = new Set(["resolve", "classify", "run", "judge", "lease", "intent", "commit", "execute", "outcome"]);
const HOOK_DECISIONS = new Set(["allowed", "denied", "routed", "no_opinion", "late"]);
/** Seconds: a classification takes milliseconds, a run in the mirror seconds, a package install minutes. */
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];

function tierLabel(tier: unknown): string {
  return typeof tier === "number" && Number.isInteger(tier) && tier >= 0 && tier <= 4 ? String(tier) : "none";
}

function word(value: string, allowed: ReadonlySet<string>): string {
  return allowed.has(value) ? value : "other";
}

export class GatewayMetrics {
  readonly registry = new Registry();
  private readonly requests: Counter<"route" | "status" | "tier">;
  private readonly decisions: Counter<"source" | "decision" | "tier">;
  private readonly hookDecisions: Counter<"decision" | "tier">;
  private readonly trials: Counter<"kind" | "outcome">;
  private readonly stages: Histogram<"stage">;
  private readonly durations: Histogram<"source" | "tier">;
  /** When the spool last held nothing unshipped, or the shipper last shipped something (ms). */
  private lastCaughtUp = Date.now();
  private lastShipped = -1;
  private readonly sampler: NodeJS.Timeout;
  private readonly decisionWords: ReadonlySet<string>;

  constructor(
    private readonly sources: MetricSources,
    decisionTypes: readonly string[],
  ) {
    const registers = [this.registry];
    this.decisionWords = new Set(decisionTypes);
    this.requests = new Counter({
      name: "agent_sudo_requests_total",
      help: "HTTP answers by route, status and tier (tier 'none' when the answer names none)",
      labelNames: ["route", "status", "tier"],
      registers,
    });
    this.decisions = new Counter({
      name: "agent_sudo_decisions_total",
      help: "Audited decisions by source (http, hook), decision type and tier",
      labelNames: ["source", "decision", "tier"],
      registers,
    });
    this.hookDecisions = new Counter({
      name: "agent_sudo_hook_decisions_total",
      help: "PreToolUse hook answers by kind (allowed, denied, routed, no_opinion, late) and tier",
      labelNames: ["decision", "tier"],
      registers,
    });
    this.trials = new Counter({
      name: "agent_sudo_trials_total",
      help: "Runs in the sandbox by kind (mirror: the transactional run of tiers 1-3; package: a package run's trial) and outcome",
      labelNames: ["kind", "outcome"],
      registers,
    });
    this.stages = new Histogram({
      name: "agent_sudo_stage_duration_seconds",
      help: "Time per /exec pipeline stage (resolve, classify, run, judge, lease, intent, commit, execute, outcome), from the audit's evidence.stages_ms",
      labelNames: ["stage"],
      buckets: BUCKETS,
      registers,
    });
    this.durations = new Histogram({
      name: "agent_sudo_request_duration_seconds",
      help: "Whole /exec requests, from the audit's duration_ms, by tier",
      labelNames: ["source", "tier"],
      buckets: BUCKETS,
      registers,
    });
    this.gauges(registers);
    collectDefaultMetrics({ register: this.registry, prefix: "agent_sudo_gateway_" });
    this.sampler = setInterval(() => this.sampleLag(), 1000);
    this.sampler.unref();
  }

  private gauges(registers: Registry[]): void {
    const sources = this.sources;
    const self = this;
    new Gauge({
      name: "agent_sudo_audit_spool_depth",
      help: "Audit records in the spool not yet shipped to PostgreSQL",
      registers,
      collect() {
        this.set(sources.spool().depth);
      },
    });
    new Gauge({
      name: "agent_sudo_audit_spool_segments",
      help: "Spool segment files on disk",
      registers,
      collect() {
        this.set(sources.spool().segments);
      },
    });
    new Gauge({
      name: "agent_sudo_audit_spool_rejected",
      help: "Damaged spool lines set aside since the gateway started (lost from PostgreSQL)",
      registers,
      collect() {
        this.set(sources.spool().rejected_total);
      },
    });
    new Gauge({
      name: "agent_sudo_audit_unaudited_refusals",
      help: "Refusals answered whose audit record could not be made durable, since start",
      registers,
      collect() {
        this.set(sources.unauditedRefusals());
      },
    });
    new Gauge({
      name: "agent_sudo_audit_shipped_records",
      help: "Records the shipper has written to PostgreSQL since start",
      registers,
      collect() {
        this.set(sources.shipper()?.shipped_total ?? 0);
      },
    });
    new Gauge({
      name: "agent_sudo_audit_shipper_up",
      help: "1 while the shipper reaches PostgreSQL, 0 while it retries or is down, absent without a database",
      labelNames: ["host"],
      registers,
      collect() {
        const s = sources.shipper();
        this.reset();
        if (s) this.set({ host: sources.host }, s.state === "ok" ? 1 : 0);
      },
    });
    new Gauge({
      name: "agent_sudo_audit_shipper_lag_seconds",
      help: "Seconds records have waited in the spool without the shipper making progress (0 when drained; sampled each second)",
      registers,
      collect() {
        this.set(self.lagSeconds());
      },
    });
    this.breakerGauges(registers);
  }

  /** One breaker status read shared by the gauges of one scrape (they are collected concurrently). */
  private breakerRead: { at: number; status: Promise<BreakerStatus | undefined> } | undefined;

  /** The text of one scrape: its breaker gauges read the breaker anew (never a previous scrape's answer). */
  scrape(): Promise<string> {
    this.breakerRead = undefined;
    return this.registry.metrics();
  }

  private breakerStatus(): Promise<BreakerStatus | undefined> {
    const now = Date.now();
    if (!this.breakerRead || now - this.breakerRead.at > 500) {
      this.breakerRead = { at: now, status: this.sources.breaker().catch(() => undefined) };
    }
    return this.breakerRead.status;
  }

  private breakerGauges(registers: Registry[]): void {
    const read = () => this.breakerStatus();
    const host = this.sources.host;
    const gauge = (name: string, help: string, value: (s: BreakerStatus) => number, whenDown?: number) =>
      new Gauge({
        name,
        help,
        labelNames: ["host"],
        registers,
        async collect() {
          const s = await read();
          this.reset();
          if (s) this.set({ host }, value(s));
          else if (whenDown !== undefined) this.set({ host }, whenDown);
        },
      });
    const trips = (s: BreakerStatus) => s.events.filter((e) => e.kind === "trip");
    gauge("agent_sudo_breaker_status_up", "1 when the breaker answered this scrape's status read, else 0", () => 1, 0);
    gauge("agent_sudo_breaker_armed", "1 armed, 0 disarmed (tier 0 only); absent when the breaker did not answer", (s) =>
      s.armed ? 1 : 0,
    );
    gauge(
      "agent_sudo_breaker_trips_recorded",
      "Trips in the breaker's kept history (its last 200 trip and rearm events)",
      (s) => trips(s).length,
    );
    gauge(
      "agent_sudo_breaker_last_trip_timestamp_seconds",
      "Unix time of the newest recorded trip (0: none)",
      (s) => trips(s).at(-1)?.at ?? 0,
    );
  }

  private sampleLag(): void {
    const now = Date.now();
    const shipped = this.sources.shipper()?.shipped_total ?? 0;
    if (this.sources.spool().depth === 0 || shipped !== this.lastShipped) this.lastCaughtUp = now;
    this.lastShipped = shipped;
  }

  lagSeconds(): number {
    if (this.sources.spool().depth === 0) return 0;
    return Math.max(0, (Date.now() - this.lastCaughtUp) / 1000);
  }

  /** An HTTP answer (both listeners). */
  observeAnswer(path: string, status: number, tier: unknown): void {
    this.requests.inc({ route: word(path, ROUTES), status: String(status), tier: tierLabel(tier) });
  }

  /** An audited outcome: decision counts, stage and request times, trials, hook answers. */
  observeOutcome(o: ObservedOutcome): void {
    const tier = tierLabel(o.tier);
    this.decisions.inc({ source: o.source === "hook" ? "hook" : "http", decision: word(o.decision, this.decisionWords), tier });
    if (o.source === "hook") {
      if (HOOK_DECISIONS.has(o.decision)) this.hookDecisions.inc({ decision: o.decision, tier });
      return;
    }
    if (o.durationMs !== undefined && Number.isFinite(o.durationMs))
      this.durations.observe({ source: "http", tier }, Math.max(0, o.durationMs) / 1000);
    const stages = o.evidence.stages_ms;
    if (stages && typeof stages === "object") {
      for (const [stage, ms] of Object.entries(stages as Record<string, unknown>)) {
        if (STAGES.has(stage) && typeof ms === "number" && Number.isFinite(ms)) this.stages.observe({ stage }, Math.max(0, ms) / 1000);
      }
    }
    this.observeTrial(o);
  }

  private observeTrial(o: ObservedOutcome): void {
    const conflict = o.evidence.http_status === 409;
    for (const kind of ["run", "trial"] as const) {
      const r = o.evidence[kind] as { ok?: unknown; timed_out?: unknown } | undefined;
      if (!r || typeof r !== "object") continue;
      const outcome = conflict ? "conflict" : r.timed_out === true ? "timed_out" : r.ok === true ? "ok" : "failed";
      this.trials.inc({ kind: kind === "run" ? "mirror" : "package", outcome });
    }
  }

  close(): void {
    clearInterval(this.sampler);
  }
}
