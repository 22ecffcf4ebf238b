// Scoped undo on real files, as root, inside one fresh temp dir: `work` is
// the tree captured and rolled back, `other` a sibling that planted
// symlinks point to, `store` the undo store. Captures of files, directories,
// symlinks and absent paths; rollback restoring bytes, mode and owner;
// captureManifest proving the host still matches every `before`; a rollback
// refused as a whole, having written nothing, when a parent became a link.
import {
  chmodSync,
  chownSync,
  existsSync,
  lchownSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EntryKind, EntryState, Manifest, type Change } from "../../proto/gen/agent_sudo/v1/manifest_pb.js";
import { CodedError } from "../shared/errors.js";
import { entryState, treeSnapshot } from "../../test/support/tree-state.js";
import { UndoStore } from "./undo.js";

const NOBODY = 65534;

let base: string;
let work: string;
let other: string;
let storeDir: string;
let store: UndoStore;
beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), "agent-sudo-undo-")));
  work = join(base, "work");
  other = join(base, "other");
  storeDir = join(base, "store");
  mkdirSync(work);
  mkdirSync(other);
  store = new UndoStore(storeDir);
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

/** A manifest whose `before` is the host as it is now; `after` does not matter to the capture. */
function manifestOf(paths: string[]): Manifest {
  const changes: Change[] = paths.map((path) => ({
    path,
    before: entryState(path),
    after: EntryState.create({ kind: EntryKind.ENTRY_KIND_ABSENT }),
  }));
  return Manifest.create({ requestId: "req", host: "primary", changes });
}

function codeOf(act: () => unknown): string {
  try {
    act();
    return "OK";
  } catch (err) {
    if (err instanceof CodedError) return err.code;
    throw err;
  }
}

const records = () => readdirSync(storeDir);

describe("UndoStore.capture and rollback", () => {
  it("restores a file edited in place: bytes, mode (set-id bits) and owner", () => {
    const f = join(work, "config.ini");
    writeFileSync(f, "key=old\n");
    chownSync(f, 12345, 23456);
    chmodSync(f, 0o4750);
    const id = store.capture("req-1", [f]);
    expect(store.has(id)).toBe(true);
    writeFileSync(f, "key=new, and longer\n");
    chownSync(f, 0, 0);
    chmodSync(f, 0o777);
    const result = store.rollback(id);
    expect(result).toEqual({ restored: [f], removed: [], failed: [] });
    expect(readFileSync(f, "utf8")).toBe("key=old\n");
    const st = lstatSync(f);
    expect([st.mode & 0o7777, st.uid, st.gid]).toEqual([0o4750, 12345, 23456]);
  });

  it("never writes back saved content that is not what was saved: a damaged slot fails that path and leaves the file as it is", () => {
    const f = join(work, "sshd_config");
    const g = join(work, "other.conf");
    // Over 64 KiB: saved in a slot file of its own, not in the record.
    const big = `PermitRootLogin no\n${"#".repeat(70_000)}\n`;
    writeFileSync(f, big);
    writeFileSync(g, "kept=old\n");
    const id = store.capture("req-damaged", [f, g]);
    writeFileSync(f, "PermitRootLogin no\nPort 2222\n");
    writeFileSync(g, "kept=new\n");
    // The saved copy of the first path, cut short (what an unsynced write looks like after a crash).
    const slot = join(storeDir, id, "0");
    expect(readFileSync(slot, "utf8")).toBe(big);
    expect(existsSync(join(storeDir, id, "1"))).toBe(false);
    writeFileSync(slot, "");
    const result = store.rollback(id);
    expect(result).toEqual({ restored: [g], removed: [], failed: [f] });
    expect(readFileSync(f, "utf8")).toBe("PermitRootLogin no\nPort 2222\n");
    expect(readFileSync(g, "utf8")).toBe("kept=old\n");
  });

  it("keeps at most 1 MiB of small files inside one record; the rest get slot files, and all roll back", () => {
    const files = Array.from({ length: 20 }, (_, i) => join(work, `many-${i}.conf`));
    for (const [i, f] of files.entries()) writeFileSync(f, `${i}`.padEnd(60_000, "x"));
    const id = store.capture("req-many", files);
    for (const f of files) writeFileSync(f, "changed");
    const record = JSON.parse(readFileSync(join(storeDir, id, "manifest.json"), "utf8")) as { entries: Array<{ content?: string }> };
    const inline = record.entries.filter((e) => e.content !== undefined).length;
    expect(inline).toBe(17);
    expect(existsSync(join(storeDir, id, "17"))).toBe(true);
    expect(store.rollback(id).restored).toHaveLength(20);
    for (const [i, f] of files.entries()) expect(readFileSync(f, "utf8")).toBe(`${i}`.padEnd(60_000, "x"));
  });

  it("never writes back a small file's saved bytes (kept in the record) that are not what was saved", () => {
    const f = join(work, "small.conf");
    writeFileSync(f, "a=old\n");
    const id = store.capture("req-inline", [f]);
    writeFileSync(f, "a=new\n");
    const record = join(storeDir, id, "manifest.json");
    const saved = JSON.parse(readFileSync(record, "utf8")) as { entries: Array<{ content?: string }> };
    expect(Buffer.from(saved.entries[0]?.content ?? "", "base64").toString()).toBe("a=old\n");
    (saved.entries[0] as { content?: string }).content = Buffer.from("a=forged\n").toString("base64");
    writeFileSync(record, JSON.stringify(saved));
    expect(store.rollback(id)).toEqual({ restored: [], removed: [], failed: [f] });
    expect(readFileSync(f, "utf8")).toBe("a=new\n");
  });

  it("restores a directory's mode and owner, and a symlink's target and owner", () => {
    const d = join(work, "dir");
    const link = join(work, "current");
    mkdirSync(d);
    chownSync(d, NOBODY, NOBODY);
    chmodSync(d, 0o2770);
    writeFileSync(join(d, "inside"), "stays");
    symlinkSync(join(other, "v1"), link);
    lchownSync(link, NOBODY, 0);
    const id = store.capture("req-2", [d, link]);
    chownSync(d, 0, 0);
    chmodSync(d, 0o755);
    rmSync(link);
    symlinkSync(join(other, "v2"), link);
    store.rollback(id);
    const st = lstatSync(d);
    expect([st.mode & 0o7777, st.uid, st.gid]).toEqual([0o2770, NOBODY, NOBODY]);
    expect(readFileSync(join(d, "inside"), "utf8")).toBe("stays");
    expect(readlinkSync(link)).toBe(join(other, "v1"));
    expect([lstatSync(link).uid, lstatSync(link).gid]).toEqual([NOBODY, 0]);
    expect(existsSync(join(other, "v1"))).toBe(false);
  });

  it("removes what the command created (a whole tree) and restores what it deleted", () => {
    const created = join(work, "new-dir");
    const deleted = join(work, "gone.txt");
    writeFileSync(deleted, "keep me", { mode: 0o600 });
    const id = store.capture("req-3", [created, deleted]);
    mkdirSync(join(created, "deeper"), { recursive: true });
    writeFileSync(join(created, "inner.txt"), "x");
    writeFileSync(join(created, "deeper", "more"), "y");
    rmSync(deleted);
    const result = store.rollback(id);
    expect(existsSync(created)).toBe(false);
    expect(readFileSync(deleted, "utf8")).toBe("keep me");
    expect(lstatSync(deleted).mode & 0o7777).toBe(0o600);
    expect(result.removed).toContain(created);
    expect(result.restored).toEqual([deleted]);
    expect(result.failed).toEqual([]);
  });

  // BUG (undo.ts, capture(): the catch around withParent turns every error
  // into "uncaptured"): a planned path whose parent directory does not exist
  // yet (the command creates both) gets ENOENT from withParent and is recorded
  // "uncaptured" instead of "absent", so its rollback leaves the created file
  // in place and reports it failed. captureManifest handles the same ENOENT
  // as "absent".
  it("removes a planned file created inside a directory that did not exist", () => {
    const file = join(work, "new-dir", "inner.txt");
    const id = store.capture("req-3b", [file]);
    mkdirSync(join(work, "new-dir"));
    writeFileSync(file, "x");
    const result = store.rollback(id);
    expect(result.failed).toEqual([]);
    expect(existsSync(file)).toBe(false);
  });

  it("puts back a file the command replaced by a directory, and a directory it replaced by a file", () => {
    const f = join(work, "was-file");
    const d = join(work, "was-dir");
    writeFileSync(f, "file content");
    mkdirSync(d, { mode: 0o750 });
    chmodSync(d, 0o750);
    const before = treeSnapshot(work, false);
    const id = store.capture("req-4", [f, d]);
    rmSync(f);
    mkdirSync(join(f, "sub"), { recursive: true });
    rmSync(d, { recursive: true });
    writeFileSync(d, "now a file");
    store.rollback(id);
    expect(treeSnapshot(work, false)).toEqual(before);
  });

  it("rolls back once, refuses unknown and malformed ids, and refuses unsafe plans", () => {
    const f = join(work, "x");
    writeFileSync(f, "1");
    const id = store.capture("req-5", [f]);
    store.rollback(id);
    expect(store.has(id)).toBe(false);
    expect(codeOf(() => store.rollback(id))).toBe("BAD_REQUEST");
    expect(codeOf(() => store.rollback("00000000-0000-0000-0000-000000000000"))).toBe("BAD_REQUEST");
    expect(codeOf(() => store.rollback("../../etc"))).toBe("BAD_REQUEST");
    expect(codeOf(() => store.capture("req-6", ["relative/path"]))).toBe("BAD_REQUEST");
    expect(codeOf(() => store.capture("req-7", ["/proc/sys/kernel/hostname"]))).toBe("BAD_REQUEST");
    expect(codeOf(() => store.capture("req-8", ["/"]))).toBe("BAD_REQUEST");
  });

  it("a path behind a symlink is captured as uncaptured and reported failed, never written through", () => {
    mkdirSync(join(other, "sub"));
    writeFileSync(join(other, "sub", "f"), "other's");
    symlinkSync(join(other, "sub"), join(work, "sub"));
    const was = treeSnapshot(other);
    const id = store.capture("req-9", [join(work, "sub", "f")]);
    expect(codeOf(() => store.rollback(id))).toBe("CONFLICT");
    expect(treeSnapshot(other)).toEqual(was);
  });
});

describe("UndoStore.captureManifest", () => {
  function tree(): string[] {
    const f = join(work, "file");
    const d = join(work, "dir");
    const l = join(work, "link");
    writeFileSync(f, "content\n");
    chownSync(f, NOBODY, NOBODY);
    chmodSync(f, 0o640);
    mkdirSync(d);
    chmodSync(d, 0o750);
    symlinkSync(join(other, "target"), l);
    return [f, d, l, join(work, "absent"), join(work, "new-dir", "inner", "file")];
  }

  it("records the paths when the host matches every `before` (missing parents of absent paths included)", () => {
    const paths = tree();
    const id = store.captureManifest("req", manifestOf(paths));
    expect(store.has(id)).toBe(true);
    expect(records()).toEqual([id]);
  });

  const DIFFERENCES: [string, (paths: string[]) => void][] = [
    ["content (same size)", ([f]) => writeFileSync(f as string, "CONTENT\n")],
    ["content (another size)", ([f]) => writeFileSync(f as string, "content and more\n")],
    ["mode", ([f]) => chmodSync(f as string, 0o644)],
    ["set-id bit", ([, d]) => chmodSync(d as string, 0o2750)],
    ["owner", ([f]) => chownSync(f as string, 0, NOBODY)],
    ["group", ([f]) => chownSync(f as string, NOBODY, 0)],
    ["kind: the file became a directory", ([f]) => (rmSync(f as string), mkdirSync(f as string))],
    [
      "kind: the file became a symlink to it",
      ([f]) => (renameSync(f as string, join(other, "moved")), symlinkSync(join(other, "moved"), f as string)),
    ],
    ["kind: the directory became a file", ([, d]) => (rmSync(d as string, { recursive: true }), writeFileSync(d as string, ""))],
    ["symlink target", ([, , l]) => (rmSync(l as string), symlinkSync(join(other, "elsewhere"), l as string))],
    ["symlink owner", ([, , l]) => lchownSync(l as string, NOBODY, NOBODY)],
    ["a path that appeared", ([, , , a]) => writeFileSync(a as string, "")],
    ["a path that appeared (a link)", ([, , , a]) => symlinkSync(other, a as string)],
    [
      "a directory on the way became a link",
      ([, , , , n]) => (mkdirSync(join(other, "inner")), symlinkSync(other, join(work, "new-dir")), void n),
    ],
    ["the file was deleted", ([f]) => rmSync(f as string)],
  ];
  for (const [what, change] of DIFFERENCES) {
    it(`a difference in ${what} → CONFLICT, and no record is left`, () => {
      const paths = tree();
      const manifest = manifestOf(paths);
      change(paths);
      const was = treeSnapshot(base);
      expect(codeOf(() => store.captureManifest("req", manifest))).toBe("CONFLICT");
      expect(records()).toEqual([]);
      expect(treeSnapshot(base)).toEqual(was);
    });
  }

  it("a manifest entry with no `before`, or an unknown kind, is a conflict", () => {
    const paths = tree();
    const m = manifestOf(paths);
    (m.changes[0] as Change).before = undefined;
    expect(codeOf(() => store.captureManifest("req", m))).toBe("CONFLICT");
    const m2 = manifestOf(paths);
    (m2.changes[1] as Change).before = EntryState.create({ kind: EntryKind.ENTRY_KIND_SPECIAL });
    expect(codeOf(() => store.captureManifest("req", m2))).toBe("CONFLICT");
    expect(records()).toEqual([]);
  });

  it("a file the manifest captures is restored by the rollback of its record", () => {
    const paths = tree();
    const before = treeSnapshot(work, false);
    const id = store.captureManifest("req", manifestOf(paths));
    writeFileSync(paths[0] as string, "changed by the commit");
    rmSync(paths[1] as string, { recursive: true });
    rmSync(paths[2] as string);
    mkdirSync(join(work, "new-dir", "inner"), { recursive: true });
    writeFileSync(join(work, "new-dir", "inner", "file"), "created");
    writeFileSync(paths[3] as string, "created");
    const result = store.rollback(id);
    expect(result.failed).toEqual([]);
    // new-dir itself was not in the manifest, so it stays (empty of what the record removed)
    rmSync(join(work, "new-dir"), { recursive: true });
    expect(treeSnapshot(work, false)).toEqual(before);
  });
});

describe("UndoStore.rollback when a parent became a symlink", () => {
  /** work/sub/{changed, deleted} and a created path; `other` holds files of the same names. */
  function setup(): { id: string; sub: string } {
    const sub = join(work, "sub");
    mkdirSync(sub);
    writeFileSync(join(sub, "changed"), "original\n");
    writeFileSync(join(sub, "deleted"), "deleted\n");
    const id = store.capture("req", [join(sub, "changed"), join(sub, "deleted"), join(sub, "created"), join(work, "top")]);
    // the command's effects
    writeFileSync(join(sub, "changed"), "modified\n");
    rmSync(join(sub, "deleted"));
    writeFileSync(join(sub, "created"), "created\n");
    writeFileSync(join(work, "top"), "created at the top\n");
    // what a rollback through a link would overwrite or delete
    writeFileSync(join(other, "changed"), "other's changed\n");
    writeFileSync(join(other, "created"), "other's created\n");
    chmodSync(join(other, "created"), 0o4755);
    mkdirSync(join(other, "deleted"));
    writeFileSync(join(other, "deleted", "x"), "x");
    return { id, sub };
  }

  it("→ CONFLICT, nothing written anywhere (the other dir byte for byte), the record kept", () => {
    const { id, sub } = setup();
    renameSync(sub, join(work, "sub.real"));
    symlinkSync(other, sub);
    // mtimes too: a write that put the same bytes back would still show
    for (const n of readdirSync(other)) utimesSync(join(other, n), 1_000_000, 1_000_000);
    const was = treeSnapshot(base);
    const mtimes = readdirSync(other).map((n) => [n, lstatSync(join(other, n)).mtimeMs]);
    expect(codeOf(() => store.rollback(id))).toBe("CONFLICT");
    expect(treeSnapshot(base)).toEqual(was);
    expect(readdirSync(other).map((n) => [n, lstatSync(join(other, n)).mtimeMs])).toEqual(mtimes);
    // even the entry whose parent is fine (work/top) was left alone
    expect(readFileSync(join(work, "top"), "utf8")).toBe("created at the top\n");
    expect(store.has(id)).toBe(true);

    // once the directory is back, the same record rolls back
    rmSync(sub);
    renameSync(join(work, "sub.real"), sub);
    const result = store.rollback(id);
    expect(result.failed).toEqual([]);
    expect(readFileSync(join(sub, "changed"), "utf8")).toBe("original\n");
    expect(readFileSync(join(sub, "deleted"), "utf8")).toBe("deleted\n");
    expect(existsSync(join(sub, "created"))).toBe(false);
    expect(existsSync(join(work, "top"))).toBe(false);
    expect(treeSnapshot(other)).toEqual(
      Object.fromEntries(
        Object.entries(was)
          .filter(([k]) => k.startsWith("./other"))
          .map(([k, v]) => [k.replace("./other", "."), v]),
      ),
    );
  });

  it("→ CONFLICT when the link is higher up (work itself moved behind a link)", () => {
    const { id } = setup();
    mkdirSync(join(other, "sub"));
    writeFileSync(join(other, "sub", "changed"), "other's\n");
    renameSync(work, join(base, "work.real"));
    symlinkSync(other, work);
    const was = treeSnapshot(base);
    expect(codeOf(() => store.rollback(id))).toBe("CONFLICT");
    expect(treeSnapshot(base)).toEqual(was);
  });

  it("rolled back once: a second rollback of the same record is refused", () => {
    const { id } = setup();
    store.rollback(id);
    expect(codeOf(() => store.rollback(id))).toBe("BAD_REQUEST");
  });
});

describe("UndoStore.prune", () => {
  it("removes records past their retention, and only those", () => {
    const short = new UndoStore(join(base, "store2"), 60);
    const id = short.capture("req", []);
    const nowS = Math.floor(Date.now() / 1000);
    expect(short.prune(nowS + 30)).toBe(0);
    expect(short.has(id)).toBe(true);
    expect(short.prune(nowS + 120)).toBe(1);
    expect(short.has(id)).toBe(false);
    expect(readdirSync(join(base, "store2"))).toEqual([]);
  });
});
