// diff.ts against real overlayfs upper layers (a private mount namespace,
// temp dirs only): the touched-path list, the opaque flag, and readXattrs.
import { execFileSync, spawnSync } from "node:child_process";
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { diffLayers, readXattrs } from "./diff.js";
import { missing, named } from "../../../test/support/needs.js";

const canOverlay =
  process.getuid?.() === 0 &&
  readFileSync("/proc/filesystems", "utf8").includes("\toverlay") &&
  spawnSync("unshare", ["--version"]).status === 0;
const noSetfattr = missing("setfattr");
const hasSetfattr = noSetfattr === undefined;

describe.skipIf(!canOverlay)("diff.ts on a real overlay", () => {
  let dir: string;
  let lower: string;
  let upper: string;
  const host = (script: string) => execFileSync("sh", ["-ec", script], { cwd: lower, stdio: "pipe" });
  const trial = (script: string) => {
    const mount = `mount -t overlay -o "lowerdir=$1,upperdir=$2,workdir=$3" agent-sudo-test "$4"; cd "$4"; eval "$5"`;
    execFileSync(
      "unshare",
      ["--mount", "--propagation", "private", "sh", "-ec", mount, "sh", lower, upper, join(dir, "work"), join(dir, "merged"), script],
      { stdio: "pipe" },
    );
  };
  const entries = (root: string, rels: string[]) => rels.map((rel) => ({ rel, st: lstatSync(join(root, rel)) }));

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "diff-"));
    lower = join(dir, "lower");
    upper = join(dir, "upper");
    for (const d of [lower, upper, join(dir, "work"), join(dir, "merged")]) mkdirSync(d);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("diffLayers: created, modified, deleted, and the entries an opaque directory hides", () => {
    host("echo a > a; echo b > b; mkdir r; echo x > r/x; echo y > r/y");
    trial("echo c > c; echo a2 > a; rm b; rm -rf r; mkdir r; echo x2 > r/x");
    expect(diffLayers([{ target: "/t", lower, upper }], 100)).toEqual({
      changes: [
        { path: "/t/a", kind: "modified" },
        { path: "/t/b", kind: "deleted" },
        { path: "/t/c", kind: "created" },
        { path: "/t/r/x", kind: "modified" },
        { path: "/t/r/y", kind: "deleted" },
      ],
      truncated: false,
    });
  });

  it("readXattrs reads the opaque flag overlayfs sets on a recreated directory", () => {
    host("mkdir r; echo x > r/x");
    trial("rm -rf r; mkdir r");
    const r = readXattrs(upper, entries(upper, ["r"]), (rel) => `/${rel}`);
    expect(r.problems).toEqual([]);
    expect(r.xattrs.get("r")?.get("trusted.overlay.opaque")?.toString()).toBe("y");
  });

  it.skipIf(!hasSetfattr)(
    named("readXattrs: names and values of every kind of entry, file content read only when needed", noSetfattr),
    () => {
      host(
        "echo f > f; setfattr -n user.b -v 1 f; setfattr -n 'user.a=%x' -v 'two=2' f; mkdir d; setfattr -n user.d -v '' d; ln -s f l; mkfifo p; echo plain > plain; truncate -s 100G sparse; " +
          "perl -MSocket -e 'socket(S, PF_UNIX, SOCK_STREAM, 0) or die; bind(S, pack_sockaddr_un(\"s\")) or die'",
      );
      const r = readXattrs(lower, entries(lower, ["f", "d", "l", "p", "plain", "sparse", "s"]), (rel) => `/${rel}`);
      expect(r.problems).toEqual([]);
      expect(r.xattrs.get("f")).toEqual(
        new Map([
          ["user.b", Buffer.from("1")],
          ["user.a=%x", Buffer.from("two=2")],
        ]),
      );
      expect(r.xattrs.get("d")).toEqual(new Map([["user.d", Buffer.alloc(0)]]));
      // A 100 GiB file without xattrs: listed, never read.
      for (const rel of ["l", "p", "plain", "sparse"]) expect(r.xattrs.get(rel)).toEqual(new Map());
      // Sockets are skipped (their names are not read).
      expect(r.xattrs.has("s")).toBe(false);
    },
  );

  it.skipIf(!hasSetfattr)(named("readXattrs: a name with a newline or not UTF-8 is a problem, never a guess", noSetfattr), () => {
    host("touch n u; setfattr -n \"$(printf 'user.a\\nb')\" -v 1 n; setfattr -n \"$(printf 'user.\\377')\" -v 1 u");
    expect(readXattrs(lower, entries(lower, ["n"]), (rel) => `/${rel}`).problems.join("; ")).toMatch(/newline/);
    expect(readXattrs(lower, entries(lower, ["u"]), (rel) => `/${rel}`).problems).toEqual([
      "/u: an xattr name that is not UTF-8 text (user.\\xff)",
    ]);
  });

  it.skipIf(!hasSetfattr)(named("readXattrs: large files with xattrs cost nothing more (no content is read)", noSetfattr), () => {
    host("for i in 1 2 3; do head -c 30000000 /dev/zero > f$i; setfattr -n user.i -v $i f$i; done");
    const r = readXattrs(lower, entries(lower, ["f1", "f2", "f3"]), (rel) => `/${rel}`);
    expect(r.problems).toEqual([]);
    expect([1, 2, 3].map((i) => r.xattrs.get(`f${i}`)?.get("user.i")?.toString())).toEqual(["1", "2", "3"]);
  });

  it("readXattrs: an entry that vanished is a problem", () => {
    host("touch gone");
    const list = entries(lower, ["gone"]);
    rmSync(join(lower, "gone"));
    expect(readXattrs(lower, list, (rel) => `/${rel}`).problems).toHaveLength(1);
  });
});
