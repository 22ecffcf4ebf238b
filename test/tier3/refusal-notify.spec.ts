// A tier-4 refusal on /exec is announced on ntfy with high priority (a
// loopback stand-in ntfy server), and the refusal does not wait for it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "../support/stack.js";
import { type NtfySink, startNtfySink } from "./ntfy-sink.js";

describe("tier-4 refusal notification (ntfy stand-in on loopback)", () => {
  let stack: Stack;
  let sink: NtfySink;
  beforeAll(async () => {
    sink = await startNtfySink();
    stack = await startStack({ env: { AGENT_SUDO_NTFY_URL: sink.url } });
  });
  afterAll(async () => {
    await stack?.stop();
    await sink?.close();
  });

  it("sends a high-priority message naming the command and the rule", async () => {
    const res = await stack.exec({ command: "frobnicate-unknown-tool --everything" });
    expect(res.status).toBe(403);
    const msg = await sink.waitFor((r) => String(r.headers.title ?? "").includes("tier 4"), 10_000);
    expect(msg.headers.priority).toBe("4");
    expect(msg.body).toContain("frobnicate-unknown-tool --everything");
    expect(msg.body).toContain(String(res.body.request_id));
  });
});
