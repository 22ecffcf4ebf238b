// Server-rendered HTML for the operator console. Every value is escaped
// unless it is already an Html (built by this module's `html` template), so
// a command, a path or an evidence string from the audit can never become
// markup. Pages carry no script at all (the CSP forbids any) and no inline
// style (the CSP allows only /static/console.css).
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;", "`": "&#96;" };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"'`]/g, (c) => ESCAPES[c] ?? c);
}

function render(value: unknown): string {
  if (value instanceof Html) return value.text;
  if (value === null || value === undefined || value === false) return "";
  if (Array.isArray(value)) return value.map(render).join("");
  return escapeHtml(String(value));
}

/** A template whose interpolations are escaped (arrays joined, Html kept, null/undefined/false empty). */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0] ?? "";
  values.forEach((v, i) => {
    out += render(v) + (strings[i + 1] ?? "");
  });
  return new Html(out);
}

/** A query string from parameters, empty ones left out. */
export function query(params: Record<string, string | number | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== "") q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : "";
}

/** A shell word a person can paste: single-quoted unless it is plainly safe. */
export function shellWord(text: string): string {
  return /^[A-Za-z0-9_./:@=+-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

export function when(value: unknown): string {
  if (value instanceof Date) return value.toISOString().replace(/\.\d{3}Z$/, "Z");
  if (typeof value === "number") return new Date(value * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
  return value === null || value === undefined ? "-" : String(value);
}

export interface Viewer {
  name: string;
  csrf: string;
}

const NAV: Array<[string, string]> = [
  ["/timeline", "Audit"],
  ["/proposals", "Proposed rules"],
  ["/breaker", "Breaker"],
  ["/charts", "Charts"],
];

/** The whole page around `body`; `viewer` absent: the login page (no navigation). */
export function page(title: string, body: Html, viewer?: Viewer, active?: string): string {
  const nav = viewer
    ? html`<nav>${NAV.map(([href, label]) => html`<a href="${href}"${href === active ? new Html(' class="active"') : ""}>${label}</a>`)}
<form method="post" action="/logout" class="logout"><input type="hidden" name="csrf" value="${viewer.csrf}"><span>${viewer.name}</span> <button type="submit">Log out</button></form></nav>`
    : html``;
  return `<!doctype html>
${
  html`<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<title>${title} · agent-sudo console</title><link rel="stylesheet" href="/static/console.css"></head>
<body><header><span class="brand">agent-sudo</span>${nav}</header>
<main><h1>${title}</h1>
${body}</main>
<footer>Read-mostly: labels are the only change made here. Activating a rule and re-arming the breaker are done by a person at a terminal.</footer>
</body></html>`.text
}
`;
}
