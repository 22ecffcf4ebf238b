// Per-caller run-as (tokens.json): a mapped caller's commands run as that
// user; `sudo CMD` runs CMD as root.
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "../support/stack.js";

const root = process.getuid?.() === 0;
const AGENT_TOKEN = "agent-token-0123456789abcdef";

describe.skipIf(!root)("run-as mapping", () => {
  let stack: Stack;
  let home: string;
  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), "agent-sudo-runas-"));
    const hash = createHash("sha256").update(AGENT_TOKEN).digest("hex");
    writeFileSync(join(home, "tokens.json"), JSON.stringify({ callers: [{ name: "agent", token_sha256: hash, run_as: "nobody" }] }), {
      mode: 0o600,
    });
    stack = await startStack({ home });
  });
  afterAll(async () => {
    await stack?.stop();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it("runs a mapped caller's command as its user, and `sudo CMD` as root", async () => {
    const asAgent = await stack.exec({ command: "whoami", cwd: "/tmp" }, AGENT_TOKEN);
    expect(asAgent.status).toBe(200);
    expect(asAgent.body.output).toBe("nobody\n");
    const viaSudo = await stack.exec({ command: "sudo whoami", cwd: "/tmp" }, AGENT_TOKEN);
    expect(viaSudo.body.output).toBe("root\n");
    const dev = await stack.exec({ command: "whoami" });
    expect(dev.body.output).toBe("root\n");
  });
});
