// Inline credentials by source and host (engine/index.ts): the hook
// (source claude) never takes a command carrying a credential literal, on
// either host (`inline-credential`, tier ≥ 2, the literal redacted in the
// part); /exec (source sudo) judges the command as what it does — the
// literal neither raises nor lowers its verdict (the gateway redacts it
// before anything is written).
import { beforeAll, describe, expect, it } from "vitest";
import { findCredentials } from "../../services/shared/credentials.js";
import type { Engine } from "../../services/classifier/verdict.js";
import { getEngine, judge, loadCorpus } from "./engine-fixture.js";

const commands = [
  ...new Set(
    loadCorpus()
      .filter((c) => /credentials/.test(c.family) && findCredentials(c.command).length > 0)
      .map((c) => c.command),
  ),
];
const HOSTS = ["primary", "server-01"] as const;

/** The command with each literal replaced by a plain word of no meaning. */
function withoutLiterals(command: string): string {
  let out = "";
  let at = 0;
  for (const h of findCredentials(command)) {
    out += command.slice(at, h.start) + "placeholder";
    at = h.end;
  }
  return out + command.slice(at);
}

let engine: Engine;
beforeAll(async () => {
  engine = await getEngine();
});

describe("inline credentials by source", () => {
  it("has cases", () => {
    expect(commands.length).toBeGreaterThanOrEqual(10);
  });

  it("the hook refuses every literal on both hosts and does not echo it", () => {
    for (const command of commands) {
      for (const host of HOSTS) {
        const v = judge(engine, { command, source: "claude", host, cwd: "/home/dev/project" });
        expect(v.tier, `${host}: ${command}`).toBeGreaterThanOrEqual(2);
        const part = v.parts.find((p) => p.rule === "inline-credential");
        expect(part, `${host}: ${command}`).toBeDefined();
        for (const h of findCredentials(command))
          expect(part?.text ?? "", `${host}: ${command}`).not.toContain(command.slice(h.start, h.end));
      }
    }
  });

  it("/exec judges the command as if the literal were any other word, on both hosts", () => {
    for (const command of commands) {
      for (const host of HOSTS) {
        const v = judge(engine, { command, source: "sudo", host, cwd: "/home/dev/project" });
        const plain = judge(engine, { command: withoutLiterals(command), source: "sudo", host, cwd: "/home/dev/project" });
        expect(
          v.parts.some((p) => p.rule === "inline-credential"),
          `${host}: ${command}`,
        ).toBe(false);
        expect([v.tier, v.rule], `${host}: ${command}`).toEqual([plain.tier, plain.rule]);
      }
    }
  });
});
