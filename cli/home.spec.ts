// prepareHome's hand-over of the gateway's state dir (chownRecursive), run as
// root at every `agent-sudo start` over a tree the gateway's user owns.
import { lstatSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { chownRecursive } from "./home.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const root = process.getuid?.() === 0;

describe("chownRecursive", () => {
  it.runIf(root)("chowns the tree, and a link the user left in it is chowned itself: never what it points at, never walked into", () => {
    const base = mkdtempSync(join(tmpdir(), "agent-sudo-home-"));
    dirs.push(base);
    const victimDir = join(base, "etc");
    mkdirSync(victimDir);
    const victim = join(victimDir, "shadow");
    writeFileSync(victim, "root:x:19000::::::\n", { mode: 0o600 });
    const tree = join(base, "gateway");
    mkdirSync(join(tree, "spool"), { recursive: true });
    writeFileSync(join(tree, "spool", "seg-0000000001.log"), "");
    symlinkSync(victim, join(tree, "spool", "cursor"));
    symlinkSync(victimDir, join(tree, "linked-dir"));
    chownRecursive(tree, 65534, 65534);
    expect(statSync(victim).uid).toBe(0);
    expect(statSync(victimDir).uid).toBe(0);
    expect(statSync(join(tree, "spool", "seg-0000000001.log")).uid).toBe(65534);
    expect(lstatSync(join(tree, "spool", "cursor")).uid).toBe(65534);
  });
});
