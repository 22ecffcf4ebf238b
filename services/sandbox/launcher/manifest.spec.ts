// buildManifest against real overlayfs upper layers: each test builds a
// lower tree in a temp dir, runs a script through a real overlay mounted in
// a private mount namespace (unshare --mount; nothing reaches the host's
// mount table), then reads the upper layer exactly as the launcher does.
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Change, EntryKind, Manifest } from "../../../proto/gen/agent_sudo/v1/manifest_pb.js";
import { EnvelopeServer } from "../../shared/envelope/server.js";
import { type BuiltManifest, buildManifest, type ManifestOptions } from "./manifest.js";
import { readXattrsOf, warmXattrReader } from "./xattrs.js";
import { missing, named } from "../../../test/support/needs.js";

const canOverlay =
  process.getuid?.() === 0 &&
  readFileSync("/proc/filesystems", "utf8").includes("\toverlay") &&
  spawnSync("unshare", ["--version"]).status === 0;
const noSetfattr = missing("setfattr");
const hasSetfattr = noSetfattr === undefined;

const { ABSENT, FILE, DIR, SYMLINK, SPECIAL } = {
  ABSENT: EntryKind.ENTRY_KIND_ABSENT,
  FILE: EntryKind.ENTRY_KIND_FILE,
  DIR: EntryKind.ENTRY_KIND_DIR,
  SYMLINK: EntryKind.ENTRY_KIND_SYMLINK,
  SPECIAL: EntryKind.ENTRY_KIND_SPECIAL,
};

const sha = (s: string | Buffer) => createHash("sha256").update(s).digest();

describe.skipIf(!canOverlay)("buildManifest on a real overlay", () => {
  // xattrs as the sandbox reads them: by a warm envelope server.
  let server: EnvelopeServer | undefined;
  afterAll(() => server?.close());
  let dir: string;
  let lower: string;
  let upper: string;

  /** Prepares the host side (the lower layer), without an overlay. */
  const host = (script: string) => execFileSync("sh", ["-ec", script], { cwd: lower, stdio: "pipe" });
  /** Runs `script` in the merged view, as a trial would. */
  const trial = (script: string, options = "") => {
    const mount = `mount -t overlay -o "${options}lowerdir=$1,upperdir=$2,workdir=$3" agent-sudo-test "$4"; cd "$4"; eval "$5"`;
    execFileSync(
      "unshare",
      ["--mount", "--propagation", "private", "sh", "-ec", mount, "sh", lower, upper, join(dir, "work"), join(dir, "merged"), script],
      { stdio: "pipe" },
    );
  };
  const build = (over: Partial<ManifestOptions> = {}): Promise<BuiltManifest> => {
    server ??= EnvelopeServer.start((why) => {
      throw new Error(`envelope server ${why}`);
    });
    const readXattrs = warmXattrReader(server);
    return buildManifest([{ target: "/", lower, upper }], {
      requestId: "r1",
      commandDigest: Buffer.alloc(32, 7),
      host: "primary",
      maxPaths: 1000,
      maxBlobBytes: 1 << 20,
      readXattrs,
      ...over,
    });
  };
  const ok = async (over: Partial<ManifestOptions> = {}) => {
    const r = await build(over);
    expect(r.problems).toEqual([]);
    return r;
  };
  const byPath = (r: BuiltManifest) => new Map(r.manifest.changes.map((c) => [c.path, c]));
  const get = (r: BuiltManifest, path: string): Change => {
    const c = byPath(r).get(path);
    if (!c) throw new Error(`${path} not listed; listed: ${r.manifest.changes.map((x) => x.path).join(", ")}`);
    return c;
  };
  const paths = (r: BuiltManifest) => r.manifest.changes.map((c) => c.path);

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "manifest-"));
    lower = join(dir, "lower");
    upper = join(dir, "upper");
    for (const d of [lower, upper, join(dir, "work"), join(dir, "merged")]) mkdirSync(d);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("a created file: mode, owner, size, sha256, and its content as a blob", async () => {
    trial("umask 022; printf 'hello\\n' > new; chmod 640 new; chown 1000:1001 new");
    const r = await ok();
    expect(paths(r)).toEqual(["/new"]);
    const c = get(r, "/new");
    expect(c.before?.kind).toBe(ABSENT);
    expect(c.after).toMatchObject({ kind: FILE, mode: 0o640, uid: 1000, gid: 1001, size: 6, xattrs: [] });
    expect(c.after?.sha256).toEqual(sha("hello\n"));
    expect(r.blobs.get(sha("hello\n").toString("hex"))?.toString()).toBe("hello\n");
    expect([...r.blobs.keys()]).toEqual([sha("hello\n").toString("hex")]);
    expect(r.manifest).toMatchObject({ requestId: "r1", host: "primary", commandDigest: Buffer.alloc(32, 7) });
    expect(Buffer.from(r.encoded)).toEqual(Buffer.from(Manifest.encode(r.manifest).finish()));
    expect(Manifest.decode(r.encoded)).toEqual(r.manifest);
  });

  it("a modified file: before sha256 from the host, after from the mirror", async () => {
    host("echo old > f; chmod 644 f");
    trial("echo newer > f");
    const c = get(await ok(), "/f");
    expect(c.before).toMatchObject({ kind: FILE, mode: 0o644, size: 4, sha256: sha("old\n") });
    expect(c.after).toMatchObject({ kind: FILE, mode: 0o644, size: 6, sha256: sha("newer\n") });
  });

  it("a host entry changed after the command started is a conflict, not a before-state (a file, its parent swapped for a link)", async () => {
    host("echo old > f; mkdir d; echo x > d/g; echo calm > quiet");
    await new Promise((r) => setTimeout(r, 80));
    const start = Date.now() - 25;
    trial("echo newer > f; echo y > d/g; echo changed > quiet");
    // Meanwhile, on the host: someone edits f and swaps d for a link.
    host("echo theirs > f; mv d d.real; ln -s /etc d");
    const r = await build({ changedSinceMs: start });
    expect(r.conflicts.sort()).toEqual([
      "conflict: /d changed on the host while the command ran in the mirror",
      "conflict: /f changed on the host while the command ran in the mirror",
    ]);
    expect(r.problems).toEqual(expect.arrayContaining(r.conflicts));
  });

  it("host changes made before the command ran are its before-state, not a conflict", async () => {
    host("echo old > f; mkdir d; echo x > d/g");
    host("echo theirs > f; chmod 600 d/g");
    await new Promise((r) => setTimeout(r, 80));
    const start = Date.now() - 25;
    trial("echo newer > f; echo y > d/g");
    const r = await build({ changedSinceMs: start });
    expect(r.conflicts).toEqual([]);
    expect(get(r, "/f").before?.sha256).toEqual(sha("theirs\n"));
  });

  it("a host directory that only changed its listing (someone else's file beside ours) is no conflict", async () => {
    host("mkdir d; echo x > d/mine");
    await new Promise((r) => setTimeout(r, 80));
    const start = Date.now() - 25;
    trial("echo y > d/mine");
    host("echo other > d/theirs");
    const r = await build({ changedSinceMs: start });
    // d/mine is ours and untouched on the host; d changed (its listing) but is not listed as a change.
    expect(r.conflicts).toEqual([]);
  });

  it("a deleted file (whiteout)", async () => {
    host("echo gone > f; echo stays > g");
    trial("rm f");
    const r = await ok();
    expect(paths(r)).toEqual(["/f"]);
    expect(get(r, "/f").before).toMatchObject({ kind: FILE, sha256: sha("gone\n") });
    expect(get(r, "/f").after?.kind).toBe(ABSENT);
    expect(r.blobs.size).toBe(0);
  });

  it("a deleted directory tree lists everything below it, parents first", async () => {
    host("mkdir -p d/s/t; echo a > d/a; echo b > d/s/b; ln -s /etc/passwd d/s/l; mkfifo d/p");
    trial("rm -rf d");
    const r = await ok();
    expect(paths(r)).toEqual(["/d", "/d/a", "/d/p", "/d/s", "/d/s/b", "/d/s/l", "/d/s/t"]);
    for (const c of r.manifest.changes) expect(c.after?.kind).toBe(ABSENT);
    expect(get(r, "/d/s").before?.kind).toBe(DIR);
    expect(get(r, "/d/s/b").before).toMatchObject({ kind: FILE, sha256: sha("b\n") });
    expect(get(r, "/d/s/l").before).toMatchObject({ kind: SYMLINK, target: "/etc/passwd" });
    expect(get(r, "/d/p").before?.kind).toBe(SPECIAL);
  });

  it("a replaced (opaque) directory: host entries not in the mirror are deleted, at every depth", async () => {
    host("mkdir -p r/sub; chmod 755 r r/sub; echo k > r/keep; echo g > r/gone; echo x > r/sub/x; echo y > r/sub/y");
    trial("rm -rf r; mkdir -p r/sub; chmod 755 r r/sub; echo k2 > r/keep; echo x2 > r/sub/x");
    expect(readdirSync(upper)).toEqual(["r"]);
    const r = await ok();
    // r and r/sub have the host's mode and owner: not listed.
    expect(paths(r)).toEqual(["/r/gone", "/r/keep", "/r/sub/x", "/r/sub/y"]);
    expect(get(r, "/r/gone").after?.kind).toBe(ABSENT);
    expect(get(r, "/r/sub/y").after?.kind).toBe(ABSENT);
    expect(get(r, "/r/keep").before).toMatchObject({ kind: FILE, sha256: sha("k\n") });
    expect(get(r, "/r/keep").after).toMatchObject({ kind: FILE, sha256: sha("k2\n") });
    expect(get(r, "/r/sub/x").after?.sha256).toEqual(sha("x2\n"));
  });

  it("the warm server's xattr reader and the one-shot one answer alike (overlayfs' own trusted.* xattrs, a whiteout, a missing path)", async () => {
    host("mkdir -p r/sub; echo k > r/keep; echo g > r/gone");
    trial("rm -rf r; mkdir -p r/sub; echo k2 > r/keep");
    const paths = ["r", "r/sub", "r/keep", "r/gone", "no-such-entry"].map((p) => join(upper, p));
    server ??= EnvelopeServer.start(() => undefined);
    const warm = await warmXattrReader(server)(paths);
    expect(warm).toEqual(readXattrsOf(paths));
    expect(warm[0]?.xattrs.map((x) => x.name.toString())).toContain("trusted.overlay.opaque");
    expect(warm[4]?.error).toMatch(/errno 2$/);
  });

  it("a replaced directory with a new mode is listed, without overlayfs' own xattrs", async () => {
    host("mkdir r; chmod 755 r; echo a > r/a");
    trial("rm -rf r; mkdir -m 700 r");
    const r = await ok();
    expect(paths(r)).toEqual(["/r", "/r/a"]);
    expect(get(r, "/r").before).toMatchObject({ kind: DIR, mode: 0o755, xattrs: [] });
    expect(get(r, "/r").after).toMatchObject({ kind: DIR, mode: 0o700, xattrs: [] });
  });

  it("a directory replaced by a file: the file, and every host entry that was in the directory", async () => {
    host("mkdir -p d/e; echo a > d/e/a");
    trial("rm -rf d; echo f > d");
    const r = await ok();
    expect(paths(r)).toEqual(["/d", "/d/e", "/d/e/a"]);
    expect(get(r, "/d").before?.kind).toBe(DIR);
    expect(get(r, "/d").after).toMatchObject({ kind: FILE, sha256: sha("f\n") });
    expect(get(r, "/d/e/a").after?.kind).toBe(ABSENT);
  });

  it("a created directory is listed with every entry inside it, parents first", async () => {
    trial("umask 022; mkdir -p n/a/b; echo 1 > n/a/b/c; ln -s c n/a/b/l; mkdir n/e");
    const r = await ok();
    expect(paths(r)).toEqual(["/n", "/n/a", "/n/a/b", "/n/a/b/c", "/n/a/b/l", "/n/e"]);
    for (const c of r.manifest.changes) expect(c.before?.kind).toBe(ABSENT);
    expect(get(r, "/n/a").after).toMatchObject({ kind: DIR, mode: 0o755, uid: 0, gid: 0 });
    expect(get(r, "/n/a/b/l").after).toMatchObject({ kind: SYMLINK, target: "c", mode: 0o777 });
  });

  it("chmod only is listed (same content both sides); touch only and a parent copied up are not", async () => {
    host("mkdir p; echo m > m; echo t > t; echo q > p/q; chmod 644 m t");
    trial("chmod 600 m; touch -d 2001-01-01 t; echo q2 > p/q");
    expect(readdirSync(upper).sort()).toEqual(["m", "p", "t"]);
    const r = await ok();
    expect(paths(r)).toEqual(["/m", "/p/q"]);
    const c = get(r, "/m");
    expect(c.before).toMatchObject({ kind: FILE, mode: 0o644, sha256: sha("m\n") });
    expect(c.after).toMatchObject({ kind: FILE, mode: 0o600, sha256: sha("m\n") });
    expect(r.blobs.has(sha("m\n").toString("hex"))).toBe(true);
  });

  it("chown of a file and chmod of a directory", async () => {
    host("echo o > o; mkdir dd; chmod 755 dd; echo x > dd/x");
    trial("chown 1234:5678 o; chmod 700 dd");
    const r = await ok();
    expect(paths(r)).toEqual(["/dd", "/o"]);
    expect(get(r, "/o").before).toMatchObject({ uid: 0, gid: 0 });
    expect(get(r, "/o").after).toMatchObject({ kind: FILE, uid: 1234, gid: 5678 });
    expect(get(r, "/dd").before).toMatchObject({ kind: DIR, mode: 0o755 });
    expect(get(r, "/dd").after).toMatchObject({ kind: DIR, mode: 0o700 });
  });

  it("symlinks created and changed, targets byte for byte", async () => {
    host("ln -s a ln");
    trial("ln -sfn 'b c' ln; ln -s /etc/shadow newlink");
    const r = await ok();
    expect(get(r, "/ln").before).toMatchObject({ kind: SYMLINK, target: "a" });
    expect(get(r, "/ln").after).toMatchObject({ kind: SYMLINK, target: "b c" });
    expect(get(r, "/newlink").after).toMatchObject({ kind: SYMLINK, target: "/etc/shadow" });
  });

  it("never follows a host symlink: a directory that replaced it has no host entries below it", async () => {
    host(`ln -s ${JSON.stringify(join(dir, "outside"))} sl`);
    mkdirSync(join(dir, "outside"));
    execFileSync("sh", ["-ec", "echo secret > passwd"], { cwd: join(dir, "outside") });
    trial("rm sl; mkdir sl; echo mine > sl/passwd");
    const r = await ok();
    expect(paths(r)).toEqual(["/sl", "/sl/passwd"]);
    expect(get(r, "/sl").before?.kind).toBe(SYMLINK);
    expect(get(r, "/sl/passwd").before?.kind).toBe(ABSENT);
  });

  it("set-id and sticky bits are part of the mode", async () => {
    host("echo s > s; chmod 755 s");
    trial("chmod 4755 s; mkdir -m 1777 sticky; touch g; chmod 2711 g");
    const r = await ok();
    expect(get(r, "/s").after?.mode).toBe(0o4755);
    expect(get(r, "/sticky").after?.mode).toBe(0o1777);
    expect(get(r, "/g").after?.mode).toBe(0o2711);
  });

  it("a created fifo or socket is SPECIAL, with no content", async () => {
    trial("umask 022; mkfifo ff; perl -MSocket -e 'socket(S, PF_UNIX, SOCK_STREAM, 0) or die; bind(S, pack_sockaddr_un(\"so\")) or die'");
    const r = await ok();
    expect(get(r, "/ff").after).toMatchObject({ kind: SPECIAL, mode: 0o644, size: 0, xattrs: [] });
    expect(get(r, "/ff").after?.sha256.length).toBe(0);
    expect(get(r, "/so").after).toMatchObject({ kind: SPECIAL, mode: 0o755 });
    expect(r.blobs.size).toBe(0);
  });

  it("hard links in the mirror are separate file entries sharing one blob", async () => {
    trial("echo h > h1; ln h1 h2");
    const r = await ok();
    expect(paths(r)).toEqual(["/h1", "/h2"]);
    expect(get(r, "/h2").after?.sha256).toEqual(sha("h\n"));
    expect(r.blobs.size).toBe(1);
  });

  it("a hard link to a host file not everyone may read is a problem (ln /etc/shadow /tmp/s); to a readable one, or between new files, is not", async () => {
    host("echo secret > sec; chmod 640 sec; echo pub > pub; chmod 644 pub; mkdir t");
    trial("ln sec t/s; ln pub t/p; echo n > n1; chmod 600 n1; ln n1 n2");
    const r = await build();
    expect(r.problems).toEqual(["/t/s: a hard link to the host's /sec, which not everyone may read (committed, it would be a copy of it)"]);
    trial("rm t/s");
    const clean = await ok();
    expect(paths(clean)).toEqual(["/n1", "/n2", "/t/p"]);
  });

  it("review 29: a hard link to a readable host file in a directory others may not search is a problem (/root/x 0644 in /root 0700)", async () => {
    host(
      "mkdir -p priv/in open; chmod 700 priv; chmod 755 priv/in open; echo s > priv/in/f; chmod 644 priv/in/f; echo p > open/f; chmod 644 open/f; mkdir t",
    );
    trial("ln priv/in/f t/s; ln open/f t/p");
    const r = await build();
    expect(r.problems).toEqual([
      "/t/s: a hard link to the host's /priv/in/f, which not everyone may read (committed, it would be a copy of it)",
    ]);
    trial("rm t/s");
    expect(paths(await ok())).toEqual(["/t/p"]);
  });

  it.skipIf(!hasSetfattr)(named("review 29: an xattr name with a carriage return or ESC is a problem", noSetfattr), async () => {
    trial("touch f; setfattr -n \"$(printf 'user.a\\rb')\" -v 1 f");
    expect((await build()).problems.join("; ")).toMatch(/control character/);
  });

  it("sorts by path segments: a directory right before its contents", async () => {
    trial("mkdir -p x/a; touch x/a-b x/a/b x/a.c x/aa; mkdir x/a/b0");
    expect(paths(await ok())).toEqual(["/x", "/x/a", "/x/a/b", "/x/a/b0", "/x/a-b", "/x/a.c", "/x/aa"]);
  });

  it.skipIf(!hasSetfattr)(named("xattr names, sorted, on both sides; a value change is refused", noSetfattr), async () => {
    host("echo a > lx; setfattr -n user.y -v 1 lx; echo v > vf; setfattr -n user.v -v 1 vf");
    trial("echo x > xf; setfattr -n user.x -v 1 xf; setfattr -n user.a -v 2 xf; echo more >> lx; setfattr -n user.v -v 2 vf");
    const r = await build();
    expect(get(r, "/xf").after?.xattrs).toEqual(["user.a", "user.x"]);
    expect(get(r, "/lx").before?.xattrs).toEqual(["user.y"]);
    expect(get(r, "/lx").after?.xattrs).toEqual(["user.y"]);
    expect(r.problems).toEqual(["/vf: the value of xattr user.v changed (the manifest carries names only)"]);
  });

  it.skipIf(!hasSetfattr)(named("an xattr added to an unchanged file is listed", noSetfattr), async () => {
    host("echo a > f");
    trial("setfattr -n user.new -v 1 f");
    const c = get(await ok(), "/f");
    expect(c.before?.xattrs).toEqual([]);
    expect(c.after?.xattrs).toEqual(["user.new"]);
  });

  it.skipIf(!hasSetfattr)(named("an xattr name with a newline is a problem", noSetfattr), async () => {
    trial("touch f; setfattr -n \"$(printf 'user.a\\nb')\" -v 1 f");
    expect((await build()).problems.join("; ")).toMatch(/newline/);
  });

  it("file names are never tar options", async () => {
    trial(
      "touch -- --checkpoint=1 '--checkpoint-action=exec=touch PWNED'" +
        (hasSetfattr ? "; setfattr -n user.z -v 1 -- --checkpoint=1 '--checkpoint-action=exec=touch PWNED'" : ""),
    );
    const r = await ok();
    expect(paths(r)).toEqual(["/--checkpoint-action=exec=touch PWNED", "/--checkpoint=1"]);
    for (const d of [upper, lower, process.cwd()]) expect(existsSync(join(d, "PWNED"))).toBe(false);
  });

  it("over maxPaths: a problem, and the build stops", async () => {
    trial("for i in 1 2 3 4 5; do echo $i > f$i; done");
    const r = await build({ maxPaths: 3 });
    expect(r.problems).toEqual(["diff too large: 4 paths or more (cap 3)"]);
    expect((await build({ maxPaths: 5 })).problems).toEqual([]);
  });

  it("over maxBlobBytes: a problem; identical content counts once", async () => {
    trial("head -c 100 /dev/zero > a; head -c 100 /dev/zero > b; head -c 60 /dev/zero | tr '\\0' x > c");
    expect((await build({ maxBlobBytes: 160 })).problems).toEqual([]);
    expect((await build({ maxBlobBytes: 159 })).problems).toEqual(["diff too large: 160 bytes of file content or more (cap 159)"]);
    expect((await build({ maxBlobBytes: 50 })).problems).toEqual(["diff too large: 100 bytes of file content or more (cap 50)"]);
  });

  it("a file name that is not UTF-8, or holds a newline, is a problem", async () => {
    trial("touch \"$(printf 'bad\\377name')\" \"$(printf 'two\\nlines')\" fine");
    const r = await build();
    expect(r.problems).toEqual([
      "/bad\\xffname: a path that is not UTF-8 text on one line",
      "/two\\x0alines: a path that is not UTF-8 text on one line",
    ]);
  });

  it("a name or link target holding another control character, NEL or a line separator is a problem too (as the judges refuse them)", async () => {
    trial(
      "touch \"$(printf 'cr\\rx')\" \"$(printf 'tab\\tx')\" \"$(printf 'esc\\033x')\" \"$(printf 'ls\\342\\200\\250x')\" \"$(printf 'ps\\342\\200\\251x')\" \"$(printf 'nel\\302\\205x')\" ok-é; ln -s \"$(printf '/etc/\\rx')\" lnk",
    );
    const r = await build();
    expect(r.problems).toHaveLength(7);
    expect(r.problems.filter((p) => p.includes("symlink target"))).toHaveLength(1);
    expect(r.problems.some((p) => p.startsWith("/ok-"))).toBe(false);
  });

  it("overlay metadata it cannot represent is a problem (metacopy, redirect)", async () => {
    host("echo big > f; mkdir d; echo x > d/x");
    trial("chmod 600 f; mv d d2", "metacopy=on,redirect_dir=on,");
    const p = (await build()).problems.join("; ");
    expect(p).toMatch(/\/f: overlay metadata trusted\.overlay\.metacopy/);
    expect(p).toMatch(/\/d2: overlay metadata trusted\.overlay\.redirect/);
  });

  it("paths carry the layer's target (and the default, one-shot xattr reader works)", async () => {
    host("echo a > a");
    trial("echo b > a");
    const r = await buildManifest([{ target: "/home", lower, upper }], {
      requestId: "r",
      commandDigest: Buffer.alloc(0),
      host: "h",
      maxPaths: 10,
      maxBlobBytes: 100,
    });
    expect(r.problems).toEqual([]);
    expect(paths(r)).toEqual(["/home/a"]);
  });
});
