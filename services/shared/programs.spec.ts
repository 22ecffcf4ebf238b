import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { findProgram, pathDirs } from "./programs.js";

const root = mkdtempSync(join(tmpdir(), "agent-sudo-programs-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function dir(name: string): string {
  const d = join(root, name);
  mkdirSync(d, { recursive: true });
  return d;
}

function file(d: string, name: string, mode: number): string {
  const p = join(d, name);
  writeFileSync(p, "#!/bin/sh\n");
  chmodSync(p, mode);
  return p;
}

describe("findProgram", () => {
  it("returns the first executable regular file, in the order of the directories given", () => {
    const a = dir("order-a");
    const b = dir("order-b");
    const inB = file(b, "tool", 0o755);
    const inA = file(a, "tool", 0o700);
    expect(findProgram("tool", [a, b])).toBe(inA);
    expect(findProgram("tool", [b, a])).toBe(inB);
  });

  it("is not fooled by a path that merely exists: no execute bit, a directory, a device (how /dev/null bound over a binary looks)", () => {
    const d = dir("fakes");
    file(d, "plain", 0o644);
    mkdirSync(join(d, "adir"));
    symlinkSync("/dev/null", join(d, "masked"));
    expect(findProgram("plain", [d])).toBeUndefined();
    expect(findProgram("adir", [d])).toBeUndefined();
    expect(findProgram("masked", [d])).toBeUndefined();
    const real = dir("real");
    const found = file(real, "masked", 0o755);
    expect(findProgram("masked", [d, real])).toBe(found);
  });

  it("never searches a relative directory (a PATH entry like '' or '.' is the caller's cwd)", () => {
    const d = dir("rel");
    file(d, "here", 0o755);
    const cwd = process.cwd();
    process.chdir(d);
    try {
      expect(findProgram("here", ["", ".", "rel"])).toBeUndefined();
    } finally {
      process.chdir(cwd);
    }
  });

  it("finds nothing in directories that do not exist", () => {
    expect(findProgram("sh", [join(root, "missing"), join(root, "missing", "deeper")])).toBeUndefined();
  });
});

describe("pathDirs", () => {
  it("keeps PATH's absolute entries in order, else the fallback", () => {
    const saved = process.env.PATH;
    try {
      process.env.PATH = "/usr/bin::relative:.:/bin";
      expect(pathDirs(["/x"])).toEqual(["/usr/bin", "/bin"]);
      process.env.PATH = "";
      expect(pathDirs(["/usr/bin", "/bin"])).toEqual(["/usr/bin", "/bin"]);
      delete process.env.PATH;
      expect(pathDirs()).toEqual([]);
    } finally {
      process.env.PATH = saved;
    }
  });
});
