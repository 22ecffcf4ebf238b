// "Git holds it": against a real repository in a temporary directory.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readIndex, repoOf } from "./git-index.js";
import { beginCommand } from "./host-paths.js";
import { missing, named } from "../../../test/support/needs.js";
import { notHeldByGit } from "./reversible.js";

// The fixture repository is made by git itself (the engine reads its index without it).
const noGit = missing("git");

let repo = "";
const git = (...args: string[]) =>
  execFileSync("git", ["-c", "user.email=t@example.com", "-c", "user.name=t", ...args], { cwd: repo, stdio: "ignore" });
const check = (rel: string, mode: "write" | "delete" | "tree" = "delete") => {
  beginCommand();
  return notHeldByGit(join(repo, rel), mode);
};

beforeAll(() => {
  if (noGit) return;
  repo = mkdtempSync(join(tmpdir(), "reversible-"));
  mkdirSync(join(repo, "src/deep"), { recursive: true });
  for (const [rel, text] of Object.entries({
    "a.txt": "a\n",
    "mod.txt": "m\n",
    "same.txt": "s\n",
    "src/x.ts": "x\n",
    "src/deep/y.ts": "y\n",
    ".gitignore": "dist/\n*.log\n!keep.log\n",
  })) {
    writeFileSync(join(repo, rel), text);
  }
  symlinkSync("a.txt", join(repo, "link"));
  git("init", "-q");
  git("add", "-A");
  git("commit", "-qm", "init");
  writeFileSync(join(repo, "mod.txt"), "m\nchanged\n");
  writeFileSync(join(repo, "same.txt"), "s\n");
  utimesSync(join(repo, "same.txt"), new Date(2030, 0, 1), new Date(2030, 0, 1));
  writeFileSync(join(repo, "untracked.txt"), "u\n");
  mkdirSync(join(repo, "dist"));
  writeFileSync(join(repo, "dist/out.js"), "o\n");
  writeFileSync(join(repo, "x.log"), "l\n");
  writeFileSync(join(repo, "keep.log"), "k\n");
});

afterAll(() => {
  if (repo) rmSync(repo, { recursive: true, force: true });
});

describe.skipIf(noGit)(named("git holds it", noGit), () => {
  it("reads the repository and its index", () => {
    const r = repoOf(join(repo, "src"));
    expect(r?.gitDir).toBe(join(repo, ".git"));
    expect([...(readIndex(r as NonNullable<typeof r>)?.entries.keys() ?? [])].sort()).toEqual([
      ".gitignore",
      "a.txt",
      "link",
      "mod.txt",
      "same.txt",
      "src/deep/y.ts",
      "src/x.ts",
    ]);
  });

  it("a tracked, unchanged file or link can go; one whose stat changed but not its content too", () => {
    expect(check("a.txt")).toBeNull();
    expect(check("a.txt", "write")).toBeNull();
    expect(check("link")).toBeNull();
    expect(check("same.txt")).toBeNull();
  });

  it("modified and untracked content cannot", () => {
    expect(check("mod.txt")).toMatch(/does not hold/);
    expect(check("mod.txt", "write")).toMatch(/does not hold/);
    expect(check("untracked.txt")).toMatch(/does not hold/);
    expect(check("keep.log")).toMatch(/does not hold/);
  });

  it("nothing there, or ignored, is nothing to lose", () => {
    expect(check("missing.txt")).toBeNull();
    expect(check("dist", "tree")).toBeNull();
    expect(check("dist/out.js")).toBeNull();
    expect(check("x.log")).toBeNull();
  });

  it("a tree goes only when everything in it is held", () => {
    expect(check("src", "tree")).toBeNull();
    writeFileSync(join(repo, "src/deep/new.ts"), "n\n");
    expect(check("src", "tree")).toMatch(/src\/deep\/new\.ts/);
    rmSync(join(repo, "src/deep/new.ts"));
  });

  it("outside a repository, or the repository itself, is not reversible", () => {
    const bare = mkdtempSync(join(tmpdir(), "no-repo-"));
    writeFileSync(join(bare, "f"), "f");
    beginCommand();
    expect(notHeldByGit(join(bare, "f"), "delete")).toMatch(/not in a git repository/);
    rmSync(bare, { recursive: true, force: true });
    expect(check(".git", "tree")).toMatch(/repository itself/);
  });
});
