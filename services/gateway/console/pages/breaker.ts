// GET /breaker: armed or not, its trip and rearm history, and the command a
// person runs (as root) to re-arm it. Nothing here trips or re-arms.
import type { BreakerStatus } from "../../../../proto/gen/agent_sudo/v1/breaker_admin_pb.js";
import { html, page, when, type Viewer } from "../html.js";

export function breakerPage(status: BreakerStatus | undefined, viewer: Viewer, cliPrefix: string): string {
  if (!status)
    return page(
      "Breaker",
      html`<p class="error">The breaker did not answer: its state is unknown (and every tier ≥ 1 request is refused while it is down).</p>`,
      viewer,
      "/breaker",
    );
  const events = [...status.events].reverse();
  const body = html`<p id="breaker-state">${status.armed ? html`<span class="armed">ARMED</span>` : html`<span class="disarmed">DISARMED</span>`} since ${when(status.since)}
${status.armed ? "" : html` by <code>${status.rule}</code>: ${status.reason}. Only tier 0 (read-only) executes.`}</p>
${
  status.armed
    ? html`<p class="note">Anyone may trip it (<code>${cliPrefix}agent-sudo breaker trip --reason 'WHY'</code>); only a person re-arms it.</p>`
    : html`<h2>Re-arm (a person, as root, at a terminal)</h2><pre class="cli" id="rearm">sudo ${cliPrefix}agent-sudo breaker rearm --reason 'WHAT WAS CHECKED'\n</pre>`
}
<h2>Trips and rearms</h2>
<table id="breaker-events"><thead><tr><th>time</th><th>event</th><th>rule</th><th>reason</th><th>by</th></tr></thead><tbody>
${events.map((e) => html`<tr><td>${when(e.at)}</td><td>${e.kind}</td><td>${e.rule}</td><td>${e.reason}</td><td>${e.by}</td></tr>`)}
</tbody></table>
${events.length === 0 ? html`<p class="note">No trips recorded.</p>` : ""}`;
  return page("Breaker", body, viewer, "/breaker");
}
