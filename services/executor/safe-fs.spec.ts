// safe-fs.ts on real files, as root, inside one fresh temp dir: `root` is
// the tree the functions are pointed at, `outside` a sibling every planted
// symlink points to. Whatever the code does wrong, nothing but those two
// directories is ever named, and `outside` must come out byte for byte as
// it went in.
import { execFileSync, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import {
  chmodSync,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { treeSnapshot } from "../../test/support/tree-state.js";
import {
  components,
  listAt,
  lstatAt,
  openDir,
  placeAt,
  readFileAt,
  readlinkAt,
  removeAt,
  setOwnerModeAt,
  symlinkAt,
  type Placed,
  UnsafePath,
  withParent,
  writeFileAt,
  type Dir,
} from "./safe-fs.js";

const NOBODY = 65534;

let base: string;
let root: string;
let outside: string;
beforeEach(() => {
  // realpath: openDir refuses a symlink anywhere, so the temp dir itself must not be reached through one.
  base = realpathSync(mkdtempSync(join(tmpdir(), "agent-sudo-safe-fs-")));
  root = join(base, "root");
  outside = join(base, "outside");
  mkdirSync(root);
  mkdirSync(join(outside, "sub"), { recursive: true });
  writeFileSync(join(outside, "target.txt"), "outside file\n", { mode: 0o644 });
  writeFileSync(join(outside, "sub", "keep.txt"), "keep me\n", { mode: 0o600 });
  // What a write "through" a planted link would land on.
  mkdirSync(join(outside, "a", "b"), { recursive: true });
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

function withDir<T>(path: string, use: (d: Dir) => T): T {
  const d = openDir(path);
  try {
    return use(d);
  } finally {
    d.close();
  }
}

const parentOf = (path: string) => withParent(path, () => undefined);

describe("components / openDir / withParent", () => {
  it("refuse paths that are not absolute and normalised", () => {
    for (const p of ["relative/path", "", ".", "./x", `${root}/../root`, `${root}//x`, `${root}/./x`, `${root}/x/..`, `${root}\0x`]) {
      expect(() => components(p), p).toThrow(UnsafePath);
      expect(() => openDir(p), p).toThrow(UnsafePath);
      expect(() => parentOf(p), p).toThrow(UnsafePath);
    }
    expect(() => parentOf("/")).toThrow(UnsafePath);
    expect(components(`${root}/x/y`)).toEqual([...root.split("/").filter(Boolean), "x", "y"]);
  });

  it("open a plain directory chain and name what is in it through the descriptor", () => {
    mkdirSync(join(root, "a", "b"), { recursive: true });
    writeFileSync(join(root, "a", "b", "f"), "x");
    withDir(join(root, "a", "b"), (d) => {
      expect(d.path).toBe(join(root, "a", "b"));
      expect(listAt(d)).toEqual(["f"]);
      expect(lstatAt(d, "f")?.isFile()).toBe(true);
      expect(lstatAt(d, "missing")).toBeUndefined();
      for (const bad of ["", ".", "..", "x/y"]) expect(() => d.at(bad)).toThrow(UnsafePath);
    });
    withParent(join(root, "a", "b", "f"), (d, name) => {
      expect(d.path).toBe(join(root, "a", "b"));
      expect(name).toBe("f");
    });
  });

  it("refuse a symlink (to a directory outside) in any component, first to last", () => {
    mkdirSync(join(root, "x", "y", "z"), { recursive: true });
    const chain = ["x", "y", "z"];
    for (let i = 0; i < chain.length; i++) {
      const at = join(root, ...chain.slice(0, i + 1));
      renameSync(at, `${at}.real`);
      symlinkSync(outside, at);
      const deep = join(root, ...chain);
      expect(() => openDir(deep), `link at ${at}`).toThrow(UnsafePath);
      expect(() => openDir(at), `link at ${at}`).toThrow(UnsafePath);
      expect(() => parentOf(join(deep, "file")), `link at ${at}`).toThrow(UnsafePath);
      rmSync(at);
      renameSync(`${at}.real`, at);
    }
    // The final name of withParent may be a link: it is never followed.
    symlinkSync(outside, join(root, "x", "y", "z", "last"));
    withParent(join(root, "x", "y", "z", "last"), (d, name) => {
      expect(lstatAt(d, name)?.isSymbolicLink()).toBe(true);
      expect(readlinkAt(d, name)).toBe(outside);
    });
  });

  it("refuse a regular file in the way; a missing directory is an error, not a walk elsewhere", () => {
    writeFileSync(join(root, "file"), "x");
    expect(() => openDir(join(root, "file"))).toThrow(UnsafePath);
    expect(() => openDir(join(root, "file", "deeper"))).toThrow(UnsafePath);
    expect(() => openDir(join(root, "missing"))).toThrow(/ENOENT/);
  });
});

describe("writeFileAt", () => {
  it("writes content, mode (set-id bits included) and owner", () => {
    for (const [i, mode] of [0o644, 0o4755, 0o6750, 0o2711, 0o1777, 0o000].entries()) {
      const name = `f${i}`;
      const data = Buffer.from(`content ${i}\n`.repeat(i + 1));
      withDir(root, (d) => writeFileAt(d, name, data, mode, NOBODY, NOBODY));
      const st = lstatSync(join(root, name));
      expect(st.isFile()).toBe(true);
      expect(st.mode & 0o7777, mode.toString(8)).toBe(mode);
      expect([st.uid, st.gid]).toEqual([NOBODY, NOBODY]);
      expect(readFileSync(join(root, name))).toEqual(data);
    }
  });

  it("replaces a file atomically: a new inode renamed over it, the old one untouched, no temp file left", () => {
    const f = join(root, "config");
    writeFileSync(f, "old\n");
    linkSync(f, join(root, "hardlink-to-old"));
    const before = statSync(f).ino;
    withDir(root, (d) => writeFileAt(d, "config", Buffer.from("new\n"), 0o640, 0, 0));
    expect(readFileSync(f, "utf8")).toBe("new\n");
    expect(statSync(f).ino).not.toBe(before);
    expect(readFileSync(join(root, "hardlink-to-old"), "utf8")).toBe("old\n");
    expect(readdirSync(root).sort()).toEqual(["config", "hardlink-to-old"]);
  });

  it("writes a large file whole", () => {
    const data = Buffer.alloc(3 * 1024 * 1024 + 17, 0x5a);
    withDir(root, (d) => writeFileAt(d, "big", data, 0o600, 0, 0));
    expect(readFileSync(join(root, "big")).equals(data)).toBe(true);
  });

  it("replaces a symlink at the final name instead of following it", () => {
    symlinkSync(join(outside, "target.txt"), join(root, "to-file"));
    symlinkSync(join(outside, "sub"), join(root, "to-dir"));
    symlinkSync(join(outside, "does-not-exist"), join(root, "dangling"));
    const was = treeSnapshot(outside);
    withDir(root, (d) => {
      for (const name of ["to-file", "to-dir", "dangling"]) writeFileAt(d, name, Buffer.from("mine\n"), 0o4755, NOBODY, NOBODY);
    });
    for (const name of ["to-file", "to-dir", "dangling"]) {
      const st = lstatSync(join(root, name));
      expect(st.isFile(), name).toBe(true);
      expect(st.mode & 0o7777).toBe(0o4755);
      expect(readFileSync(join(root, name), "utf8")).toBe("mine\n");
    }
    expect(treeSnapshot(outside)).toEqual(was);
    expect(existsSync(join(outside, "does-not-exist"))).toBe(false);
  });
});

describe("symlinkAt, placeAt (a directory), setOwnerModeAt", () => {
  it("symlinkAt makes a link with its owner, and replaces a link or a file without following it", () => {
    symlinkSync(join(outside, "target.txt"), join(root, "old-link"));
    writeFileSync(join(root, "old-file"), "x");
    const was = treeSnapshot(outside);
    withDir(root, (d) => {
      symlinkAt(d, "new", "relative/target", NOBODY, NOBODY);
      symlinkAt(d, "old-link", join(outside, "sub"), NOBODY, 0);
      symlinkAt(d, "old-file", "../elsewhere", 0, NOBODY);
    });
    expect(readlinkSync(join(root, "new"))).toBe("relative/target");
    expect([lstatSync(join(root, "new")).uid, lstatSync(join(root, "new")).gid]).toEqual([NOBODY, NOBODY]);
    expect(readlinkSync(join(root, "old-link"))).toBe(join(outside, "sub"));
    expect([lstatSync(join(root, "old-link")).uid, lstatSync(join(root, "old-link")).gid]).toEqual([NOBODY, 0]);
    expect(readlinkSync(join(root, "old-file"))).toBe("../elsewhere");
    expect(treeSnapshot(outside)).toEqual(was);
    expect(readdirSync(root).sort()).toEqual(["new", "old-file", "old-link"]);
  });

  it("placeAt creates a directory with its mode (setgid, sticky) and owner, and replaces a link at the name without following it", () => {
    const dir = (mode: number, uid: number): Placed => ({ kind: "dir", mode, uid, gid: uid });
    withDir(root, (d) => {
      placeAt(d, "shared", dir(0o2775, NOBODY));
      placeAt(d, "tmp", dir(0o1777, 0));
    });
    const st = lstatSync(join(root, "shared"));
    expect(st.isDirectory()).toBe(true);
    expect(st.mode & 0o7777).toBe(0o2775);
    expect([st.uid, st.gid]).toEqual([NOBODY, NOBODY]);
    expect(lstatSync(join(root, "tmp")).mode & 0o7777).toBe(0o1777);
    symlinkSync(outside, join(root, "link"));
    symlinkSync(join(outside, "does-not-exist"), join(root, "dangling"));
    const was = treeSnapshot(outside);
    const ino = lstatSync(join(root, "shared")).ino;
    withDir(root, (d) => {
      placeAt(d, "shared", dir(0o755, 0));
      placeAt(d, "link", dir(0o777, NOBODY));
      placeAt(d, "dangling", dir(0o777, NOBODY));
    });
    expect(lstatSync(join(root, "shared"))).toMatchObject({ ino, mode: 0o40755, uid: 0 });
    for (const name of ["link", "dangling"]) expect(lstatSync(join(root, name))).toMatchObject({ mode: 0o40777, uid: NOBODY });
    expect(treeSnapshot(outside)).toEqual(was);
    expect(existsSync(join(outside, "does-not-exist"))).toBe(false);
  });

  it("setOwnerModeAt sets owner and mode of a file and a directory (set-id bits survive the chown)", () => {
    writeFileSync(join(root, "f"), "content");
    mkdirSync(join(root, "d"));
    const ino = statSync(join(root, "f")).ino;
    withDir(root, (d) => {
      setOwnerModeAt(d, "f", 0o4711, NOBODY, NOBODY);
      setOwnerModeAt(d, "d", 0o2750, NOBODY, 0);
    });
    const f = lstatSync(join(root, "f"));
    expect([f.mode & 0o7777, f.uid, f.gid, f.ino]).toEqual([0o4711, NOBODY, NOBODY, ino]);
    expect(readFileSync(join(root, "f"), "utf8")).toBe("content");
    const dir = lstatSync(join(root, "d"));
    expect([dir.mode & 0o7777, dir.uid, dir.gid]).toEqual([0o2750, NOBODY, 0]);
  });

  it("setOwnerModeAt refuses a symlink (its target untouched) and a fifo (without hanging)", () => {
    symlinkSync(join(outside, "target.txt"), join(root, "link"));
    execFileSync("mkfifo", ["-m", "0600", join(root, "fifo")]);
    const was = treeSnapshot(outside);
    const fifoWas = lstatSync(join(root, "fifo"));
    withDir(root, (d) => {
      expect(() => setOwnerModeAt(d, "link", 0o4777, NOBODY, NOBODY)).toThrow(/ELOOP/);
      expect(() => setOwnerModeAt(d, "fifo", 0o4777, NOBODY, NOBODY)).toThrow(UnsafePath);
    });
    expect(treeSnapshot(outside)).toEqual(was);
    const fifo = lstatSync(join(root, "fifo"));
    expect(fifo.isFIFO()).toBe(true);
    expect([fifo.mode, fifo.uid, fifo.gid]).toEqual([fifoWas.mode, fifoWas.uid, fifoWas.gid]);
  });
});

describe("setOwnerModeAt and hard links (review 21)", () => {
  it("refuses a file with other hard links: a masked secret linked elsewhere keeps its owner and mode", () => {
    writeFileSync(join(outside, "secret"), "s", { mode: 0o600 });
    linkSync(join(outside, "secret"), join(root, "alias"));
    const was = lstatSync(join(outside, "secret"));
    withDir(root, (d) => {
      expect(() => setOwnerModeAt(d, "alias", 0o644, NOBODY, NOBODY)).toThrow(/hard links/);
    });
    const now = lstatSync(join(outside, "secret"));
    expect([now.mode, now.uid, now.gid]).toEqual([was.mode, was.uid, was.gid]);
  });
});

describe("removeAt", () => {
  it("removes a tree but never follows a symlink inside it", () => {
    const tree = join(root, "tree");
    mkdirSync(join(tree, "a", "b", "c"), { recursive: true });
    writeFileSync(join(tree, "a", "f1"), "1");
    writeFileSync(join(tree, "a", "b", "c", "f2"), "2");
    chmodSync(join(tree, "a", "b"), 0o000); // root removes it anyway
    symlinkSync(outside, join(tree, "a", "to-outside"));
    symlinkSync(join(outside, "sub"), join(tree, "a", "b", "c", "to-sub"));
    symlinkSync(join(outside, "target.txt"), join(tree, "to-file"));
    execFileSync("mkfifo", [join(tree, "a", "fifo")]);
    const was = treeSnapshot(outside);
    withDir(root, (d) => removeAt(d, "tree"));
    expect(existsSync(tree)).toBe(false);
    expect(readdirSync(root)).toEqual([]);
    expect(treeSnapshot(outside)).toEqual(was);
    expect(readFileSync(join(outside, "sub", "keep.txt"), "utf8")).toBe("keep me\n");
  });

  it("removes a link to a directory as a link, and a missing name is a no-op", () => {
    symlinkSync(join(outside, "sub"), join(root, "link"));
    const was = treeSnapshot(outside);
    withDir(root, (d) => {
      removeAt(d, "link");
      removeAt(d, "never-there");
    });
    expect(existsSync(join(root, "link"))).toBe(false);
    expect(treeSnapshot(outside)).toEqual(was);
  });
});

describe("readFileAt", () => {
  it("reads a regular file with its sha256 and stat", () => {
    writeFileSync(join(root, "f"), "hello\n", { mode: 0o640 });
    const r = withDir(root, (d) => readFileAt(d, "f", 1024));
    expect(r.data.toString()).toBe("hello\n");
    expect(r.sha256.toString("hex")).toBe(createHash("sha256").update("hello\n").digest("hex"));
    expect(r.st.mode & 0o7777).toBe(0o640);
  });

  it("refuses a symlink, a fifo (without hanging: nobody writes to it), a directory and a file over the cap", () => {
    symlinkSync(join(outside, "target.txt"), join(root, "link"));
    execFileSync("mkfifo", [join(root, "fifo")]);
    mkdirSync(join(root, "dir"));
    writeFileSync(join(root, "big"), Buffer.alloc(2048));
    withDir(root, (d) => {
      expect(() => readFileAt(d, "link", 1024)).toThrow(/ELOOP/);
      const t0 = Date.now();
      expect(() => readFileAt(d, "fifo", 1024)).toThrow(UnsafePath);
      expect(Date.now() - t0).toBeLessThan(2000);
      expect(() => readFileAt(d, "dir", 1024)).toThrow(UnsafePath);
      expect(() => readFileAt(d, "big", 1024)).toThrow(UnsafePath);
      expect(readFileAt(d, "big", 2048).data.length).toBe(2048);
    });
  });
});

describe("a parent swapped for a symlink", () => {
  it("between two operations: the second fails and nothing lands outside", () => {
    mkdirSync(join(root, "a", "b"), { recursive: true });
    const target = join(root, "a", "b", "file");
    withParent(target, (d, name) => writeFileAt(d, name, Buffer.from("first\n"), 0o644, 0, 0));
    // swap root/a for a link to outside (which has a/b too)
    renameSync(join(root, "a"), join(root, "a.real"));
    symlinkSync(join(outside, "a"), join(root, "a"));
    const was = treeSnapshot(outside);
    expect(() => withParent(target, (d, name) => writeFileAt(d, name, Buffer.from("second\n"), 0o4755, 0, 0))).toThrow(UnsafePath);
    expect(() => withParent(join(root, "a", "b", "new"), (d, name) => symlinkAt(d, name, "/", 0, 0))).toThrow(UnsafePath);
    expect(() => withParent(join(root, "a"), (d, name) => removeAt(d, name))).not.toThrow(); // the link itself, not its target
    expect(treeSnapshot(outside)).toEqual(was);
    expect(readFileSync(join(root, "a.real", "b", "file"), "utf8")).toBe("first\n");
  });

  it("while a directory is held open: writes go to the directory that was opened, never to the link's target", () => {
    mkdirSync(join(root, "a", "b"), { recursive: true });
    const held = openDir(join(root, "a", "b"));
    try {
      renameSync(join(root, "a"), join(root, "a.real"));
      symlinkSync(join(outside, "a"), join(root, "a"));
      const was = treeSnapshot(outside);
      writeFileAt(held, "file", Buffer.from("x\n"), 0o644, 0, 0);
      placeAt(held, "sub", { kind: "dir", mode: 0o755, uid: 0, gid: 0 });
      expect(treeSnapshot(outside)).toEqual(was);
      expect(readFileSync(join(root, "a.real", "b", "file"), "utf8")).toBe("x\n");
      expect(statSync(join(root, "a.real", "b", "sub")).isDirectory()).toBe(true);
    } finally {
      held.close();
    }
  });

  it("swapped back and forth by another process while we write: every write lands in the real directory", async () => {
    mkdirSync(join(root, "a", "b"), { recursive: true });
    symlinkSync(join(outside, "a"), join(root, "a.link"));
    const was = treeSnapshot(outside);
    // Swaps root/a between the real directory and a link to outside, as fast as it can.
    const swapper = spawn(
      process.execPath,
      [
        "-e",
        `const fs = require("node:fs");
         const [a, real, link] = process.argv.slice(1);
         process.stdout.write("ready\\n");
         for (;;) { try { fs.renameSync(a, real); fs.renameSync(link, a); fs.renameSync(a, link); fs.renameSync(real, a); } catch {} }`,
        join(root, "a"),
        join(root, "a.real"),
        join(root, "a.link"),
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    try {
      await new Promise<void>((resolve) => swapper.stdout.once("data", () => resolve()));
      let written = 0;
      let refused = 0;
      const t0 = Date.now();
      for (let i = 0; Date.now() - t0 < 1500; i++) {
        try {
          withParent(join(root, "a", "b", `f${i}`), (d, name) => writeFileAt(d, name, Buffer.from(`${i}\n`), 0o644, 0, 0));
          written++;
        } catch (err) {
          if (!(err instanceof UnsafePath) && (err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
          refused++;
        }
        if (i % 50 === 0) await new Promise((r) => setImmediate(r));
      }
      expect(written + refused).toBeGreaterThan(100);
      expect(refused).toBeGreaterThan(0);
      swapper.kill("SIGKILL");
      await new Promise((r) => swapper.once("exit", r));
      // Put the real directory back at root/a if the swapper stopped midway.
      const realAt = [join(root, "a"), join(root, "a.real"), join(root, "a.link")].find((p) =>
        lstatSync(p, { throwIfNoEntry: false })?.isDirectory(),
      );
      expect(realAt).toBeDefined();
      expect(treeSnapshot(outside)).toEqual(was);
      expect(readdirSync(join(realAt as string, "b")).length).toBe(written);
    } finally {
      if (swapper.exitCode === null && swapper.signalCode === null) swapper.kill("SIGKILL");
    }
  });
});

describe("placeAt", () => {
  it("keeps a file's bytes when told to (owner and mode only); refuses, removing nothing, where that file is no longer a file", () => {
    writeFileSync(join(root, "f"), "kept\n", { mode: 0o600 });
    mkdirSync(join(root, "d"));
    writeFileSync(join(root, "d", "inside"), "x");
    withDir(root, (d) => {
      placeAt(d, "f", { kind: "file", mode: 0o640, uid: NOBODY, gid: NOBODY, content: undefined });
      expect(() => placeAt(d, "d", { kind: "file", mode: 0o640, uid: 0, gid: 0, content: undefined })).toThrow(UnsafePath);
      expect(() => placeAt(d, "gone", { kind: "file", mode: 0o640, uid: 0, gid: 0, content: undefined })).toThrow(UnsafePath);
    });
    expect(readFileSync(join(root, "f"), "utf8")).toBe("kept\n");
    expect(lstatSync(join(root, "f"))).toMatchObject({ mode: 0o100640, uid: NOBODY });
    expect(readFileSync(join(root, "d", "inside"), "utf8")).toBe("x");
  });

  it("replaces a directory in the way by a file or a link, and keeps a directory it is told to be", () => {
    mkdirSync(join(root, "d1"));
    writeFileSync(join(root, "d1", "x"), "x");
    mkdirSync(join(root, "d2"));
    mkdirSync(join(root, "d3"));
    withDir(root, (d) => {
      placeAt(d, "d1", { kind: "file", mode: 0o644, uid: 0, gid: 0, content: () => Buffer.from("now a file\n") });
      placeAt(d, "d2", { kind: "symlink", target: "/etc", uid: 0, gid: 0 });
      placeAt(d, "d3", { kind: "dir", mode: 0o700, uid: NOBODY, gid: NOBODY });
    });
    expect(readFileSync(join(root, "d1"), "utf8")).toBe("now a file\n");
    expect(readlinkSync(join(root, "d2"))).toBe("/etc");
    expect(lstatSync(join(root, "d3"))).toMatchObject({ mode: 0o40700, uid: NOBODY });
  });
});
