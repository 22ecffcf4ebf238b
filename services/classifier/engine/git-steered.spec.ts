// Files the workspace repository's own config makes git run or obey
// (core.hooksPath, include.path, includeIf, core.attributesFile) are judged
// as .git/hooks and .git/config are; a nested repository other than the
// workspace's is judged as one elsewhere (round 20). No git binary needed:
// git takes these directories for repositories by what they hold.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Engine } from "../verdict.js";
import { loadEngine } from "./index.js";

const policies = join(import.meta.dirname, "..", "..", "..", "policies");
let engine: Engine;
let ws = "";

beforeAll(async () => {
  ws = mkdtempSync(join(tmpdir(), "git-steered-"));
  for (const dir of [".git/objects", ".git/refs/heads", "tools", "inner/.git/objects", "inner/.git/refs", "bare/objects", "bare/refs"])
    mkdirSync(join(ws, dir), { recursive: true });
  writeFileSync(join(ws, ".git/HEAD"), "ref: refs/heads/main\n");
  writeFileSync(
    join(ws, ".git/config"),
    '[core]\n\thooksPath = .githooks2\n\tattributesFile = "tools/attrs"\n[include]\n\tpath = ../tools/git.cfg\n[includeIf "gitdir:~/work/"]\n\tpath = ../tools/work.cfg\n',
  );
  writeFileSync(join(ws, "inner/.git/HEAD"), "ref: refs/heads/main\n");
  writeFileSync(join(ws, "inner/.git/config"), "[core]\n");
  writeFileSync(join(ws, "bare/HEAD"), "ref: refs/heads/main\n");
  engine = await loadEngine(policies, { stateDir: join(ws, "state") });
});

afterAll(() => {
  if (ws) rmSync(ws, { recursive: true, force: true });
});

const verdict = (command: string) => engine.classify({ command, cwd: ws, host: "primary", source: "claude" });

describe("files the repository's config points at", () => {
  it("judges a write of a configured hooks directory, included config or attributes file as .git's own", () => {
    for (const command of [
      "echo id > .githooks2/pre-commit",
      "cp /tmp/x .githooks2/pre-push",
      "printf '[core]\\n\\tfsmonitor = id\\n' > tools/git.cfg",
      "echo x >> tools/work.cfg",
      "echo '* diff=x' > tools/attrs",
      `tee ${ws}/tools/git.cfg < /dev/null`,
    ]) {
      const v = verdict(command);
      expect(v.tier, command).toBe(3);
      expect(v.reason, command).toMatch(/the repository's config makes .* its (hooks|config|attributes)/);
    }
  });

  it("leaves the workspace's other files alone", () => {
    for (const command of ["echo x > tools/other", "echo x > .githooks2.txt", "cat tools/git.cfg", "git status"])
      expect(verdict(command).tier, command).toBeLessThanOrEqual(1);
  });
});

describe("repositories in the workspace other than its own", () => {
  it("judges git working in one as git working elsewhere", () => {
    for (const command of ["git -C inner show", "cd inner && git log -p", "git -C bare log", "git -C not-there-yet status"]) {
      const v = verdict(command);
      expect(v.tier, command).toBe(2);
      expect(v.reason, command).toMatch(/other than its own/);
    }
  });

  it("leaves the workspace's own repository and a clone of the same line alone", () => {
    for (const command of ["git show", "git -C tools log", "git clone https://example.com/r.git d && git -C d log"])
      expect(verdict(command).tier, command).toBeLessThanOrEqual(1);
  });
});
