// GET /timeline: the audit, newest first, one line per request, with filters
// (tier, decision, source, caller, time) as a plain GET form.
import { DECISION_TYPES, AUDIT_SOURCES } from "../../audit/record.js";
import type { AuditReader, TimelineFilter, TimelineRow } from "../audit-reader.js";
import { html, page, query, when, type Html, type Viewer } from "../html.js";

const PAGE_ROWS = 100;

/** A time filter: ISO date/time or a relative age (30m, 12h, 7d). */
export function parseWhen(value: string, now = Date.now()): Date | undefined {
  const rel = /^(\d{1,6})([mhd])$/.exec(value);
  if (rel) return new Date(now - Number(rel[1]) * { m: 60_000, h: 3_600_000, d: 86_400_000 }[rel[2] as "m" | "h" | "d"]);
  if (!/^\d{4}-\d{2}-\d{2}([T ][0-9:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(value)) return undefined;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? undefined : d;
}

/** The filter a query string asks for, or the first thing wrong with it. */
export function parseFilter(params: URLSearchParams): { filter: TimelineFilter } | { error: string } {
  const f: TimelineFilter = { limit: PAGE_ROWS };
  const get = (k: string) => params.get(k)?.trim() || undefined;
  const tier = get("tier");
  if (tier !== undefined) {
    if (!/^[0-4]$/.test(tier)) return { error: "tier is 0–4" };
    f.tier = Number(tier);
  }
  const decision = get("decision");
  if (decision !== undefined) {
    if (!(DECISION_TYPES as readonly string[]).includes(decision)) return { error: "unknown decision type" };
    f.decision = decision;
  }
  const source = get("source");
  if (source !== undefined) {
    if (!(AUDIT_SOURCES as readonly string[]).includes(source)) return { error: "source is http, hook or cli" };
    f.source = source;
  }
  const caller = get("caller");
  if (caller !== undefined) {
    if (caller.length > 255) return { error: "caller is at most 255 characters" };
    f.caller = caller;
  }
  for (const k of ["since", "until"] as const) {
    const v = get(k);
    if (v === undefined) continue;
    const d = parseWhen(v);
    if (!d) return { error: `${k}: an ISO date/time or 30m, 12h, 7d` };
    f[k] = d;
  }
  const before = get("before");
  if (before !== undefined) {
    if (!/^\d{1,18}$/.test(before)) return { error: "before is a row number" };
    f.before = before;
  }
  return { filter: f };
}

export function tierBadge(tier: number | null | undefined): Html {
  const t = tier === null || tier === undefined ? "none" : String(tier);
  return html`<span class="tier tier-${t}">${t === "none" ? "-" : t}</span>`;
}

function options(values: readonly string[], chosen: string | null): Html[] {
  return ["", ...values].map((v) => html`<option value="${v}"${v === (chosen ?? "") ? html` selected` : ""}>${v || "any"}</option>`);
}

function filterForm(params: URLSearchParams): Html {
  const v = (k: string) => params.get(k) ?? "";
  return html`<form method="get" action="/timeline" class="filters">
<label>tier<select name="tier">${options(["0", "1", "2", "3", "4"], params.get("tier"))}</select></label>
<label>decision<select name="decision">${options(
    DECISION_TYPES.filter((d) => d !== "pending"),
    params.get("decision"),
  )}</select></label>
<label>source<select name="source">${options(AUDIT_SOURCES, params.get("source"))}</select></label>
<label>caller<input name="caller" value="${v("caller")}" maxlength="255" size="12"></label>
<label>since<input name="since" value="${v("since")}" placeholder="24h or 2025-01-31" size="14"></label>
<label>until<input name="until" value="${v("until")}" placeholder="ISO time" size="14"></label>
<button type="submit">Filter</button> <a href="/timeline">clear</a>
</form>`;
}

function row(r: TimelineRow): Html {
  const cmd = r.command.length > 300 ? `${r.command.slice(0, 297)}...` : r.command;
  return html`<tr>
<td><a href="/requests/${encodeURIComponent(r.request_id)}">${when(r.ts)}</a></td>
<td>${tierBadge(r.tier)}</td><td>${r.decision}</td><td>${r.source}</td><td>${r.caller}</td>
<td class="cmd">${cmd}</td><td>${r.exit_code ?? ""}</td><td>${r.duration_ms ?? ""}</td>
<td>${r.verdict ? html`<span class="verdict-${r.verdict}">${r.verdict}</span>` : ""}</td></tr>`;
}

export async function timelinePage(
  reader: AuditReader,
  params: URLSearchParams,
  viewer: Viewer,
): Promise<{ status: number; body: string }> {
  const parsed = parseFilter(params);
  if ("error" in parsed)
    return { status: 400, body: page("Audit", html`${filterForm(params)}<p class="error">${parsed.error}</p>`, viewer, "/timeline") };
  const rows = await reader.timeline(parsed.filter);
  const last = rows.at(-1);
  const more =
    rows.length === PAGE_ROWS && last
      ? html`<p><a href="/timeline${query({ ...Object.fromEntries(params), before: last.key })}">older</a></p>`
      : "";
  const body = html`${filterForm(params)}
<table id="timeline"><thead><tr><th>time</th><th>tier</th><th>decision</th><th>source</th><th>caller</th><th>command</th><th>exit</th><th>ms</th><th>label</th></tr></thead>
<tbody>${rows.map(row)}</tbody></table>
${rows.length === 0 ? html`<p class="note">No audited requests match (records still in the gateway's spool appear once shipped).</p>` : ""}${more}`;
  return { status: 200, body: page("Audit", body, viewer, "/timeline") };
}
