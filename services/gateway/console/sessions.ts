// Who may use the console: a person holding a console admin token
// (console-tokens.json, hashed like tokens.json, never an /exec token) logs
// in once with it; the answer is a session cookie (random, HttpOnly,
// SameSite=Strict, held in this process's memory only: a gateway restart
// logs everyone out) and a per-session CSRF token that every form carries.
// Failed logins count against the source address (429 after ten a minute).
import { randomBytes, timingSafeEqual } from "node:crypto";
import type { TokenVerifier } from "../tokens.js";

export const COOKIE = "agent_sudo_console";
const MAX_SESSIONS = 64;

export interface Session {
  /** The console token's name: who labels, as `audit label --by` records it. */
  name: string;
  csrf: string;
  expires: number;
}

export class ConsoleSessions {
  private readonly sessions = new Map<string, Session>();

  constructor(
    private readonly tokens: TokenVerifier,
    private readonly lifetimeMs: number,
    /** Secure cookies when the console is reached over https (public_url). */
    private readonly secure: boolean,
  ) {}

  /** A new session for a valid admin token, else undefined. */
  login(token: string): { id: string; session: Session } | undefined {
    if (!/^[\x21-\x7e]{1,512}$/.test(token)) return undefined;
    const caller = this.tokens.verify(`Bearer ${token}`);
    if (!caller) return undefined;
    this.sweep();
    while (this.sessions.size >= MAX_SESSIONS) {
      const oldest = this.sessions.keys().next().value;
      if (oldest === undefined) break;
      this.sessions.delete(oldest);
    }
    const id = randomBytes(32).toString("base64url");
    const session = { name: caller.name, csrf: randomBytes(32).toString("base64url"), expires: Date.now() + this.lifetimeMs };
    this.sessions.set(id, session);
    return { id, session };
  }

  /** The session a request's cookie names, if it is live. */
  lookup(cookieHeader: string | undefined): { id: string; session: Session } | undefined {
    const id = cookieValue(cookieHeader, COOKIE);
    if (!id || !/^[A-Za-z0-9_-]{43}$/.test(id)) return undefined;
    const session = this.sessions.get(id);
    if (!session) return undefined;
    if (session.expires <= Date.now()) {
      this.sessions.delete(id);
      return undefined;
    }
    return { id, session };
  }

  logout(id: string): void {
    this.sessions.delete(id);
  }

  /** Whether a form's CSRF field is this session's (constant time). */
  static csrfMatches(session: Session, presented: string | undefined): boolean {
    const want = Buffer.from(session.csrf);
    const got = Buffer.from(presented ?? "");
    return got.length === want.length && timingSafeEqual(got, want);
  }

  cookie(id: string): string {
    return `${COOKIE}=${id}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${Math.floor(this.lifetimeMs / 1000)}${this.secure ? "; Secure" : ""}`;
  }

  static clearedCookie(): string {
    return `${COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0`;
  }

  private sweep(): void {
    const now = Date.now();
    for (const [id, s] of this.sessions) if (s.expires <= now) this.sessions.delete(id);
  }
}

export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
