// Where the operator console answers, for links to its pages (ntfy's Click
// header, the CLI's hints): config.console.public_url when set (the address
// a person's browser uses, e.g. an SSH tunnel's), else http://BIND:PORT.
// Undefined while the console is off: no link is ever made to a page that
// does not exist.
import type { Config } from "./config.js";

export function consoleUrl(config: Pick<Config, "console">): string | undefined {
  const c = config.console;
  if (!c.enabled) return undefined;
  if (c.public_url) return c.public_url.replace(/\/+$/, "");
  return `http://${c.bind === "::1" ? "[::1]" : c.bind}:${c.port}`;
}

/** The absolute URL of a console page; `path` is one of ours (/requests/ID, /proposals/ID, /breaker), else undefined. */
export function consoleLink(base: string, path: string): string | undefined {
  if (!/^\/[A-Za-z0-9._~%/-]*$/.test(path) || path.startsWith("//")) return undefined;
  return `${base.replace(/\/+$/, "")}${path}`;
}

/** The console page of one audited request. */
export function requestPage(requestId: string): string {
  return `/requests/${encodeURIComponent(requestId)}`;
}

/** The console page of one proposal (or the list of them). */
export function proposalPage(id?: string): string {
  return id ? `/proposals/${encodeURIComponent(id)}` : "/proposals";
}

export const BREAKER_PAGE = "/breaker";
