// The console's handler on a real loopback HTTP server (no database: the
// audit pages answer 503; proposals from a real proposals store): who gets
// in, which requests are refused before any session is looked at, and that
// hostile text from a proposal is never markup.
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../shared/log.js";
import { propose } from "../../classifier/propose.js";
import { readPending } from "../../shared/proposals.js";
import { AuthLimiter } from "../auth-limit.js";
import { hashToken, TokenVerifier } from "../tokens.js";
import { OriginCheck } from "./origin-check.js";
import { consoleHandler, CSP } from "./server.js";
import { ConsoleSessions } from "./sessions.js";

const ADMIN = "console-admin-token-0123456789abcdef";
const EXEC = "exec-caller-token-0123456789abcdef";
const log = createLogger("console-test");
log.level = "silent";

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

let dir: string;
let proposalId: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "console-spec-"));
  const made = propose(dir, {
    source: "learned",
    policy: "sudo",
    pattern: "systemctl restart <script>x</script>",
    example: "systemctl restart <script>alert(1)</script>",
    command: `systemctl restart "><img src=x onerror=alert(1)>`,
    cwd: "/",
    suggested_tier: 3,
    evidence: { clean_runs: 5, request_ids: ["r-1"] },
  });
  if (made.status !== "added") throw new Error(made.status);
  proposalId = made.proposal.id;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const FORM = { "content-type": "application/x-www-form-urlencoded" };
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

/** A console on a free loopback port, with its own sessions and throttle. */
async function startConsole() {
  let handler: ReturnType<typeof consoleHandler> | undefined;
  const server = createServer((req, res) => handler?.(req, res));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const port = (server.address() as { port: number }).port;
  const origin = `http://127.0.0.1:${port}`;
  handler = consoleHandler({
    sessions: new ConsoleSessions(new TokenVerifier({ callers: [{ name: "alice", token_sha256: hashToken(ADMIN) }] }), 60_000, false),
    origin: new OriginCheck(port),
    authLimit: new AuthLimiter({ maxFailures: 3 }),
    breaker: () => Promise.reject(new Error("UNAVAILABLE")),
    proposals: () => readPending(dir),
    cliPrefix: "",
    log,
  });
  const send = (method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<Reply> =>
    new Promise((resolve, reject) => {
      const req = request({ host: "127.0.0.1", port, method, path, headers: { host: `127.0.0.1:${port}`, ...headers } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }));
      });
      req.on("error", reject);
      req.end(body);
    });
  const own = { ...FORM, origin, "sec-fetch-site": "same-origin" };
  const login = (token = ADMIN) => send("POST", "/login", own, form({ token }));
  const session = async () => {
    const r = await login();
    const cookie = r.headers["set-cookie"]?.[0]?.split(";")[0];
    if (r.status !== 303 || !cookie) throw new Error(`login failed: ${r.status}`);
    const page = await send("GET", "/proposals", { cookie });
    return { cookie, csrf: /name="csrf" value="([^"]+)"/.exec(page.body)?.[1] ?? "" };
  };
  return { port, origin, own, send, login, session, close: () => new Promise<void>((r) => server.close(() => r())) };
}

type Console = Awaited<ReturnType<typeof startConsole>>;
let c: Console;
afterEach(async () => c?.close());

describe("operator console: who gets in", () => {
  it("every page without a session is 401 with the login form, and shows no data", async () => {
    c = await startConsole();
    for (const path of ["/timeline", "/proposals", `/proposals/${proposalId}`, "/breaker", "/charts", "/requests/r-1", "/"]) {
      const r = await c.send("GET", path);
      expect(r.status, path).toBe(401);
      expect(r.body).toContain('action="/login"');
      expect(r.body).not.toContain(proposalId);
    }
  });

  it("a wrong token, an /exec caller's token and an empty one are refused; the source is throttled after three", async () => {
    c = await startConsole();
    for (const token of [EXEC, "wrong", ""]) {
      const r = await c.login(token);
      expect(r.status).toBe(401);
      expect(r.headers["set-cookie"]).toBeUndefined();
    }
    expect((await c.login(ADMIN)).status).toBe(429);
  });

  it("the admin token gives an HttpOnly SameSite=Strict session; forged cookies are no session; logout ends it", async () => {
    c = await startConsole();
    const r = await c.login();
    expect(r.status).toBe(303);
    expect(r.headers["set-cookie"]?.[0]).toMatch(/^agent_sudo_console=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=60$/);
    const s = await c.session();
    expect((await c.send("GET", "/proposals", { cookie: s.cookie })).status).toBe(200);
    for (const cookie of ["agent_sudo_console=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "agent_sudo_console=../../x", "other=1"]) {
      expect((await c.send("GET", "/proposals", { cookie })).status).toBe(401);
    }
    const out = await c.send("POST", "/logout", { ...c.own, cookie: s.cookie }, form({ csrf: s.csrf }));
    expect(out.status).toBe(303);
    expect((await c.send("GET", "/proposals", { cookie: s.cookie })).status).toBe(401);
  });
});

describe("operator console: requests refused before any session", () => {
  it("a Host that is not the console is 421 (DNS rebinding), whatever the cookie", async () => {
    c = await startConsole();
    const s = await c.session();
    for (const host of ["evil.example", `evil.example:${c.port}`, "127.0.0.1:1"]) {
      const r = await c.send("GET", "/proposals", { host, cookie: s.cookie });
      expect(r.status, host).toBe(421);
      expect(r.body).not.toContain(proposalId);
    }
  });

  it("a POST from another origin, without Origin, with Origin null or cross-site Sec-Fetch-Site is 403, even with the session and its CSRF token", async () => {
    c = await startConsole();
    const s = await c.session();
    const body = form({ csrf: s.csrf, verdict: "approve" });
    const cases: Array<Record<string, string>> = [
      { origin: "http://evil.example" },
      { origin: `http://127.0.0.1:${c.port + 1}` },
      { origin: `http://localhost:${c.port + 1}`, "sec-fetch-site": "cross-site" },
      { origin: "null" },
      {},
      { origin: c.origin, "sec-fetch-site": "same-site" },
      { origin: c.origin, "sec-fetch-site": "cross-site" },
    ];
    for (const h of cases) {
      const r = await c.send("POST", "/requests/r-1/label", { ...FORM, cookie: s.cookie, ...h }, body);
      expect(r.status, JSON.stringify(h)).toBe(403);
      expect(r.body).toContain("Cross-site request refused");
    }
    // A cross-site login is refused too (login CSRF).
    expect((await c.send("POST", "/login", { ...FORM, origin: "http://evil.example" }, form({ token: ADMIN }))).status).toBe(403);
  });

  it("a same-origin POST without the session's CSRF token, or with another's, is 403", async () => {
    c = await startConsole();
    const s = await c.session();
    const other = await c.session();
    for (const csrf of [undefined, "", other.csrf, `${s.csrf}x`]) {
      const fields = csrf === undefined ? { verdict: "approve" } : { csrf, verdict: "approve" };
      const r = await c.send("POST", "/requests/r-1/label", { ...c.own, cookie: s.cookie }, form(fields));
      expect(r.status, String(csrf)).toBe(403);
      expect(r.body).toContain("CSRF");
    }
    // With it: past the checks (no database here: 503, never a label).
    expect(
      (await c.send("POST", "/requests/r-1/label", { ...c.own, cookie: s.cookie }, form({ csrf: s.csrf, verdict: "approve" }))).status,
    ).toBe(503);
  });

  it("malformed forms: not urlencoded 415, over 4 KiB 413, a field twice 400, an odd verdict 400; other methods 405", async () => {
    c = await startConsole();
    const s = await c.session();
    const h = { ...c.own, cookie: s.cookie };
    expect(
      (await c.send("POST", "/requests/r-1/label", { ...h, "content-type": "application/json" }, JSON.stringify({ csrf: s.csrf }))).status,
    ).toBe(415);
    expect((await c.send("POST", "/requests/r-1/label", h, form({ csrf: s.csrf, verdict: "approve", pad: "x".repeat(5000) }))).status).toBe(
      413,
    );
    expect((await c.send("POST", "/requests/r-1/label", h, `csrf=${s.csrf}&csrf=${s.csrf}&verdict=approve`)).status).toBe(400);
    expect((await c.send("POST", "/requests/r-1/label", h, form({ csrf: s.csrf, verdict: "activate" }))).status).toBe(400);
    expect((await c.send("PUT", "/proposals", { cookie: s.cookie })).status).toBe(405);
    expect((await c.send("DELETE", "/proposals", { cookie: s.cookie })).status).toBe(405);
  });
});

describe("operator console: pages", () => {
  it("every answer carries the strict CSP and the anti-framing headers; no page has a script", async () => {
    c = await startConsole();
    const s = await c.session();
    for (const path of ["/login", "/proposals", `/proposals/${proposalId}`, "/breaker", "/timeline", "/nope"]) {
      const r = await c.send("GET", path, { cookie: s.cookie });
      expect(r.headers["content-security-policy"], path).toBe(CSP);
      expect(CSP).toContain("default-src 'none'");
      expect(CSP).not.toContain("unsafe");
      expect(r.headers["x-frame-options"]).toBe("DENY");
      expect(r.headers["x-content-type-options"]).toBe("nosniff");
      expect(r.headers["cache-control"]).toBe("no-store");
      expect(r.body.toLowerCase()).not.toContain("<script");
      expect(r.body).not.toMatch(/<[^>]*\s(style|on[a-z]+)=/i);
    }
  });

  it("a proposal's page escapes its text and gives the CLI commands; there is no activate form", async () => {
    c = await startConsole();
    const s = await c.session();
    const r = await c.send("GET", `/proposals/${proposalId}`, { cookie: s.cookie });
    expect(r.status).toBe(200);
    expect(r.body).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(r.body).toContain("&quot;&gt;&lt;img src=x onerror=alert(1)&gt;");
    expect(r.body).not.toContain("<img");
    expect(r.body).toContain(`agent-sudo rules activate ${proposalId} --dry-run`);
    expect(r.body).toContain(`agent-sudo rules activate ${proposalId} --tier 3 --by alice`);
    expect(r.body).toContain(`agent-sudo rules reject ${proposalId} --reason`);
    const forms = [...r.body.matchAll(/<form[^>]*action="([^"]+)"/g)].map((m) => m[1]);
    expect(forms).toEqual(["/logout"]);
    expect((await c.send("GET", "/proposals/p-000000000000", { cookie: s.cookie })).status).toBe(404);
  });

  it("the breaker page says when the breaker does not answer; audit pages say there is no database", async () => {
    c = await startConsole();
    const s = await c.session();
    const b = await c.send("GET", "/breaker", { cookie: s.cookie });
    expect(b.body).toContain("The breaker did not answer");
    expect((await c.send("GET", "/timeline", { cookie: s.cookie })).status).toBe(503);
  });
});
