// The undo record's and the journal's durability, on real files: before capture()
// returns (and so before a commit's journal entry says "begun"), the record's
// bytes, its name, and the name of its directory in the store are each
// fsynced. The file system calls are observed (the real ones still run),
// since a crash cannot be staged here: a record whose directory's name was
// never synced could be missing after one, and an interrupted commit would
// then not be rolled back.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

const synced: string[] = [];
const opened = new Map<number, string>();

vi.mock("node:fs", async (original) => {
  const fs = await original<typeof import("node:fs")>();
  return {
    ...fs,
    openSync: (path: string, ...rest: unknown[]) => {
      const fd = (fs.openSync as (...a: unknown[]) => number)(path, ...rest);
      opened.set(fd, String(path));
      return fd;
    },
    fsyncSync: (fd: number) => {
      synced.push(opened.get(fd) ?? `fd ${fd}`);
      fs.fsyncSync(fd);
    },
  };
});

const { UndoStore } = await import("./undo.js");
const { openJournal } = await import("./journal.js");

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "undo-durable-"));
  synced.length = 0;
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("undo record durability", () => {
  it("syncs the record, its directory and the store's directory before capture returns", () => {
    const store = new UndoStore(join(dir, "store"));
    writeFileSync(join(dir, "f"), "saved bytes");
    synced.length = 0;
    const id = store.capture("req-1", [join(dir, "f")]);
    const root = join(dir, "store", id);
    expect(synced).toContain(join(root, "manifest.json.tmp"));
    expect(synced).toContain(root);
    expect(synced).toContain(join(dir, "store"));
    // The store's directory last: its entry names a directory whose content is already durable.
    expect(synced.at(-1)).toBe(join(dir, "store"));
  });

  it("a large saved file (its own slot file) is synced before the record", () => {
    const store = new UndoStore(join(dir, "store"));
    writeFileSync(join(dir, "big"), Buffer.alloc(200 * 1024, 7));
    synced.length = 0;
    const id = store.capture("req-2", [join(dir, "big")]);
    const root = join(dir, "store", id);
    const slot = synced.indexOf(join(root, "0"));
    expect(slot).toBeGreaterThanOrEqual(0);
    expect(slot).toBeLessThan(synced.indexOf(join(root, "manifest.json.tmp")));
  });

  it("a rollback's mark (the record moved aside) is synced before anything is restored", () => {
    const store = new UndoStore(join(dir, "store"));
    writeFileSync(join(dir, "f"), "before");
    const id = store.capture("req-3", [join(dir, "f")]);
    writeFileSync(join(dir, "f"), "after");
    synced.length = 0;
    const out = store.rollback(id);
    expect(out.restored).toEqual([join(dir, "f")]);
    const mark = synced.indexOf(join(dir, "store", id));
    expect(mark).toBe(0);
  });

  it("a new journal's name is synced before its first entry counts; an existing one is not re-synced", () => {
    const path = join(dir, "journal.log");
    synced.length = 0;
    const journal = openJournal(path);
    expect(synced[0]).toBe(dir);
    journal.append({ event: "executor-start", pid: 1 });
    expect(synced.slice(1)).toContain(path);
    journal.close();
    synced.length = 0;
    openJournal(path).close();
    expect(synced).not.toContain(dir);
  });
});
