// The ntfy notifier against a loopback stand-in server (127.0.0.1 only).
import { createServer } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLogger } from "../../services/shared/log.js";
import { headerValue, Notifier, NTFY_DEFAULTS, ntfySettingsFromEnv, PRIORITY } from "../../services/shared/ntfy.js";
import { startNtfySink, type NtfySink } from "./ntfy-sink.js";

const log = createLogger("ntfy-test");
log.level = "silent";

async function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      srv.close(() => resolve(typeof addr === "object" && addr ? addr.port : 1));
    });
  });
}

describe("ntfy notifier", () => {
  let sink: NtfySink;
  beforeEach(async () => {
    sink = await startNtfySink();
  });
  afterEach(async () => {
    await sink.close();
  });

  it("POSTs the body with Title, Priority, Tags and a Bearer token", async () => {
    const n = new Notifier({ ...NTFY_DEFAULTS, url: sink.url, token: "tk_secret", backoffMs: 10 }, log);
    n.notify({
      title: "breaker tripped",
      body: "disarmed by tier3-failures",
      priority: PRIORITY.urgent,
      tags: ["rotating_light", "agent-sudo"],
    });
    await n.idle();
    const [msg] = sink.received;
    expect(msg?.path).toBe("/agent-sudo-test");
    expect(msg?.body).toBe("disarmed by tier3-failures");
    expect(msg?.headers).toMatchObject({
      title: "breaker tripped",
      priority: "5",
      tags: "rotating_light,agent-sudo",
      authorization: "Bearer tk_secret",
    });
  });

  it("redacts credential literals in a message's title and body before it leaves the host", async () => {
    const n = new Notifier({ ...NTFY_DEFAULTS, url: sink.url, backoffMs: 10 }, log);
    const token = `ghp_${"aB3dE5fG7h".repeat(4)}`;
    n.notify({
      title: `tier 4: echo ${token}`,
      body: "agent: mysql -u root --password=hunter2secret; psql postgres://u:pa55word@db/x",
      priority: PRIORITY.high,
    });
    await n.idle();
    const [msg] = sink.received;
    const sent = `${msg?.headers.title}\n${msg?.body}`;
    for (const secret of [token, "hunter2secret", "pa55word"]) expect(sent).not.toContain(secret);
    expect(sent).toContain("[redacted:github-token]");
  });

  it("a message's console link: Click header and last body line when the console is on; nothing when it is off or the link is not a path", async () => {
    const on = new Notifier({ ...NTFY_DEFAULTS, url: sink.url, consoleUrl: "http://127.0.0.1:8085/", backoffMs: 10 }, log);
    on.notify({ title: "tier 4", body: "refused", priority: PRIORITY.high, link: "/requests/0b7c-uuid" });
    on.notify({ title: "odd", body: "x", priority: PRIORITY.low, link: "//evil.example/x" });
    await on.idle();
    const off = new Notifier({ ...NTFY_DEFAULTS, url: sink.url, backoffMs: 10 }, log);
    off.notify({ title: "off", body: "refused", priority: PRIORITY.high, link: "/requests/0b7c-uuid" });
    await off.idle();
    const [linked, odd, unlinked] = sink.received;
    expect(linked?.headers.click).toBe("http://127.0.0.1:8085/requests/0b7c-uuid");
    expect(linked?.body).toBe("refused\nhttp://127.0.0.1:8085/requests/0b7c-uuid");
    expect(odd?.headers.click).toBeUndefined();
    expect(odd?.body).toBe("x");
    expect(unlinked?.headers.click).toBeUndefined();
    expect(unlinked?.body).toBe("refused");
  });

  it("retries on 5xx and 429, then delivers and calls back, in order", async () => {
    sink.failNext(500, 429, 503);
    const n = new Notifier({ ...NTFY_DEFAULTS, url: sink.url, backoffMs: 10 }, log);
    let delivered = 0;
    n.notify({ title: "one", body: "1", priority: 4, onDelivered: () => delivered++ });
    n.notify({ title: "two", body: "2", priority: 2 });
    await n.idle();
    expect(sink.received.map((r) => r.headers.title)).toEqual(["one", "two"]);
    expect(sink.hits()).toBe(5);
    expect(delivered).toBe(1);
  });

  it("gives up on a 4xx, and after its attempts on a dead server", async () => {
    sink.failNext(403);
    const n = new Notifier({ ...NTFY_DEFAULTS, url: sink.url, backoffMs: 10 }, log);
    n.notify({ title: "forbidden", body: "x", priority: 3 });
    n.notify({ title: "next", body: "y", priority: 3 });
    await n.idle();
    expect(sink.received.map((r) => r.headers.title)).toEqual(["next"]);

    const dead = new Notifier({ ...NTFY_DEFAULTS, url: `http://127.0.0.1:${await closedPort()}/t`, attempts: 3, backoffMs: 5 }, log);
    dead.notify({ title: "lost", body: "x", priority: 5 });
    await dead.idle();
    expect(dead.pending).toBe(0);
  });

  it("never blocks the caller: notify returns at once even when the server hangs", async () => {
    // A server that takes the connection and never answers: each attempt waits its whole timeout.
    const hung = createServer(() => undefined);
    await new Promise<void>((r) => hung.listen(0, "127.0.0.1", r));
    const addr = hung.address();
    const port = typeof addr === "object" && addr ? addr.port : 1;
    const n = new Notifier({ ...NTFY_DEFAULTS, url: `http://127.0.0.1:${port}/t`, attempts: 2, backoffMs: 5, timeoutMs: 200 }, log);
    const t0 = performance.now();
    for (let i = 0; i < 50; i++) n.notify({ title: `m${i}`, body: "x", priority: 3 });
    // A notify that waited for the server would take 200 ms or more each (50 of them: ≥ 10 s); the bound is
    // far from that and far above what this VM takes under a full test run (~350 ms).
    expect(performance.now() - t0).toBeLessThan(5_000);
    n.close();
    expect(n.pending).toBe(0);
    hung.close();
  });

  it("bounds its queue, dropping the oldest", async () => {
    const n = new Notifier({ ...NTFY_DEFAULTS, url: `http://127.0.0.1:${await closedPort()}/t`, maxQueue: 3, backoffMs: 60_000 }, log);
    for (let i = 0; i < 10; i++) n.notify({ title: `m${i}`, body: "x", priority: 3 });
    expect(n.pending).toBeLessThanOrEqual(3);
    n.close();
  });

  it("logs only, without a URL", async () => {
    const n = new Notifier({ ...NTFY_DEFAULTS }, log);
    n.notify({ title: "nowhere", body: "x", priority: 1 });
    expect(n.pending).toBe(0);
    await n.idle();
  });

  it("encodes non-ASCII titles as RFC 2047 and strips line breaks", async () => {
    expect(headerValue("plain title")).toBe("plain title");
    expect(headerValue("a\r\nInjected: 1")).toBe("a Injected: 1");
    expect(headerValue("Ünïcode ⚡")).toBe(`=?UTF-8?B?${Buffer.from("Ünïcode ⚡").toString("base64")}?=`);
    const n = new Notifier({ ...NTFY_DEFAULTS, url: sink.url }, log);
    n.notify({ title: "Sicherung fehlgeschlagen ⚠", body: "ü", priority: 4 });
    await n.idle();
    expect(sink.received[0]?.headers.title).toMatch(/^=\?UTF-8\?B\?/);
    expect(sink.received[0]?.body).toBe("ü");
  });

  it("reads its settings from AGENT_SUDO_NTFY_*", () => {
    expect(ntfySettingsFromEnv({})).toMatchObject({ url: undefined, attempts: NTFY_DEFAULTS.attempts });
    expect(
      ntfySettingsFromEnv({ AGENT_SUDO_NTFY_URL: "http://127.0.0.1:1/t", AGENT_SUDO_NTFY_TOKEN: "x", AGENT_SUDO_NTFY_ATTEMPTS: "2" }),
    ).toMatchObject({
      url: "http://127.0.0.1:1/t",
      token: "x",
      attempts: 2,
    });
    expect(() => ntfySettingsFromEnv({ AGENT_SUDO_NTFY_URL: "file:///etc/passwd" })).toThrow();
    expect(() => ntfySettingsFromEnv({ AGENT_SUDO_NTFY_ATTEMPTS: "0" })).toThrow();
  });
});
