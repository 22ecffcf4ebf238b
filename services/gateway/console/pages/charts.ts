// GET /charts?range=24h|7d|30d: decisions per tier over time (every audited
// decision: /exec and hook) and /exec latency percentiles (p50, p90, p99 of
// duration_ms), per hour or per day, from the audit database.
import type { AuditReader } from "../audit-reader.js";
import { html, page, type Viewer } from "../html.js";
import { lineChart, stackedBars } from "../svg.js";

const RANGES: Record<string, { spanS: number; bucketS: number }> = {
  "24h": { spanS: 86_400, bucketS: 3600 },
  "7d": { spanS: 7 * 86_400, bucketS: 6 * 3600 },
  "30d": { spanS: 30 * 86_400, bucketS: 86_400 },
};

const TIERS = [
  { key: "0", label: "tier 0", cls: "t0" },
  { key: "1", label: "tier 1", cls: "t1" },
  { key: "2", label: "tier 2", cls: "t2" },
  { key: "3", label: "tier 3", cls: "t3" },
  { key: "4", label: "tier 4", cls: "t4" },
  { key: "none", label: "no tier", cls: "tnone" },
];

/** Every bucket start from `since` to now, so empty hours show as gaps. */
function bucketsFrom(since: Date, bucketS: number): Date[] {
  const out: Date[] = [];
  const first = Math.floor(since.getTime() / 1000 / bucketS) * bucketS;
  for (let t = first; t * 1000 <= Date.now(); t += bucketS) out.push(new Date(t * 1000));
  return out;
}

export async function chartsPage(reader: AuditReader, params: URLSearchParams, viewer: Viewer): Promise<{ status: number; body: string }> {
  const rangeName = params.get("range") ?? "24h";
  const range = RANGES[rangeName];
  if (!range) return { status: 400, body: page("Charts", html`<p class="error">range is 24h, 7d or 30d</p>`, viewer, "/charts") };
  const since = new Date(Date.now() - range.spanS * 1000);
  const [tiers, latency] = await Promise.all([reader.tiersOverTime(since, range.bucketS), reader.latencyOverTime(since, range.bucketS)]);
  const buckets = bucketsFrom(since, range.bucketS);
  const index = new Map(buckets.map((b, i) => [b.getTime(), i]));
  const counts = buckets.map(() => new Map<string, number>());
  for (const t of tiers) {
    const i = index.get(new Date(t.bucket).getTime());
    if (i === undefined) continue;
    const key = t.tier === null ? "none" : String(t.tier);
    counts[i]?.set(key, (counts[i]?.get(key) ?? 0) + t.n);
  }
  const bars = stackedBars(
    { buckets, series: TIERS, value: (i, k) => counts[i]?.get(k) ?? 0 },
    range.spanS,
    `Decisions per tier, last ${rangeName}`,
  );
  const lat = buckets.map(() => undefined as { p50: number; p90: number; p99: number } | undefined);
  for (const l of latency) {
    const i = index.get(new Date(l.bucket).getTime());
    if (i !== undefined) lat[i] = l;
  }
  const lines = lineChart(
    {
      buckets,
      series: [
        { label: "p50", cls: "p50", key: "k50", values: lat.map((l) => l?.p50) },
        { label: "p90", cls: "p90", key: "k90", values: lat.map((l) => l?.p90) },
        { label: "p99", cls: "p99", key: "k99", values: lat.map((l) => l?.p99) },
      ],
    },
    range.spanS,
    `/exec latency percentiles, last ${rangeName}`,
    "ms",
  );
  const total = tiers.reduce((s, t) => s + t.n, 0);
  const body = html`<p>${Object.keys(RANGES).map((r) => (r === rangeName ? html`<strong>${r}</strong> ` : html`<a href="/charts?range=${r}">${r}</a> `))}</p>
<h2>Decisions per tier</h2>${bars}<p class="note" id="decision-total">${total} decisions in the last ${rangeName} (hook outcomes reported by the client not counted).</p>
<h2>/exec latency (ms)</h2>${latency.length > 0 ? lines : html`<p class="note">No /exec requests in this range.</p>`}
<p class="note">Live figures per stage (classify, run, execute …) are on <code>GET /metrics</code> as <code>agent_sudo_stage_duration_seconds</code>.</p>`;
  return { status: 200, body: page("Charts", body, viewer, "/charts") };
}
