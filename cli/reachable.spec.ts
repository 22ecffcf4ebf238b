import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { unreachableByOthers } from "./reachable.js";

const base = mkdtempSync(join(tmpdir(), "agent-sudo-reach-"));
afterAll(() => rmSync(base, { recursive: true, force: true }));

function tree(name: string, modes: { top: number; dir: number; file: number }): { dir: string; file: string } {
  const top = join(base, name);
  const dir = join(top, "checkout", "dist");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, "main.js");
  writeFileSync(file, "");
  chmodSync(file, modes.file);
  chmodSync(dir, modes.dir);
  chmodSync(join(top, "checkout"), 0o755);
  chmodSync(top, modes.top);
  return { dir, file };
}

describe("unreachableByOthers", () => {
  it("passes a tree every user can search and read", () => {
    chmodSync(base, 0o755);
    const t = tree("open", { top: 0o755, dir: 0o755, file: 0o644 });
    expect(unreachableByOthers([t.dir, t.file])).toBeUndefined();
    expect(unreachableByOthers([t.dir])).toBeUndefined();
  });

  it("names a directory above that others cannot enter (a home of mode 0700)", () => {
    const t = tree("home", { top: 0o700, dir: 0o755, file: 0o644 });
    expect(unreachableByOthers([t.dir])).toBe(`${join(base, "home")} is mode 0700 (other users cannot enter it)`);
  });

  it("a search-only directory above is enough", () => {
    const t = tree("search", { top: 0o711, dir: 0o755, file: 0o644 });
    expect(unreachableByOthers([t.dir, t.file])).toBeUndefined();
  });

  it("names the directory itself when others cannot list it, and a file they cannot read", () => {
    const a = tree("nolist", { top: 0o755, dir: 0o711, file: 0o644 });
    expect(unreachableByOthers([a.dir])).toBe(`${a.dir} is mode 0711 (other users cannot list and enter it)`);
    const b = tree("noread", { top: 0o755, dir: 0o755, file: 0o600 });
    expect(unreachableByOthers([b.dir, b.file])).toBe(`${b.file} is mode 0600 (other users cannot read it)`);
  });

  it("throws for a path that does not exist (a checkout without its parts is not started either)", () => {
    expect(() => unreachableByOthers([join(base, "absent")])).toThrow(/ENOENT/);
  });
});
