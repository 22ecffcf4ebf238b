// The user's git drivers that run programs, read from their config files: a
// `.gitattributes` written in the workspace would choose them (round 21).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { userGitDrivers } from "./git-drivers.js";
import { beginCommand } from "./host-paths.js";

const homes: string[] = [];
function home(files: Record<string, string>): string {
  const h = mkdtempSync(join(tmpdir(), "git-drivers-"));
  homes.push(h);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(h, rel, ".."), { recursive: true });
    writeFileSync(join(h, rel), text);
  }
  return h;
}
afterAll(() => {
  for (const h of homes) rmSync(h, { recursive: true, force: true });
});

const own = (h: string) => {
  beginCommand();
  return userGitDrivers(h).filter((f) => f.startsWith(h));
};

describe("the user's git drivers that run programs", () => {
  it("finds a textconv, a filter and a merge driver, in either config file", () => {
    const sops = home({ ".gitconfig": '[user]\n\tname = x\n[diff "sopsdiffer"]\n\ttextconv = sops -d\n' });
    expect(own(sops)).toEqual([join(sops, ".gitconfig")]);
    const lfs = home({ ".config/git/config": '[filter "crypt"]\n\tsmudge = git-crypt smudge\n\tclean = git-crypt clean\n' });
    expect(own(lfs)).toEqual([join(lfs, ".config/git/config")]);
    const merge = home({ ".gitconfig": '[merge "ours"]\n  driver = /usr/local/bin/m %O %A %B\n' });
    expect(own(merge)).toHaveLength(1);
  });

  it("ignores configs without one: plain settings, a driver section with no program, the words elsewhere", () => {
    const plain = home({ ".gitconfig": "[user]\n\tname = x\n[core]\n\tpager = less\n[alias]\n\tdiffword = diff --word-diff\n" });
    expect(own(plain)).toEqual([]);
    const binary = home({ ".gitconfig": '[diff "bin"]\n\tbinary = true\n[commit]\n\tcleanup = strip\n' });
    expect(own(binary)).toEqual([]);
  });
});
