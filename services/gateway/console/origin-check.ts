// Which requests the console answers at all, before any session is looked at:
//   - the Host header must name the console itself (127.0.0.1, localhost or
//     [::1] on its port, or public_url's host): a DNS-rebinding page on
//     another name gets 421, never a page;
//   - a POST must come from the console's own pages: an Origin header that
//     is the console's own origin, and (when the browser sends one)
//     Sec-Fetch-Site: same-origin. A form on any other site — a page on
//     another port of 127.0.0.1 included, which is "same-site" for cookies —
//     is refused with 403 before its body is read. The per-session CSRF
//     token is checked on top of this (sessions.ts).
import type { IncomingMessage } from "node:http";

export class OriginCheck {
  private readonly hosts: Set<string>;
  private readonly origins: Set<string>;

  constructor(port: number, publicUrl?: string) {
    this.hosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);
    if (publicUrl) this.hosts.add(new URL(publicUrl).host);
    this.origins = new Set([...this.hosts].map((h) => `http://${h}`));
    if (publicUrl) this.origins.add(new URL(publicUrl).origin);
  }

  hostAllowed(req: IncomingMessage): boolean {
    const host = req.headers.host;
    return typeof host === "string" && this.hosts.has(host.toLowerCase());
  }

  /** Why a state-changing request is refused, or undefined when it comes from the console's own page. */
  crossSite(req: IncomingMessage): string | undefined {
    const origin = req.headers.origin;
    if (typeof origin !== "string") return "no Origin header";
    if (!this.origins.has(origin.toLowerCase())) return `Origin ${origin.slice(0, 100)} is not the console`;
    const site = req.headers["sec-fetch-site"];
    if (site !== undefined && site !== "same-origin") return `Sec-Fetch-Site ${String(site).slice(0, 40)}`;
    return undefined;
  }
}
