// Scoped undo on real files in a temp dir: bytes, mode, owner, xattrs,
// created and deleted files.
import { execFileSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, readlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { UndoStore } from "./undo.js";

const root = process.getuid?.() === 0;
const hasSetfattr = (() => {
  try {
    execFileSync("setfattr", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();

describe("UndoStore", () => {
  let dir: string;
  let work: string;
  let store: UndoStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "undo-test-"));
    work = join(dir, "work");
    mkdirSync(work);
    store = new UndoStore(join(dir, "store"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("restores a file edited in place: bytes, mode and owner", () => {
    const f = join(work, "config.ini");
    writeFileSync(f, "key=old\n");
    chmodSync(f, 0o640);
    if (root) chownSync(f, 12345, 23456);
    const id = store.capture("req-1", [f]);
    execFileSync("sed", ["-i", "s/old/new/", f]);
    chmodSync(f, 0o777);
    if (root) chownSync(f, 0, 0);
    expect(readFileSync(f, "utf8")).toBe("key=new\n");
    const result = store.rollback(id);
    expect(result.restored).toEqual([f]);
    expect(readFileSync(f, "utf8")).toBe("key=old\n");
    expect(statSync(f).mode & 0o7777).toBe(0o640);
    if (root) expect([statSync(f).uid, statSync(f).gid]).toEqual([12345, 23456]);
  });

  it("removes what the command created and restores what it deleted", () => {
    const created = join(work, "new-dir");
    const deleted = join(work, "gone.txt");
    writeFileSync(deleted, "keep me");
    const id = store.capture("req-2", [created, join(created, "inner.txt"), deleted]);
    mkdirSync(created);
    writeFileSync(join(created, "inner.txt"), "x");
    rmSync(deleted);
    const result = store.rollback(id);
    expect(existsSync(created)).toBe(false);
    expect(readFileSync(deleted, "utf8")).toBe("keep me");
    expect(result.removed).toContain(created);
    expect(result.restored).toEqual([deleted]);
  });

  it("restores a symlink's target", () => {
    const link = join(work, "current");
    symlinkSync("/opt/v1", link);
    const id = store.capture("req-3", [link]);
    rmSync(link);
    symlinkSync("/opt/v2", link);
    store.rollback(id);
    expect(readlinkSync(link)).toBe("/opt/v1");
  });

  it.skipIf(!hasSetfattr)("keeps extended attributes", () => {
    const f = join(work, "tagged");
    writeFileSync(f, "a");
    execFileSync("setfattr", ["-n", "user.agent_sudo", "-v", "before", f]);
    const id = store.capture("req-4", [f]);
    execFileSync("setfattr", ["-n", "user.agent_sudo", "-v", "after", f]);
    store.rollback(id);
    expect(execFileSync("getfattr", ["--only-values", "-n", "user.agent_sudo", f]).toString()).toBe("before");
  });

  it("rolls back once, refuses unknown ids and refuses unsafe plans", () => {
    const f = join(work, "x");
    writeFileSync(f, "1");
    const id = store.capture("req-5", [f]);
    store.rollback(id);
    expect(() => store.rollback(id)).toThrow(/BAD_REQUEST/);
    expect(() => store.rollback("00000000-0000-0000-0000-000000000000")).toThrow(/BAD_REQUEST/);
    expect(() => store.rollback("../../etc")).toThrow(/BAD_REQUEST/);
    expect(() => store.capture("req-6", ["relative/path"])).toThrow(/BAD_REQUEST/);
    expect(() => store.capture("req-7", ["/proc/sys/kernel/hostname"])).toThrow(/BAD_REQUEST/);
  });

  it("prunes records past their retention", () => {
    const short = new UndoStore(join(dir, "store2"), 60);
    short.capture("req-8", []);
    expect(short.prune(Math.floor(Date.now() / 1000) + 30)).toBe(0);
    expect(short.prune(Math.floor(Date.now() / 1000) + 120)).toBe(1);
  });
});
