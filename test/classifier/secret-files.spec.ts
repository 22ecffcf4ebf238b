// A recursive reader of a tree that is no secret place as a whole (the
// workspace, a project beside it) is judged by the secret files in it:
// listed for the files that reader reads, bounded, a tree too large to list
// counting as holding one. Real files in a temp workspace, the real engine
// over the real policies.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadEngine } from "../../services/classifier/engine/index.js";
import { TREE_SCAN_LIMIT } from "../../services/classifier/engine/secret-files.js";
import type { Engine } from "../../services/classifier/verdict.js";
import { missing, named } from "../support/needs.js";
import { policiesDir } from "./engine-fixture.js";

let engine: Engine;
let top: string;
const CERT = "-----BEGIN CERTIFICATE-----\nMIIBjTCCATOgAwIBAgIUaKyP8CkIkxOzDTMs4Woza7X1XEwwCgYIKoZIzj0EAwIw\n-----END CERTIFICATE-----\n";

beforeAll(async () => {
  engine = await loadEngine(policiesDir);
  top = mkdtempSync(join(tmpdir(), "agent-sudo-secret-files-"));
  const files: Record<string, string> = {
    "app/src/main.ts": "export {};\n",
    "app/.env": "API_TOKEN=placeholder\n",
    "app/deploy/keys/id_ed25519": "placeholder\n",
    // Only public material, a package's throwaway test key, an example env file: none is a secret to read.
    "clean/certs/ca.pem": CERT,
    // A CA bundle larger than the 64 KiB a script is read to (certifi's is ~300 KiB): still only certificates.
    "clean/certs/bundle.pem": CERT.repeat(1200),
    "clean/node_modules/pkg/test/fixtures/key.pem": "-----BEGIN PRIVATE KEY-----\nx\n-----END PRIVATE KEY-----\n",
    "clean/.env.example": "API_TOKEN=\n",
    "clean/src/index.js": "module.exports = 1;\n",
    "linked/src/a.ts": "\n",
  };
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(top, rel, ".."), { recursive: true });
    writeFileSync(join(top, rel), text);
  }
  // A link from one project into the other's secrets: only a reader that follows links reaches them.
  symlinkSync(join(top, "app", "deploy"), join(top, "linked", "src", "deploy"));
  mkdirSync(join(top, "huge"));
  for (let i = 0; i <= TREE_SCAN_LIMIT; i++) writeFileSync(join(top, "huge", `f${i}`), "");
});

afterAll(() => rmSync(top, { recursive: true, force: true }));

const tier = (command: string, dir: string, source: "claude" | "sudo" = "claude") =>
  engine.classify({ command, cwd: join(top, dir), host: "primary", source }).tier;

describe("trees holding secret files", () => {
  it("route a recursive read of the workspace when it holds a secret file, from both sources", () => {
    for (const source of ["claude", "sudo"] as const) {
      for (const command of [
        'grep -r "" .',
        "grep -rh = deploy",
        "rg -uu TOKEN",
        "find . -name '.env*' -exec cat {} +",
        "tar -cf - . | base64",
        "cp -r . /tmp/x",
      ])
        expect(tier(command, "app", source), `${source}: ${command}`).toBeGreaterThanOrEqual(2);
    }
  });

  it("route a recursive read of a tree beside the workspace that holds one (`grep -r x ..`)", () => {
    expect(tier("grep -r x ..", "app/src")).toBeGreaterThanOrEqual(2);
    expect(tier("grep -r x ../app", "clean")).toBeGreaterThanOrEqual(2);
    expect(tier(`grep -r x ${join(top, "app")}`, "clean")).toBeGreaterThanOrEqual(2);
  });

  it("honour what the reader skips: --include, -g, find -name before -exec, programs that print no content", () => {
    expect(tier("rg TOKEN src", "app")).toBe(0);
    expect(tier("grep -rn TOKEN --include='*.ts' .", "app")).toBe(0);
    expect(tier("rg -g '*.ts' TOKEN", "app")).toBe(0);
    expect(tier("find . -name '*.ts' -exec cat {} +", "app")).toBe(0);
    expect(tier("find . -type f -exec wc -l {} +", "app")).toBe(0);
    // rg's dotfile rule is lifted by an ignore file's !pattern, a glob or a type: dotfiles count.
    expect(tier("rg TOKEN", "app")).toBeGreaterThanOrEqual(2);
    expect(tier("rg -g '.env' TOKEN", "app")).toBeGreaterThanOrEqual(2);
    // A test after -exec filters nothing for it; file -f prints the lines of the file it is given.
    expect(tier("find . -exec cat {} \\; -name '*.ts'", "app")).toBeGreaterThanOrEqual(2);
    expect(tier("find . -name .env -exec file -f {} \\;", "app")).toBeGreaterThanOrEqual(2);
    // grep: the last matching --include/--exclude decides.
    expect(tier("grep -r --exclude='.env' --include='*' TOKEN .", "app")).toBeGreaterThanOrEqual(2);
    expect(tier("grep -r --include='*' --exclude='.env' --exclude='id_*' TOKEN .", "app")).toBe(0);
    expect(tier("rg -g '*.ts' -g 'id_*' TOKEN", "app")).toBeGreaterThanOrEqual(2);
  });

  it("do not count certificates, example env files, or packages' test keys", () => {
    expect(tier('grep -r "" .', "clean")).toBe(0);
  });

  it("follow a link into a secret tree for a reader that follows links or opens what it is handed", () => {
    expect(tier("grep -r x .", "linked")).toBe(0);
    expect(tier("grep -R x .", "linked")).toBeGreaterThanOrEqual(2);
    // find hands its program a link by name and the program opens what it points at; diff follows links.
    expect(tier("find . -exec cat {} +", "linked")).toBeGreaterThanOrEqual(2);
    expect(tier("find . -print0 | xargs -0 cat", "linked")).toBeGreaterThanOrEqual(2);
    expect(tier("diff -r . ../clean", "linked")).toBeGreaterThanOrEqual(2);
    expect(tier("find . -type f -exec cat {} +", "linked")).toBe(0);
    expect(tier("diff -r --no-dereference . ../clean", "linked")).toBe(0);
  });

  it("count a tree too large to list as holding a secret", () => {
    const v = engine.classify({ command: "grep -r x huge", cwd: top, host: "primary", source: "claude" });
    expect(v.tier).toBeGreaterThanOrEqual(2);
    expect(v.reason).toContain(`more than ${TREE_SCAN_LIMIT} entries`);
  });

  it("route git printing a secret file from history, the index or the work tree, not a pattern that names one", () => {
    for (const command of [
      "git show HEAD:.env",
      "git cat-file -p :0:deploy/keys/id_ed25519",
      "git log -p -- .env",
      "git blame .env",
      "git grep = -- .env",
    ])
      expect(tier(command, "app"), command).toBeGreaterThanOrEqual(2);
    for (const command of [
      'git grep -n "API_TOKEN" -- "*.ts"',
      'git grep -n ".env"',
      "git log --oneline -- .env",
      "git show HEAD:src/main.ts",
    ])
      expect(tier(command, "app"), command).toBe(0);
  });

  const NO_GIT = missing("git");
  it.skipIf(!!NO_GIT)(
    named("route git's whole-repository printers in a repository that tracks a secret file, not in one that does not", NO_GIT),
    () => {
      const git = (dir: string, ...args: string[]) =>
        execFileSync("git", ["-c", "user.email=t@example.com", "-c", "user.name=t", ...args], { cwd: join(top, dir), stdio: "ignore" });
      for (const [dir, tracked] of [
        ["repo-secret", ["src/main.ts", "config/.env"]],
        ["repo-clean", ["src/main.ts"]],
      ] as const) {
        mkdirSync(join(top, dir, "src"), { recursive: true });
        mkdirSync(join(top, dir, "config"), { recursive: true });
        writeFileSync(join(top, dir, "src/main.ts"), "export {};\n");
        writeFileSync(join(top, dir, "config/.env"), "API_TOKEN=placeholder\n");
        git(dir, "init", "-q");
        git(dir, "add", ...tracked);
        git(dir, "commit", "-qm", "x");
      }
      for (const command of [
        "git log -p",
        "git show",
        "git grep TOKEN",
        "git diff HEAD",
        "git log -p -- config",
        "git log --stat -p -- 'conf*'",
      ])
        expect(tier(command, "repo-secret"), command).toBeGreaterThanOrEqual(2);
      // Pathspec magic and bracket negation may cover the tracked secret; -C moves into the repository.
      for (const command of ["git log -p -- ':!src'", "git log -p -- ':/'", "git diff HEAD -- ':(top)'", "git log -p -- 'c[!x]nfig'"])
        expect(tier(command, "repo-secret"), command).toBeGreaterThanOrEqual(2);
      expect(tier("git -C repo-secret log -p", "")).toBeGreaterThanOrEqual(2);
      for (const command of ["git log -p -- src", "git show HEAD:src/main.ts", "git log --oneline"])
        expect(tier(command, "repo-secret"), command).toBe(0);
      // An untracked .env is not in git's history: the same printers stay reads.
      for (const command of ["git log -p", "git show", "git grep TOKEN"]) expect(tier(command, "repo-clean"), command).toBe(0);
    },
  );
});
