// GET /requests/ID: one command's whole evidence — the verdict, the run's
// diff, the signers, the undo record, the verify — and the approve/reject
// label form (the same operation as `agent-sudo audit label`).
import type { AuditRow } from "../audit-reader.js";
import { html, page, shellWord, when, type Html, type Viewer } from "../html.js";
import { tierBadge } from "./timeline.js";

type Json = Record<string, unknown>;

function obj(v: unknown): Json | undefined {
  return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Json) : undefined;
}

function list(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

function field(label: string, value: unknown): Html {
  if (value === undefined || value === null || value === "") return html``;
  return html`<dt>${label}</dt><dd>${typeof value === "object" ? JSON.stringify(value) : String(value)}</dd>`;
}

function verdictSection(e: Json): Html {
  const v = obj(e.verdict);
  const c = obj(e.concurrence);
  const effects = obj(e.effects);
  if (!v && !c && !effects) return html``;
  return html`<h2>Verdict</h2><dl>
${field("classifier", v ? `tier ${String(v.tier)}, rule ${String(v.rule)}: ${String(v.reason)}` : undefined)}
${field("explicit rule", v?.explicit)}
${field("concurrence", c ? `tier ${String(c.tier)}, ${String(c.rule)}: ${String(c.reason)}` : undefined)}
${field("effect verdicts", effects)}
${field("final tier", e.final_tier)}
</dl>`;
}

function runSection(e: Json): Html {
  const run = obj(e.run) ?? obj(e.trial);
  if (!run) return html``;
  const changes = list(run.changes ?? run.touched);
  return html`<h2>${e.run ? "Run in the mirror (its diff)" : "Package trial"}</h2><dl>
${field("ok", run.ok)}${field("exit code", run.exit_code)}${field("timed out", run.timed_out)}
${field("changed paths", run.changed ?? changes.length)}${field("committed", e.committed)}${field("not committed", e.not_committed)}
</dl>
${changes.length > 0 ? html`<pre id="diff">${changes.map((c) => `${typeof c === "string" ? c : JSON.stringify(c)}\n`)}</pre>` : ""}
${list(run.findings).length > 0 ? html`<p>Findings:</p><pre>${list(run.findings).map((f) => `${String(f)}\n`)}</pre>` : ""}
${list(run.gaps).length > 0 ? html`<p>Gaps:</p><pre>${list(run.gaps).map((g) => `${String(g)}\n`)}</pre>` : ""}`;
}

function outcomeSection(e: Json, out: AuditRow | undefined): Html {
  return html`<h2>Signers, undo, verify</h2><dl>
${field("signers", list(e.signers).join(", ") || "-")}
${field("undo id", e.undo_id ?? "-")}
${field("snapshot", e.snapshot)}
${field("verify passed", out?.verify_passed)}
${field("verify", e.verify)}
${field("rollback taken", out?.rollback_taken)}
${field("redeploy", e.redeploy)}
${field("stage times (ms)", e.stages_ms)}
${field("http status", e.http_status)}
${field("reason", e.reason)}
</dl>
${e.undo_id ? html`<p class="note">Undo (a person, as root): <code>agent-sudo rollback ${String(e.undo_id)}</code></p>` : ""}`;
}

function labelSection(requestId: string, head: AuditRow, viewer: Viewer, notice?: string): Html {
  const current = head.human_verdict as string | null;
  return html`<h2>Label</h2>
${notice ? html`<p class="note" role="status" id="label-notice">${notice}</p>` : ""}
<p>Current label: ${current ? html`<span class="verdict-${current}" id="current-label">${current}</span> by ${String(head.human_verdict_by)} at ${when(head.human_verdict_at)}` : html`<span id="current-label">none</span>`}</p>
<form method="post" action="/requests/${encodeURIComponent(requestId)}/label" class="label-form">
<input type="hidden" name="csrf" value="${viewer.csrf}">
<button type="submit" name="verdict" value="approve" id="approve">Approve</button>
<button type="submit" name="verdict" value="reject" id="reject">Reject</button>
<span class="note">as ${viewer.name}; the same as <code>agent-sudo audit label ${shellWord(requestId)} approve|reject --by ${shellWord(viewer.name)}</code></span>
</form>`;
}

export function requestPage(requestId: string, rows: AuditRow[], viewer: Viewer, notice?: string): { status: number; body: string } {
  const intent = rows.find((r) => r.phase === "intent");
  const out = rows.find((r) => r.phase === "outcome");
  const head = out ?? intent;
  if (!head) {
    return {
      status: 404,
      body: page(
        "Request not found",
        html`<p>No audit rows for <code>${requestId}</code> in the database (it may still be in the gateway's spool).</p>`,
        viewer,
      ),
    };
  }
  const e: Json = { ...(obj(intent?.evidence) ?? {}), ...(obj(out?.evidence) ?? {}) };
  const body = html`<dl>
${field("request", requestId)}
<dt>tier</dt><dd>${tierBadge(head.assigned_tier as number | null)}</dd>
${field("decision", head.decision_type)}${field("time", when(intent?.ts ?? head.ts))}${field("host", head.host)}
${field("source", head.source)}${field("caller", head.caller)}${field("run as", head.source === "hook" ? "the agent's own user (the hook only decides)" : head.run_as || "root")}${field("cwd", head.cwd)}
${field("rule", head.matched_rule)}${field("exit code", out?.exit_code)}${field("duration (ms)", out?.duration_ms)}
${field("policy digest", head.policy_digest)}${field("training signal", head.training_signal)}
</dl>
<h2>Command</h2><pre id="command">${String(head.command)}</pre>
${labelSection(requestId, head, viewer, notice)}
${verdictSection(e)}${runSection(e)}${outcomeSection(e, out)}
<h2>Evidence as recorded</h2>
${rows.map((r) => html`<p>${r.phase} row, ${when(r.ts)}</p><pre>${JSON.stringify(r.evidence ?? {}, null, 2)}</pre>`)}`;
  return { status: 200, body: page(`Request ${requestId.slice(0, 8)}`, body, viewer, "/timeline") };
}
