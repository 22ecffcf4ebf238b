// agent-sudo operator console — SECURITY: a read-mostly web view for the one
// recurring human work (review): the audit and its gold labels, proposed
// rules, the breaker. Served by the gateway process on its own listener,
// loopback only (config.console.bind), off by default.
// Trusts: a console admin token (console-tokens.json, never an /exec
// token), exchanged at /login for a session cookie. Refuses: a Host that is
// not the console (421, DNS rebinding), any POST not from its own origin
// (403), a form without the session's CSRF token (403), a form over 4 KiB
// (413) or not urlencoded (415). Changes one thing only: the audit label
// (audit/label.ts, the same as `agent-sudo audit label`). Activating rules
// and re-arming the breaker stay at a terminal; the pages print the command.
// Pages are server-rendered, every value escaped, and carry no script: the
// CSP allows none. Fails closed: an error is a 500 page, never data.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { BreakerStatus } from "../../../proto/gen/agent_sudo/v1/breaker_admin_pb.js";
import type { Logger } from "../../shared/log.js";
import type { PendingFile } from "../../shared/proposals.js";
import type { AuthLimiter } from "../auth-limit.js";
import { labelRequest, REQUEST_ID } from "../audit/label.js";
import type { AuditReader } from "./audit-reader.js";
import { FormError, readForm } from "./form.js";
import { html, page, type Viewer } from "./html.js";
import type { OriginCheck } from "./origin-check.js";
import { breakerPage } from "./pages/breaker.js";
import { chartsPage } from "./pages/charts.js";
import { loginPage } from "./pages/login.js";
import { proposalPage, proposalsPage } from "./pages/proposals.js";
import { requestPage } from "./pages/request.js";
import { timelinePage } from "./pages/timeline.js";
import { ConsoleSessions, type Session } from "./sessions.js";
import { CONSOLE_CSS } from "./style.js";

export interface ConsoleDeps {
  sessions: ConsoleSessions;
  origin: OriginCheck;
  authLimit: AuthLimiter;
  /** Absent: no DATABASE_URL, so no audit pages. */
  audit?: AuditReader;
  breaker: () => Promise<BreakerStatus>;
  proposals: () => PendingFile;
  /** Put before `agent-sudo` in the commands shown (AGENT_SUDO_HOME=… on a non-default state dir). */
  cliPrefix: string;
  log: Logger;
}

export const CSP = "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

const SECURITY_HEADERS: Record<string, string> = {
  "content-security-policy": CSP,
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  // same-origin, not no-referrer: under no-referrer a browser sends "Origin: null" with the forms.
  "referrer-policy": "same-origin",
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-resource-policy": "same-origin",
  "cache-control": "no-store",
};

interface Answer {
  status: number;
  body: string;
  type?: string;
  headers?: Record<string, string>;
}

function send(req: IncomingMessage, res: ServerResponse, a: Answer): void {
  const headers: Record<string, string | number> = {
    ...SECURITY_HEADERS,
    "content-type": a.type ?? "text/html; charset=utf-8",
    "content-length": Buffer.byteLength(a.body),
    ...a.headers,
  };
  // A body not read (a refused POST) is not drained: the connection closes.
  if (!req.complete) headers.connection = "close";
  res.writeHead(a.status, headers);
  res.end(a.body);
  if (!req.complete) res.once("finish", () => req.socket.destroy());
}

const redirect = (to: string, headers: Record<string, string> = {}): Answer => ({
  status: 303,
  body: "",
  headers: { location: to, ...headers },
});

function refusedPage(status: number, title: string, why: string, viewer?: Viewer): Answer {
  return { status, body: page(title, html`<p class="error">${why}</p>`, viewer) };
}

async function login(req: IncomingMessage, d: ConsoleDeps): Promise<Answer> {
  const source = req.socket.remoteAddress ?? "unknown";
  const wait = d.authLimit.blockedFor(source);
  if (wait > 0)
    return {
      ...refusedPage(429, "Too many attempts", `Too many failed logins: wait ${wait} s.`),
      headers: { "retry-after": String(wait) },
    };
  const form = await readForm(req);
  const made = d.sessions.login(form.get("token") ?? "");
  if (!made) {
    d.authLimit.fail(source);
    d.log.warn({ source }, "console: login refused (not a console token)");
    return { status: 401, body: loginPage("That is not a console token.") };
  }
  d.log.info({ who: made.session.name, source }, "console: logged in");
  return redirect("/timeline", { "set-cookie": d.sessions.cookie(made.id) });
}

async function label(
  _req: IncomingMessage,
  requestId: string,
  session: Session,
  d: ConsoleDeps,
  form: Map<string, string>,
): Promise<Answer> {
  const verdict = form.get("verdict");
  if (verdict !== "approve" && verdict !== "reject") return refusedPage(400, "Bad label", "verdict is approve or reject");
  if (!d.audit) return refusedPage(503, "No audit database", "DATABASE_URL is not set for the gateway.");
  const rows = await labelRequest(d.audit.db, requestId, verdict, session.name);
  d.log.info({ who: session.name, request_id: requestId, verdict, rows }, "console: audit label set");
  if (rows === 0)
    return refusedPage(404, "Request not found", "No audit rows for this request in the database (it may still be in the spool).");
  return redirect(`/requests/${encodeURIComponent(requestId)}?labelled=${verdict}`);
}

async function authorised(req: IncomingMessage, url: URL, auth: { id: string; session: Session }, d: ConsoleDeps): Promise<Answer> {
  const viewer: Viewer = { name: auth.session.name, csrf: auth.session.csrf };
  const path = url.pathname;
  if (req.method === "POST") {
    const form = await readForm(req);
    if (!ConsoleSessions.csrfMatches(auth.session, form.get("csrf"))) {
      d.log.warn({ who: auth.session.name, path }, "console: POST without this session's CSRF token refused");
      return refusedPage(403, "Refused", "This form did not come from this console session (CSRF token missing or wrong).", viewer);
    }
    if (path === "/logout") {
      d.sessions.logout(auth.id);
      return redirect("/login", { "set-cookie": ConsoleSessions.clearedCookie() });
    }
    const m = /^\/requests\/([^/]+)\/label$/.exec(path);
    const id = m ? decodeURIComponent(m[1] ?? "") : "";
    if (m && REQUEST_ID.test(id)) return label(req, id, auth.session, d, form);
    return refusedPage(404, "Not found", "No such form.", viewer);
  }
  if (path === "/" || path === "") return redirect("/timeline");
  const proposal = /^\/proposals\/(p-[0-9a-f]{12})$/.exec(path)?.[1];
  if (path === "/proposals" || proposal) {
    let file: PendingFile;
    try {
      file = d.proposals();
    } catch (err) {
      d.log.error({ err: (err as Error).message }, "console: proposals store unreadable");
      return refusedPage(
        503,
        "Proposals unreadable",
        `The proposals store cannot be read by the gateway: ${(err as Error).message}`,
        viewer,
      );
    }
    if (!proposal) return { status: 200, body: proposalsPage(file, viewer) };
    const p = file.proposals.find((x) => x.id === proposal);
    if (!p) return refusedPage(404, "Proposal not found", `No pending proposal ${proposal} (decided already, or unknown).`, viewer);
    const runs = d.audit ? await d.audit.requests(p.evidence.request_ids) : undefined;
    return { status: 200, body: proposalPage(p, runs, viewer, d.cliPrefix) };
  }
  if (path === "/breaker") return { status: 200, body: breakerPage(await d.breaker().catch(() => undefined), viewer, d.cliPrefix) };
  if (!["/timeline", "/charts"].includes(path) && !path.startsWith("/requests/"))
    return refusedPage(404, "Not found", "No such page.", viewer);
  if (!d.audit)
    return refusedPage(503, "No audit database", "DATABASE_URL is not set for the gateway: the audit is only in its spool.", viewer);
  if (path === "/timeline") return timelinePage(d.audit, url.searchParams, viewer);
  if (path === "/charts") return chartsPage(d.audit, url.searchParams, viewer);
  const id = decodeURIComponent(path.slice("/requests/".length));
  if (!REQUEST_ID.test(id)) return refusedPage(404, "Not found", "Not a request id.", viewer);
  const labelled = url.searchParams.get("labelled");
  return requestPage(
    id,
    await d.audit.request(id),
    viewer,
    labelled === "approve" || labelled === "reject" ? `Labelled ${labelled}.` : undefined,
  );
}

async function answer(req: IncomingMessage, d: ConsoleDeps): Promise<Answer> {
  if (!d.origin.hostAllowed(req))
    return { status: 421, body: "misdirected request: not this console's host\n", type: "text/plain; charset=utf-8" };
  if (req.method !== "GET" && req.method !== "HEAD" && req.method !== "POST")
    return { ...refusedPage(405, "Method not allowed", "GET and POST only."), headers: { allow: "GET, HEAD, POST" } };
  const url = new URL(req.url ?? "/", "http://console.invalid");
  if (req.method === "POST") {
    const why = d.origin.crossSite(req);
    if (why) {
      d.log.warn({ why, path: url.pathname }, "console: cross-site POST refused");
      return refusedPage(403, "Refused", "Cross-site request refused: forms are accepted only from the console's own pages.");
    }
  }
  if (url.pathname === "/static/console.css") return { status: 200, body: CONSOLE_CSS, type: "text/css; charset=utf-8" };
  if (url.pathname === "/login") return req.method === "POST" ? login(req, d) : { status: 200, body: loginPage() };
  const auth = d.sessions.lookup(req.headers.cookie);
  if (!auth) return { status: 401, body: loginPage(req.method === "POST" ? "Your session has ended: log in again." : undefined) };
  return authorised(req, url, auth, d);
}

export function consoleHandler(d: ConsoleDeps) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    answer(req, d)
      .catch((err: unknown): Answer => {
        if (err instanceof FormError) return refusedPage(err.status, "Refused", err.message);
        d.log.error({ err }, "console: request failed");
        return refusedPage(500, "Error", "The console could not answer (see the gateway's log).");
      })
      .then((a) => send(req, res, a))
      .catch((err: unknown) => d.log.warn({ err: (err as Error).message }, "console: answer not delivered"));
  };
}
