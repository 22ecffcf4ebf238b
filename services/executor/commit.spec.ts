// checkManifest / applyManifest on real files, as root, inside one fresh
// temp dir: `host` is the tree a manifest is committed to, `outside` a
// sibling that planted symlinks point to (it must come out byte for byte as
// it went in). Manifests name only paths under `host`; the paths the
// checks refuse outright (/proc, /sys, /dev, /) go to checkManifest alone,
// which writes nothing. The end-to-end builds a manifest by diffing `host`
// against a `mirror` (the run's view), commits it through UndoStore, and
// rolls it back to the exact before state.
import { createHash } from "node:crypto";
import {
  chmodSync,
  chownSync,
  cpSync,
  existsSync,
  lchownSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
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
import { applyManifest, checkManifest, checkMasks } from "./commit.js";
import { entryState, treeSnapshot } from "../../test/support/tree-state.js";
import { UndoStore } from "./undo.js";

const NOBODY = 65534;

let base: string;
let host: string;
let outside: string;
beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), "agent-sudo-commit-")));
  host = join(base, "host");
  outside = join(base, "outside");
  mkdirSync(host);
  mkdirSync(join(outside, "a", "b"), { recursive: true });
  writeFileSync(join(outside, "a", "b", "file"), "outside's file\n");
  writeFileSync(join(outside, "target.txt"), "outside's target\n");
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

// ---- building manifests ---------------------------------------------------------------

const sha = (b: Uint8Array) => createHash("sha256").update(b).digest();
const ABSENT = EntryState.create({ kind: EntryKind.ENTRY_KIND_ABSENT });
const file = (data: string | Buffer, mode = 0o644, uid = 0, gid = 0) => {
  const b = Buffer.from(data);
  return EntryState.create({ kind: EntryKind.ENTRY_KIND_FILE, mode, uid, gid, size: b.length, sha256: sha(b) });
};
const dir = (mode = 0o755, uid = 0, gid = 0) => EntryState.create({ kind: EntryKind.ENTRY_KIND_DIR, mode, uid, gid });
const link = (target: string, uid = 0, gid = 0) => EntryState.create({ kind: EntryKind.ENTRY_KIND_SYMLINK, mode: 0o777, uid, gid, target });
const change = (path: string, before: EntryState, after: EntryState): Change => ({ path, before, after });
const manifest = (changes: Change[]) => Manifest.create({ requestId: "req", host: "primary", changes });
const blobs = (...datas: (string | Buffer)[]) =>
  new Map(datas.map((d) => [sha(Buffer.from(d)).toString("hex"), Buffer.from(d) as Uint8Array]));

function codeOf(act: () => unknown): string {
  try {
    act();
    return "OK";
  } catch (err) {
    if (err instanceof CodedError) return err.code;
    throw err;
  }
}

/** What main.ts does: check, then write. */
function commit(m: Manifest, b: Map<string, Uint8Array>): number {
  checkManifest(m, b);
  return applyManifest(m, b);
}

const h = (...parts: string[]) => join(host, ...parts);

// ---- applying --------------------------------------------------------------------------

describe("applyManifest writes exactly the `after` states", () => {
  it("creates a file (set-id mode, owner), a directory tree listed children-first, and a symlink", () => {
    const m = manifest([
      change(h("tree", "sub", "leaf.txt"), ABSENT, file("leaf\n", 0o600, NOBODY, NOBODY)),
      change(h("tree", "sub"), ABSENT, dir(0o2750, 0, NOBODY)),
      change(h("tree"), ABSENT, dir(0o755)),
      change(h("tool"), ABSENT, file("#!/bin/sh\n", 0o4755, 0, 0)),
      change(h("current"), ABSENT, link("tree/sub", NOBODY, NOBODY)),
    ]);
    expect(commit(m, blobs("leaf\n", "#!/bin/sh\n"))).toBe(5);
    expect(readFileSync(h("tree", "sub", "leaf.txt"), "utf8")).toBe("leaf\n");
    for (const c of m.changes) expect(entryState(c.path), c.path).toEqual(c.after);
    expect(readdirSync(host).sort()).toEqual(["current", "tool", "tree"]);
  });

  it("modifies a file's content (a new inode renamed over it) and its mode", () => {
    writeFileSync(h("config"), "old\n");
    const ino = lstatSync(h("config")).ino;
    const m = manifest([change(h("config"), entryState(h("config")), file("new and longer\n", 0o640, NOBODY, 0))]);
    commit(m, blobs("new and longer\n"));
    expect(readFileSync(h("config"), "utf8")).toBe("new and longer\n");
    expect(entryState(h("config"))).toEqual(m.changes[0]?.after);
    expect(lstatSync(h("config")).ino).not.toBe(ino);
  });

  it("changes only mode and owner when the content is the same: the file is not rewritten (same inode, same mtime)", () => {
    writeFileSync(h("script"), "echo hi\n", { mode: 0o644 });
    chmodSync(h("script"), 0o644);
    utimesSync(h("script"), 1_000_000, 1_000_000);
    mkdirSync(h("d"));
    chmodSync(h("d"), 0o755);
    const st = lstatSync(h("script"));
    const m = manifest([
      change(h("script"), entryState(h("script")), file("echo hi\n", 0o4755, NOBODY, NOBODY)),
      change(h("d"), entryState(h("d")), dir(0o1770, NOBODY, 0)),
    ]);
    commit(m, blobs("echo hi\n"));
    const after = lstatSync(h("script"));
    expect([after.ino, after.mtimeMs]).toEqual([st.ino, st.mtimeMs]);
    expect([after.mode & 0o7777, after.uid, after.gid]).toEqual([0o4755, NOBODY, NOBODY]);
    expect(readFileSync(h("script"), "utf8")).toBe("echo hi\n");
    expect(entryState(h("d"))).toEqual(dir(0o1770, NOBODY, 0));
  });

  it("deletes a file, a symlink (not its target) and a whole directory tree, deepest first whatever the order given", () => {
    writeFileSync(h("gone.txt"), "x");
    symlinkSync(join(outside, "target.txt"), h("gone-link"));
    mkdirSync(h("tree", "a", "b"), { recursive: true });
    writeFileSync(h("tree", "a", "b", "f"), "f");
    writeFileSync(h("tree", "top"), "t");
    symlinkSync(outside, h("tree", "a", "to-outside"));
    const paths = [
      h("tree"),
      h("tree", "a"),
      h("tree", "a", "b"),
      h("tree", "a", "b", "f"),
      h("tree", "top"),
      h("tree", "a", "to-outside"),
      h("gone.txt"),
      h("gone-link"),
    ];
    const m = manifest(paths.map((p) => change(p, entryState(p), ABSENT)));
    const was = treeSnapshot(outside);
    expect(commit(m, blobs())).toBe(paths.length);
    expect(readdirSync(host)).toEqual([]);
    expect(treeSnapshot(outside)).toEqual(was);
  });

  it("replaces a directory by a file, a file by a directory, a link by a file and a file by a link", () => {
    mkdirSync(h("was-dir"));
    writeFileSync(h("was-file"), "file");
    symlinkSync(join(outside, "target.txt"), h("was-link"));
    writeFileSync(h("to-link"), "file");
    const m = manifest([
      change(h("was-dir"), entryState(h("was-dir")), file("now a file\n", 0o600)),
      change(h("was-file"), entryState(h("was-file")), dir(0o700, NOBODY, NOBODY)),
      change(h("was-file", "inside"), ABSENT, file("inside\n")),
      change(h("was-link"), entryState(h("was-link")), file("not through the link\n")),
      change(h("to-link"), entryState(h("to-link")), link("was-file/inside")),
    ]);
    const was = treeSnapshot(outside);
    commit(m, blobs("now a file\n", "inside\n", "not through the link\n"));
    for (const c of m.changes) expect(entryState(c.path), c.path).toEqual(c.after);
    expect(readFileSync(h("to-link"), "utf8")).toBe("inside\n");
    expect(treeSnapshot(outside)).toEqual(was);
  });
});

// ---- refusals before anything is written ---------------------------------------------------

// Review 21: a write through another path to a masked file (a bind of a part of the state dir, a hard
// link) came out of the mirror as an ordinary change; the executor checks its own mask list too.
describe("checkMasks: nothing lands in agent-sudo's state or a secret path", () => {
  const masks = ["/var/lib/agent-sudo", "/etc/shadow", "/root/.ssh"];
  it("refuses a change inside a mask, of the mask itself, or a deleted directory that holds one", () => {
    for (const c of [
      change("/var/lib/agent-sudo/keys/classifier.key", file("x\n"), file("y\n")),
      change("/etc/shadow", file("x\n"), file("y\n", 0o644)),
      change("/root/.ssh", dir(), ABSENT),
      change("/root", dir(), ABSENT),
    ])
      expect(
        codeOf(() => checkMasks(manifest([c]), masks)),
        c.path,
      ).toBe("REFUSED");
  });
  it("lets everything else through: siblings, a name that only starts the same, a parent's mode", () => {
    for (const c of [
      change("/var/lib/agent-sudo-other/x", ABSENT, file("x\n")),
      change("/etc/shadow.bak", ABSENT, file("x\n")),
      change("/root/.bashrc", file("x\n"), file("y\n")),
      change("/root", dir(), dir(0o700)),
    ])
      expect(() => checkMasks(manifest([c]), masks), c.path).not.toThrow();
  });
});

describe("checkManifest refuses before anything is written", () => {
  /** A manifest with a harmless first change, and `bad`. */
  function withBad(bad: Change, b = blobs("ok\n")): string {
    const m = manifest([change(h("first"), ABSENT, file("ok\n")), bad]);
    const was = treeSnapshot(base);
    const code = codeOf(() => checkManifest(m, b));
    expect(treeSnapshot(base)).toEqual(was);
    return code;
  }

  it("a blob missing, of the wrong size, or whose sha256 is not the signed one → BAD_REQUEST", () => {
    expect(withBad(change(h("f"), ABSENT, file("content\n")))).toBe("BAD_REQUEST");
    // the blob under the right key, but other bytes
    const wrong = new Map(blobs("ok\n"));
    wrong.set(sha(Buffer.from("content\n")).toString("hex"), Buffer.from("CONTENT\n"));
    expect(withBad(change(h("f"), ABSENT, file("content\n")), wrong)).toBe("BAD_REQUEST");
    // the right bytes, but the manifest's size is another
    expect(withBad(change(h("f"), ABSENT, { ...file("content\n"), size: 3 }), blobs("ok\n", "content\n"))).toBe("BAD_REQUEST");
    // and in the whole flow, nothing was written
    const m = manifest([change(h("first"), ABSENT, file("ok\n")), change(h("f"), ABSENT, file("content\n"))]);
    expect(codeOf(() => commit(m, blobs("ok\n")))).toBe("BAD_REQUEST");
    expect(readdirSync(host)).toEqual([]);
  });

  it("a path twice, or a change without a before or after state → BAD_REQUEST", () => {
    expect(withBad(change(h("first"), ABSENT, file("ok\n")))).toBe("BAD_REQUEST");
    expect(withBad({ path: h("x"), before: undefined, after: dir() })).toBe("BAD_REQUEST");
    expect(withBad({ path: h("x"), before: ABSENT, after: undefined })).toBe("BAD_REQUEST");
  });

  it("ENTRY_KIND_SPECIAL, an unspecified kind, or extended attributes → REFUSED", () => {
    expect(withBad(change(h("fifo"), ABSENT, EntryState.create({ kind: EntryKind.ENTRY_KIND_SPECIAL, mode: 0o600 })))).toBe("REFUSED");
    expect(withBad(change(h("what"), ABSENT, EntryState.create({ kind: EntryKind.ENTRY_KIND_UNSPECIFIED })))).toBe("REFUSED");
    expect(withBad(change(h("cap"), ABSENT, { ...file("ok\n", 0o755), xattrs: ["security.capability"] }))).toBe("REFUSED");
  });

  it("/proc, /sys, /dev and / are never committed → REFUSED (checked, never applied)", () => {
    for (const path of ["/proc/sys/kernel/hostname", "/proc", "/sys/kernel/x", "/sys", "/dev/sda", "/dev/shm/x", "/dev", "/"]) {
      expect(withBad(change(path, ABSENT, file("ok\n"))), path).toBe("REFUSED");
      expect(withBad(change(path, file("ok\n"), ABSENT)), path).toBe("REFUSED");
    }
  });

  it("a directory the manifest deletes that holds a file the run never saw → CONFLICT", () => {
    mkdirSync(h("cache", "sub"), { recursive: true });
    writeFileSync(h("cache", "seen"), "seen");
    writeFileSync(h("cache", "sub", "seen"), "seen");
    const paths = [h("cache"), h("cache", "seen"), h("cache", "sub"), h("cache", "sub", "seen")];
    const m = manifest(paths.map((p) => change(p, entryState(p), ABSENT)));
    writeFileSync(h("cache", "sub", "created-since"), "precious");
    const was = treeSnapshot(base);
    expect(codeOf(() => commit(m, blobs()))).toBe("CONFLICT");
    expect(treeSnapshot(base)).toEqual(was);
  });

  // BUG (commit.ts checkManifest, the loop after "A directory the run deleted
  // may hold only what the manifest deletes with it"): it only looks at
  // changes whose `after` is ABSENT. A directory the run *replaced* by a file
  // or a symlink is deleted just the same (applyOne: removeAt, recursively),
  // but what it holds on the host is not checked, and captureManifest records
  // only the directory itself: a file created there since the run is deleted
  // by the commit and not restored by the rollback.
  it("a directory the manifest replaces by a file, holding a file the run never saw → CONFLICT", () => {
    mkdirSync(h("conf.d"));
    const m = manifest([change(h("conf.d"), entryState(h("conf.d")), file("flat\n"))]);
    writeFileSync(h("conf.d", "created-since"), "precious");
    const code = codeOf(() => commit(m, blobs("flat\n")));
    expect(existsSync(h("conf.d", "created-since"))).toBe(true);
    expect(code).toBe("CONFLICT");
  });
});

// ---- a symlink planted on the way ----------------------------------------------------------

describe("a symlink planted at a parent path", () => {
  const KINDS: [string, (p: string) => Change][] = [
    ["create a file", (p) => change(p, ABSENT, file("planted?\n", 0o4755))],
    ["create a directory", (p) => change(p, ABSENT, dir(0o777))],
    ["create a symlink", (p) => change(p, ABSENT, link("/"))],
    ["modify a file", (p) => change(p, file("outside's file\n"), file("planted?\n", 0o4755))],
    ["chmod a file", (p) => change(p, file("outside's file\n"), file("outside's file\n", 0o4777, NOBODY, NOBODY))],
    ["delete a file", (p) => change(p, file("outside's file\n"), ABSENT)],
  ];
  for (const [what, make] of KINDS) {
    it(`${what}: the write fails with CONFLICT and nothing lands outside`, () => {
      // host/a/b/file exists as the run saw it, then host/a becomes a link to outside/a (which has b/file too)
      mkdirSync(h("a", "b"), { recursive: true });
      writeFileSync(h("a", "b", "file"), "outside's file\n");
      chmodSync(h("a", "b", "file"), 0o644);
      const m = manifest([make(h("a", "b", "file"))]);
      renameSync(h("a"), h("a.real"));
      symlinkSync(join(outside, "a"), h("a"));
      const was = treeSnapshot(base);
      expect(codeOf(() => commit(m, blobs("planted?\n", "outside's file\n")))).toBe("CONFLICT");
      expect(treeSnapshot(base)).toEqual(was);
    });
  }

  it("through the undo store too: captureManifest refuses with CONFLICT and keeps no record", () => {
    mkdirSync(h("a", "b"), { recursive: true });
    const m = manifest([change(h("a", "b", "new"), ABSENT, file("x\n"))]);
    renameSync(h("a"), h("a.real"));
    symlinkSync(join(outside, "a"), h("a"));
    const store = new UndoStore(join(base, "undo"));
    const was = treeSnapshot(outside);
    expect(codeOf(() => store.captureManifest("req", m))).toBe("CONFLICT");
    expect(readdirSync(join(base, "undo"))).toEqual([]);
    expect(treeSnapshot(outside)).toEqual(was);
  });

  it("a link at the final name is replaced, never followed", () => {
    symlinkSync(join(outside, "target.txt"), h("name"));
    const m = manifest([change(h("name"), entryState(h("name")), file("mine\n", 0o600))]);
    const was = treeSnapshot(outside);
    commit(m, blobs("mine\n"));
    expect(entryState(h("name"))).toEqual(file("mine\n", 0o600));
    expect(treeSnapshot(outside)).toEqual(was);
  });
});

// ---- end to end: capture, commit, roll back ---------------------------------------------------

describe("captureManifest + applyManifest + rollback", () => {
  /** The manifest of every difference between `host` (before) and `mirror` (after), and the blobs it needs. */
  function diff(mirror: string): { m: Manifest; b: Map<string, Uint8Array> } {
    const rels = new Set<string>();
    const walk = (root: string, rel: string) => {
      for (const n of readdirSync(join(root, rel))) {
        const r = rel ? `${rel}/${n}` : n;
        rels.add(r);
        const st = lstatSync(join(root, r));
        if (st.isDirectory() && !st.isSymbolicLink()) walk(root, r);
      }
    };
    walk(host, "");
    walk(mirror, "");
    const changes: Change[] = [];
    const b = new Map<string, Uint8Array>();
    for (const r of [...rels].sort()) {
      const before = entryState(join(host, r));
      const after = entryState(join(mirror, r));
      if (Buffer.from(EntryState.encode(before).finish()).equals(Buffer.from(EntryState.encode(after).finish()))) continue;
      changes.push(change(join(host, r), before, after));
      if (after.kind === EntryKind.ENTRY_KIND_FILE) b.set(after.sha256.toString("hex"), readFileSync(join(mirror, r)));
    }
    return { m: manifest(changes), b };
  }

  function beforeTree(): void {
    mkdirSync(h("etc", "app", "conf.d"), { recursive: true });
    writeFileSync(h("etc", "app", "main.conf"), "listen 80\n");
    chownSync(h("etc", "app", "main.conf"), NOBODY, NOBODY);
    chmodSync(h("etc", "app", "main.conf"), 0o640);
    writeFileSync(h("etc", "app", "conf.d", "a.conf"), "a\n");
    writeFileSync(h("etc", "app", "conf.d", "b.conf"), "b\n");
    writeFileSync(h("etc", "app", "perms-only"), "same bytes\n");
    chmodSync(h("etc", "app", "perms-only"), 0o644);
    mkdirSync(h("var", "old-cache", "deep"), { recursive: true });
    writeFileSync(h("var", "old-cache", "deep", "blob"), Buffer.alloc(4096, 1));
    writeFileSync(h("var", "becomes-dir"), "file\n");
    // (empty: rolling back a non-empty directory replaced by a file is the BUG below)
    mkdirSync(h("var", "becomes-file"));
    chmodSync(h("var", "becomes-file"), 0o700);
    symlinkSync("app/main.conf", h("etc", "current"));
    lchownSync(h("etc", "current"), NOBODY, 0);
    mkdirSync(h("opt"), { mode: 0o755 });
    chmodSync(h("opt"), 0o755);
  }

  function runInMirror(mirror: string): void {
    writeFileSync(join(mirror, "etc", "app", "main.conf"), "listen 8080\nworkers 4\n");
    rmSync(join(mirror, "etc", "app", "conf.d", "a.conf"));
    writeFileSync(join(mirror, "etc", "app", "conf.d", "c.conf"), "c\n");
    chmodSync(join(mirror, "etc", "app", "conf.d", "c.conf"), 0o600);
    chmodSync(join(mirror, "etc", "app", "perms-only"), 0o4755);
    chownSync(join(mirror, "etc", "app", "perms-only"), NOBODY, NOBODY);
    chmodSync(join(mirror, "etc", "app", "perms-only"), 0o4755);
    rmSync(join(mirror, "var", "old-cache"), { recursive: true });
    rmSync(join(mirror, "var", "becomes-dir"));
    // (empty: children under a file that becomes a directory are the BUG below)
    mkdirSync(join(mirror, "var", "becomes-dir"));
    chmodSync(join(mirror, "var", "becomes-dir"), 0o750);
    rmSync(join(mirror, "var", "becomes-file"), { recursive: true });
    writeFileSync(join(mirror, "var", "becomes-file"), "flat\n");
    rmSync(join(mirror, "etc", "current"));
    symlinkSync("app/conf.d", join(mirror, "etc", "current"));
    mkdirSync(join(mirror, "opt", "tool", "bin"), { recursive: true });
    chmodSync(join(mirror, "opt", "tool"), 0o2755);
    writeFileSync(join(mirror, "opt", "tool", "bin", "run"), "#!/bin/sh\n");
    chmodSync(join(mirror, "opt", "tool", "bin", "run"), 0o4711);
    symlinkSync("bin/run", join(mirror, "opt", "tool", "run"));
  }

  it("commits exactly the mirror's state, then rolls back to the exact before state", () => {
    beforeTree();
    const mirror = join(base, "mirror");
    cpSync(host, mirror, { recursive: true, preserveTimestamps: true, verbatimSymlinks: true });
    // cpSync keeps modes but not owners: copy those by hand
    const own = (rel: string) => {
      const st = lstatSync(join(host, rel));
      lchownSync(join(mirror, rel), st.uid, st.gid);
      if (!st.isSymbolicLink()) chmodSync(join(mirror, rel), st.mode & 0o7777);
    };
    for (const rel of Object.keys(treeSnapshot(host, false))) own(rel);
    expect(treeSnapshot(mirror, false)).toEqual(treeSnapshot(host, false));
    runInMirror(mirror);

    const { m, b } = diff(mirror);
    expect(m.changes.length).toBeGreaterThan(12);
    const before = treeSnapshot(host, false);
    const perms = lstatSync(h("etc", "app", "perms-only")).ino;
    const outsideWas = treeSnapshot(outside);

    const store = new UndoStore(join(base, "undo"));
    checkManifest(m, b);
    const id = store.captureManifest("req", m);
    expect(applyManifest(m, b)).toBe(m.changes.length);
    expect(treeSnapshot(host, false)).toEqual(treeSnapshot(mirror, false));
    expect(lstatSync(h("etc", "app", "perms-only")).ino).toBe(perms);

    // a second commit of the same manifest no longer matches the host
    const again = new UndoStore(join(base, "undo2"));
    expect(codeOf(() => again.captureManifest("req", m))).toBe("CONFLICT");

    const result = store.rollback(id);
    expect(result.failed).toEqual([]);
    expect(treeSnapshot(host, false)).toEqual(before);
    expect(treeSnapshot(outside)).toEqual(outsideWas);
    expect(codeOf(() => store.rollback(id))).toBe("BAD_REQUEST");
  });

  // BUG (undo.ts captureManifest, the catch around withParent): a path the
  // run created under a *file* it turned into a directory (before ABSENT,
  // its parent a regular file on the host) makes withParent fail with
  // UnsafePath (ENOTDIR), which is only forgiven for ENOENT: the capture
  // reports CONFLICT although the host is exactly what the judges saw, so
  // `rm f; mkdir -p f/sub; touch f/sub/x` can never be committed (fails
  // safe: nothing is written). The same for a symlink turned into a directory.
  it("a file the run turned into a directory with contents can be committed", () => {
    writeFileSync(h("was-file"), "file\n");
    const m = manifest([
      change(h("was-file"), entryState(h("was-file")), dir(0o755)),
      change(h("was-file", "sub"), ABSENT, dir(0o755)),
      change(h("was-file", "sub", "new"), ABSENT, file("new\n")),
    ]);
    const b = blobs("new\n");
    const store = new UndoStore(join(base, "undo"));
    checkManifest(m, b);
    const id = store.captureManifest("req", m);
    applyManifest(m, b);
    expect(readFileSync(h("was-file", "sub", "new"), "utf8")).toBe("new\n");
    store.rollback(id);
    expect(readFileSync(h("was-file"), "utf8")).toBe("file\n");
  });

  // BUG (undo.ts rollback, the pre-check "Every parent must still be a plain
  // directory"): a commit that replaced a non-empty directory by a file (or a
  // symlink) recorded the directory and its children; after the commit the
  // children's parent is that file, so the pre-check refuses the whole
  // rollback with CONFLICT — although restoring parents first would put the
  // directory back before any child is written. Such a commit can never be
  // rolled back, and when its apply fails part-way (or the executor crashes
  // mid-commit) main.ts's rollback throws: no commit-failed entry is
  // journaled, and prepare() hits the same CONFLICT at every start.
  it("a commit that replaced a non-empty directory by a file rolls back", () => {
    mkdirSync(h("conf.d"));
    writeFileSync(h("conf.d", "a.conf"), "a\n");
    const before = treeSnapshot(host, false);
    const m = manifest([
      change(h("conf.d"), entryState(h("conf.d")), file("flat\n")),
      change(h("conf.d", "a.conf"), entryState(h("conf.d", "a.conf")), ABSENT),
    ]);
    const b = blobs("flat\n");
    const store = new UndoStore(join(base, "undo"));
    checkManifest(m, b);
    const id = store.captureManifest("req", m);
    applyManifest(m, b);
    expect(readFileSync(h("conf.d"), "utf8")).toBe("flat\n");
    store.rollback(id);
    expect(treeSnapshot(host, false)).toEqual(before);
  });

  it("a commit that fails part-way is undone by its record (what main.ts does on an apply error)", () => {
    mkdirSync(h("a", "b"), { recursive: true });
    writeFileSync(h("a", "b", "f"), "before\n");
    writeFileSync(h("z-last"), "before\n");
    const m = manifest([
      change(h("a", "b", "f"), entryState(h("a", "b", "f")), file("after\n")),
      change(h("new"), ABSENT, file("after\n")),
      change(h("z-last"), entryState(h("z-last")), file("after\n", 0o600)),
    ]);
    const b = blobs("after\n");
    const before = treeSnapshot(host, false);
    const store = new UndoStore(join(base, "undo"));
    checkManifest(m, b);
    const id = store.captureManifest("req", m);
    // between the capture and the write of a/b/f (the deepest, written last), a/b becomes a link
    renameSync(h("a"), h("a.real"));
    mkdirSync(h("a"));
    symlinkSync(join(outside, "a", "b"), h("a", "b"));
    const outsideWas = treeSnapshot(outside);
    expect(codeOf(() => applyManifest(m, b))).toBe("CONFLICT");
    expect(treeSnapshot(outside)).toEqual(outsideWas);
    // put the directory back, then roll back what was written
    rmSync(h("a"), { recursive: true });
    renameSync(h("a.real"), h("a"));
    const result = store.rollback(id);
    expect(result.failed).toEqual([]);
    expect(treeSnapshot(host, false)).toEqual(before);
    expect(existsSync(h("new"))).toBe(false);
  });
});
