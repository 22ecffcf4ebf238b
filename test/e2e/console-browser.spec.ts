// The operator console in a real browser (Debian's chromium, headless,
// driven by playwright-core) against a real stack: the timeline shows a
// just-run command, a label set in the browser is in `audit export`, the
// proposal page gives the CLI command (and no activate button), the breaker
// page gives the re-arm command, a request without the admin token is
// refused, and cross-site form posts are refused. ntfy messages link to the
// matching console pages. Screenshots go to $AGENT_SUDO_SCREENSHOTS when set
// (the README's come from this test).
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { propose } from "../../services/classifier/propose.js";
import { missing } from "../support/needs.js";
import { startOperatorStack, type OperatorStack } from "../support/operator-stack.js";
import { startNtfySink, type NtfySink } from "../tier3/ntfy-sink.js";

const CHROMIUM = "/usr/bin/chromium";
const skip = missing(CHROMIUM) ? `skipped: Debian's chromium is not installed (apt-get install chromium; .ci/run installs it)` : undefined;
if (skip) process.stderr.write(`console-browser.spec: ${skip}\n`);

const shots = process.env.AGENT_SUDO_SCREENSHOTS ? resolve(process.env.AGENT_SUDO_SCREENSHOTS) : undefined;

interface Exported {
  request_id: string;
  human_verdict: string | null;
  human_verdict_by: string | null;
}

describe.skipIf(skip)(`operator console in a real browser${skip ? ` — ${skip}` : ""}`, () => {
  let op: OperatorStack;
  let sink: NtfySink;
  let browser: BrowserContext;
  let page: Page;
  let profile: string;
  let attacker: Server;
  let attackerPort: number;
  let attackerPage = "";
  const marker = `console-e2e-${Math.random().toString(36).slice(2, 10)}`;
  let requestId = "";

  beforeAll(async () => {
    sink = await startNtfySink();
    op = await startOperatorStack({ console: true, env: { AGENT_SUDO_NTFY_URL: sink.url } });
    profile = mkdtempSync(join(tmpdir(), "agent-sudo-chromium-"));
    browser = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
      viewport: { width: 1280, height: 800 },
    });
    page = browser.pages()[0] ?? (await browser.newPage());
    page.setDefaultTimeout(60_000);
    // Another site's page (loopback only) whose form posts to the console.
    attacker = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.end(attackerPage);
    });
    await new Promise<void>((r) => attacker.listen(0, "127.0.0.1", () => r()));
    attackerPort = (attacker.address() as { port: number }).port;
    if (shots) mkdirSync(shots, { recursive: true });
  }, 240_000);

  afterAll(async () => {
    await browser?.close().catch(() => undefined);
    if (profile) rmSync(profile, { recursive: true, force: true });
    await new Promise<void>((r) => (attacker ? attacker.close(() => r()) : r()));
    await op?.stop();
    await sink?.close();
  });

  const shot = async (name: string) => {
    if (shots) await page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
  };

  function exported(): Exported[] {
    const r = op.cli(["audit", "export"]);
    expect(r.status, r.stderr).toBe(0);
    return r.stdout
      .trim()
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Exported);
  }

  it("a request without the admin token is refused: the login page, no data; the /exec token does not log in", async () => {
    const first = await page.goto(`${op.consoleUrl}/timeline`);
    expect(first?.status()).toBe(401);
    expect(first?.headers()["content-security-policy"]).toContain("default-src 'none'");
    await expect(page.locator("#token").count()).resolves.toBe(1);
    await expect(page.locator("#timeline").count()).resolves.toBe(0);
    await page.fill("#token", op.stack.token);
    const [answer] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith("/login") && r.request().method() === "POST"),
      page.click("button[type=submit]"),
    ]);
    expect(answer.status()).toBe(401);
    await expect(page.locator("[role=alert]").textContent()).resolves.toContain("not a console token");
    const direct = await fetch(`${op.consoleUrl}/timeline`, { headers: { authorization: `Bearer ${op.consoleToken}` } });
    expect(direct.status).toBe(401); // a session cookie, not a header, is what lets a page in
  }, 120_000);

  it("after logging in, the timeline shows a just-run command", async () => {
    const ran = await op.stack.exec({ command: `echo ${marker}` });
    expect(ran.status).toBe(200);
    requestId = String(ran.body.request_id);
    await page.goto(`${op.consoleUrl}/login`);
    await page.fill("#token", op.consoleToken);
    await Promise.all([page.waitForURL(/\/timeline$/), page.click("button[type=submit]")]);
    // The stylesheet loaded under the CSP (the header's colour comes from it).
    await expect(page.locator("header").evaluate((e) => getComputedStyle(e).backgroundColor)).resolves.toBe("rgb(23, 50, 77)");
    const row = page.locator("#timeline tbody tr", { hasText: marker });
    for (let i = 0; i < 60 && (await row.count()) === 0; i++) {
      await new Promise((r) => setTimeout(r, 1000)); // shipped from the spool within seconds
      await page.reload();
    }
    await expect(row.count()).resolves.toBe(1);
    await expect(row.locator("td").nth(2).textContent()).resolves.toBe("executed");
    await shot("console-timeline");
  }, 180_000);

  it("a label set in the browser appears in `agent-sudo audit export`", async () => {
    await page.locator("#timeline tbody tr", { hasText: marker }).locator("a").first().click();
    await page.waitForURL(new RegExp(`/requests/${requestId}$`));
    await expect(page.locator("#command").textContent()).resolves.toBe(`echo ${marker}`);
    await Promise.all([page.waitForURL(/labelled=approve/), page.click("#approve")]);
    await expect(page.locator("#current-label").textContent()).resolves.toBe("approve");
    await shot("console-request");
    const mine = exported().find((r) => r.request_id === requestId);
    expect(mine).toMatchObject({ human_verdict: "approve", human_verdict_by: "alice" });
  }, 120_000);

  it("a cross-site form post is refused, from another site and from another port of the same host, and the label stays", async () => {
    await page.goto(`${op.consoleUrl}/requests/${requestId}`);
    const csrf = await page.locator("input[name=csrf]").first().getAttribute("value");
    expect(csrf).toBeTruthy();
    // The attacker even knows this session's CSRF token: the Origin check alone must refuse it.
    attackerPage = `<!doctype html><form id="f" method="post" action="${op.consoleUrl}/requests/${requestId}/label">
<input name="csrf" value="${csrf}"><input name="verdict" value="reject"></form><script>document.getElementById("f").submit()</script>`;
    for (const from of [`http://localhost:${attackerPort}/`, `http://127.0.0.1:${attackerPort}/`]) {
      const [answer] = await Promise.all([page.waitForResponse((r) => r.url().endsWith("/label")), page.goto(from)]);
      expect(answer.status(), from).toBe(403);
    }
    await expect(page.textContent("body")).resolves.toContain("Cross-site request refused");
    expect(exported().find((r) => r.request_id === requestId)).toMatchObject({ human_verdict: "approve" });
  }, 120_000);

  it("the proposal page shows the exact CLI commands, and offers no way to activate", async () => {
    mkdirSync(op.proposalsDir, { recursive: true });
    const made = propose(op.proposalsDir, {
      source: "learned",
      policy: "sudo",
      pattern: `echo ${marker}`,
      example: `echo ${marker}`,
      command: `echo ${marker}`,
      cwd: "",
      suggested_tier: 0,
      evidence: { clean_runs: 5, request_ids: [requestId] },
    });
    if (made.status !== "added") throw new Error(made.status);
    const id = made.proposal.id;
    await page.goto(`${op.consoleUrl}/proposals`);
    await page.locator("#proposals a", { hasText: id }).click();
    await page.waitForURL(new RegExp(`/proposals/${id}$`));
    const cli = (await page.locator("#cli").textContent()) ?? "";
    expect(cli).toContain(`agent-sudo rules activate ${id} --dry-run`);
    expect(cli).toContain(`agent-sudo rules activate ${id} --tier 0 --by alice`);
    expect(cli).toContain(`agent-sudo rules reject ${id} --reason`);
    expect(cli).toContain(`AGENT_SUDO_HOME=${op.home}`);
    await expect(page.locator(`a[href="/requests/${requestId}"]`).count()).resolves.toBe(1);
    await expect(page.locator("form").evaluateAll((forms) => forms.map((f) => f.getAttribute("action")))).resolves.toEqual(["/logout"]);
    // The printed command is real: the CLI shows the same proposal.
    const shown = op.cli(["rules", "show", id]);
    expect(shown.status, shown.stderr).toBe(0);
    expect(shown.stdout).toContain(`echo ${marker}`);
    await shot("console-proposal");
  }, 120_000);

  it("a tier-4 refusal trips the breaker: the breaker page gives the re-arm command; ntfy messages link to the console", async () => {
    const refused = await op.stack.exec({ command: "rm -rf /" });
    expect(refused.status).toBe(403);
    await page.goto(`${op.consoleUrl}/breaker`);
    for (let i = 0; i < 20 && !((await page.locator("#breaker-state").textContent()) ?? "").includes("DISARMED"); i++) {
      await new Promise((r) => setTimeout(r, 500));
      await page.reload();
    }
    await expect(page.locator("#breaker-state").textContent()).resolves.toContain("DISARMED");
    await expect(page.locator("#rearm").textContent()).resolves.toContain("agent-sudo breaker rearm --reason");
    await expect(page.locator("#breaker-events tbody tr").count()).resolves.toBeGreaterThanOrEqual(1);
    await shot("console-breaker");
    const tier4 = await sink.waitFor((r) => String(r.headers.title ?? "").includes("tier 4"), 30_000);
    expect(tier4.headers.click).toBe(`${op.consoleUrl}/requests/${String(refused.body.request_id)}`);
    const trip = await sink.waitFor((r) => String(r.headers.title ?? "").includes("breaker tripped"), 30_000);
    expect(trip.headers.click).toBe(`${op.consoleUrl}/breaker`);
    // The link opens the request's evidence.
    await page.goto(String(tier4.headers.click));
    for (let i = 0; i < 30 && (await page.locator("#command").count()) === 0; i++) {
      await new Promise((r) => setTimeout(r, 1000));
      await page.reload();
    }
    await expect(page.locator("#command").textContent()).resolves.toBe("rm -rf /");
  }, 180_000);

  it("the charts page draws decisions per tier and latency percentiles", async () => {
    await page.goto(`${op.consoleUrl}/charts`);
    await expect(page.locator("#chart-tiers rect[class^=t] title").count()).resolves.toBeGreaterThanOrEqual(2);
    await expect(page.locator("#chart-latency circle").count()).resolves.toBeGreaterThanOrEqual(3);
    await shot("console-charts");
  }, 120_000);
});
