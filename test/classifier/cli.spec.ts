// The `agent-sudo classify` / `explain` entry points, run in process against
// the real policies; stdout is captured, nothing else is replaced.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from "vitest";
import { classifyCommand, explainCommand } from "../../cli/classify.js";
import { policiesDir } from "./engine-fixture.js";

let out: string;
let err: string;
beforeEach(() => {
  out = "";
  err = "";
  vi.spyOn(process.stdout, "write").mockImplementation((s: string | Uint8Array) => ((out += String(s)), true));
  vi.spyOn(process.stderr, "write").mockImplementation((s: string | Uint8Array) => ((err += String(s)), true));
});
afterEach(() => vi.restoreAllMocks());

describe("agent-sudo classify", () => {
  it("prints tier, rule and reason as JSON", async () => {
    expect(await classifyCommand(["--json", "--policies", policiesDir, "--cwd", "/home/dev/p", "--", "git", "status"])).toBe(0);
    expect(JSON.parse(out)).toMatchObject({ tier: 0, rule: "git-read", explicit: true });
  });

  it("prints a human verdict and honours --host and --source", async () => {
    expect(await classifyCommand(["--policies", policiesDir, "--host", "server-01", "--source", "sudo", "--", "reboot"])).toBe(0);
    expect(out).toMatch(/^tier 3 {2}rule sudo-systemctl-power/);
  });

  it("classifies a JSONL batch in order", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cls-"));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, "in.jsonl");
    writeFileSync(
      file,
      [
        '{"command":"ls"}',
        '{"command":"rm -rf /"}',
        '{"command":"reboot","host":"server-01"}',
        "not json",
        '{"command":"systemctl restart nginx","source":"sudo"}',
      ].join("\n"),
    );
    expect(await classifyCommand(["--batch", file, "--policies", policiesDir])).toBe(2);
    const lines = out
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { tier: number; rule: string });
    expect(lines.map((l) => l.tier)).toEqual([0, 4, 3, 4, 3]);
    expect(lines[3]?.rule).toBe("bad-input");
  });

  it("rejects bad usage and bad policy directories", async () => {
    expect(await classifyCommand(["--host", "laptop", "--", "ls"])).toBe(2);
    expect(await classifyCommand(["--policies", "/nonexistent", "--", "ls"])).toBe(3);
    expect(err).toMatch(/cannot load policies/);
  });
});

describe("agent-sudo explain", () => {
  it("on primary, code piped into a shell is tier 4 for /exec (primary never guesses)", async () => {
    expect(await explainCommand(["--policies", policiesDir, "--source", "sudo", "--", "ls | sh"])).toBe(0);
    expect(out).toMatch(/tier 4 {2}primary-computed-code/);
  });

  it("prints the parse tree and each part's verdict", async () => {
    expect(await explainCommand(["--policies", policiesDir, "--host", "server-01", "--", "ls | sh"])).toBe(0);
    expect(out).toMatch(/parse tree:\nprogram/);
    expect(out).toMatch(/pipeline/);
    expect(out).toMatch(/tier 2 {2}interpreter:sh/);
    expect(out).toMatch(/verdict: tier 2/);
  });
});
