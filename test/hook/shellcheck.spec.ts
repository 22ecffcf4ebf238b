// The hook client is POSIX sh: shellcheck -s sh must pass it clean, and it
// must never contain a path that exits 1 (Claude Code would run the command).
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { missing, named } from "../support/needs.js";
import { HOOK } from "./hook-client.js";

const noShellcheck = missing("shellcheck");

describe("hook/agent-sudo-hook", () => {
  it.skipIf(!!noShellcheck)(named("passes shellcheck -s sh", noShellcheck), () => {
    const result = spawnSync("shellcheck", ["-s", "sh", "-S", "style", HOOK], { encoding: "utf8" });
    expect(result.stdout + result.stderr).toBe("");
    expect(result.status).toBe(0);
  });

  it("is a /bin/sh script with no exit 1, no set -e and no jq", () => {
    const text = readFileSync(HOOK, "utf8");
    expect(text.startsWith("#!/bin/sh\n")).toBe(true);
    expect(text).not.toMatch(/\bexit\s+1\b/);
    expect(text).not.toMatch(/^\s*set\s+-[a-z]*e/m);
    expect(text).not.toMatch(/\bjq\b/);
  });

  it("parses under dash and bash --posix", () => {
    for (const shell of ["dash", "bash"]) {
      if (spawnSync(shell, ["-c", "true"]).status !== 0) continue;
      const args = shell === "bash" ? ["--posix", "-n", HOOK] : ["-n", HOOK];
      expect(() => execFileSync(shell, args)).not.toThrow();
    }
  });
});
