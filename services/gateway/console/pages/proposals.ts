// GET /proposals and /proposals/ID: proposed rules with their evidence (runs,
// the audited commands behind them and how they ended) and the exact CLI
// commands a person runs to look, activate or reject. There is no activate
// button: activating re-signs the policy with the signing key, which this
// process never holds, and it is a person's act at a terminal.
import type { PendingFile, Proposal } from "../../../shared/proposals.js";
import type { TimelineRow } from "../audit-reader.js";
import { html, page, shellWord, when, type Html, type Viewer } from "../html.js";
import { tierBadge } from "./timeline.js";

function policyFile(p: { policy: string }): string {
  return p.policy === "sudo" ? "SUDO.md" : "CLAUDE_CMDS.md";
}

export function proposalsPage(file: PendingFile, viewer: Viewer): string {
  const rows = file.proposals.map(
    (
      p,
    ) => html`<tr><td><a href="/proposals/${encodeURIComponent(p.id)}">${p.id}</a></td><td class="cmd">${p.pattern}</td><td>${policyFile(p)}</td>
<td>${tierBadge(p.suggested_tier)}</td><td>${p.source}</td><td>${p.evidence.clean_runs}</td><td>${p.evidence.unclean_runs}</td><td>${p.updated_at}</td></tr>`,
  );
  const closed = [
    ...file.activated.map(
      (a) =>
        html`<tr><td>${a.id}</td><td class="cmd">${a.pattern}</td><td>activated as ${a.rule_id} in ${a.file} (tier ${a.tier})</td><td>${a.by}</td><td>${a.at}</td></tr>`,
    ),
    ...file.rejected.map(
      (r) => html`<tr><td>${r.id}</td><td class="cmd">${r.pattern}</td><td>rejected: ${r.reason}</td><td>${r.by}</td><td>${r.at}</td></tr>`,
    ),
  ];
  const body = html`<p class="note">A proposed rule never decides anything. Activating one is a person's act with the signing key, at a terminal: each proposal's page gives the command.</p>
<table id="proposals"><thead><tr><th>id</th><th>pattern</th><th>policy</th><th>suggested tier</th><th>source</th><th>clean runs</th><th>other runs</th><th>updated</th></tr></thead>
<tbody>${rows}</tbody></table>
${rows.length === 0 ? html`<p class="note">No proposals are pending.</p>` : ""}
${closed.length > 0 ? html`<h2>Decided</h2><table><thead><tr><th>id</th><th>pattern</th><th>decision</th><th>by</th><th>at</th></tr></thead><tbody>${closed}</tbody></table>` : ""}`;
  return page("Proposed rules", body, viewer, "/proposals");
}

/** The commands a person runs for this proposal, exactly as they are to be typed. */
export function proposalCommands(p: Proposal, by: string, cliPrefix: string): string[] {
  const cli = `${cliPrefix}agent-sudo rules`;
  return [
    `${cli} show ${p.id}`,
    `${cli} activate ${p.id} --dry-run`,
    `${cli} activate ${p.id} --tier ${p.suggested_tier} --by ${shellWord(by)}`,
    `${cli} reject ${p.id} --reason 'WHY' --by ${shellWord(by)}`,
  ];
}

function runsTable(ids: readonly string[], runs: TimelineRow[] | undefined): Html {
  if (!runs) return html`<p class="note">The audit database is not configured: request ids only.</p><pre>${ids.map((i) => `${i}\n`)}</pre>`;
  const byId = new Map(runs.map((r) => [r.request_id, r]));
  return html`<table><thead><tr><th>request</th><th>time</th><th>tier</th><th>decision</th><th>exit</th><th>command</th></tr></thead><tbody>
${ids.map((id) => {
  const r = byId.get(id);
  return r
    ? html`<tr><td><a href="/requests/${encodeURIComponent(id)}">${id.slice(0, 8)}</a></td><td>${when(r.ts)}</td><td>${tierBadge(r.tier)}</td><td>${r.decision}</td><td>${r.exit_code ?? ""}</td><td class="cmd">${r.command}</td></tr>`
    : html`<tr><td>${id.slice(0, 8)}</td><td colspan="5" class="note">not in the database (still spooled, or older than the audit kept)</td></tr>`;
})}</tbody></table>`;
}

export function proposalPage(p: Proposal, runs: TimelineRow[] | undefined, viewer: Viewer, cliPrefix: string): string {
  const e = p.evidence;
  const trial = e.trial;
  const body = html`<dl>
<dt>pattern</dt><dd><code>${p.pattern}</code></dd>
<dt>policy</dt><dd>${policyFile(p)}</dd>
<dt>suggested tier</dt><dd>${tierBadge(p.suggested_tier)}</dd>
<dt>source</dt><dd>${p.source === "sandbox" ? "trialled in the sandbox" : "learned from the audit"}</dd>
<dt>example</dt><dd><code>${p.example}</code></dd>
<dt>command</dt><dd><code>${p.command}</code>${p.cwd ? html` (cwd <code>${p.cwd}</code>)` : ""}</dd>
<dt>runs</dt><dd>${e.clean_runs} clean, ${e.unclean_runs} other; tiers seen ${e.tiers_seen.join(", ") || "-"}; hosts ${e.hosts.join(", ") || "-"}</dd>
<dt>created</dt><dd>${p.created_at} (updated ${p.updated_at})</dd>
</dl>
<h2>Activate or reject (at a terminal)</h2>
<p>Activating re-signs the policy with the signing key; it is a person's act and is not offered here. Look first, then decide:</p>
<pre class="cli" id="cli">${proposalCommands(p, viewer.name, cliPrefix).map((c) => `${c}\n`)}</pre>
<p class="note">The services read the policy at start: restart the classifier after activating.</p>
<h2>Runs behind it</h2>
${runsTable(e.request_ids, runs)}
${
  trial
    ? html`<h2>Sandbox trial</h2><dl><dt>ok</dt><dd>${trial.ok}</dd><dt>exit code</dt><dd>${trial.exit_code ?? "-"}</dd><dt>request</dt><dd>${trial.request_id ?? "-"}</dd></dl>
${trial.touched_paths.length > 0 ? html`<p>Touched:</p><pre>${trial.touched_paths.map((t) => `${t}\n`)}</pre>` : ""}
${trial.findings.length > 0 ? html`<p>Findings:</p><pre>${trial.findings.map((t) => `${t}\n`)}</pre>` : ""}
${trial.gaps.length > 0 ? html`<p>Gaps:</p><pre>${trial.gaps.map((t) => `${t}\n`)}</pre>` : ""}`
    : ""
}`;
  return page(`Proposal ${p.id}`, body, viewer, "/proposals");
}
