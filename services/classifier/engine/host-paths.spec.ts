// What paths name on this host: real paths, glob matches, the state dir —
// against a real tree of links in a temporary directory.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { beginCommand, expandGlob, expandWordPaths, linksIn, readScript, realParent, realPath, wordExpansions } from "./host-paths.js";
import { hostPaths, resolvePlace, secretPath, secretPlace, setStateDir } from "./paths.js";
import type { Context, Word } from "./types.js";
import { literalWord } from "./unwrap.js";

let root = "";
const w = (text: string, glob = /[*?[{]/.test(text)): Word => ({ ...literalWord(text), glob });
const ctx = (): Context => ({
  host: "primary",
  source: "claude",
  policy: "claude",
  cwd: join(root, "ws"),
  workspace: [join(root, "ws")],
  home: null,
  depth: 0,
  remote: false,
});

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "host-paths-"));
  for (const d of ["ws", "state/keys", "other"]) mkdirSync(join(root, d), { recursive: true });
  writeFileSync(join(root, "state/keys/classifier.key"), "k");
  writeFileSync(join(root, "state/database-url"), "u");
  writeFileSync(join(root, "ws/a.txt"), "a");
  writeFileSync(join(root, "ws/-rf"), "");
  writeFileSync(join(root, "ws/big.sh"), "x".repeat(70_000));
  symlinkSync("/", join(root, "ws/root"));
  symlinkSync(join(root, "state"), join(root, "ws/st"));
  symlinkSync(join(root, "other"), join(root, "ws/out"));
  setStateDir(join(root, "state"));
});

afterAll(() => {
  setStateDir("/var/lib/agent-sudo");
  rmSync(root, { recursive: true, force: true });
});

describe("host paths", () => {
  it("resolves links, and for a last component that is a link only its directory when not following", () => {
    expect(realPath(join(root, "ws/root/etc"))).toBe(realPath("/etc"));
    expect(realPath(join(root, "ws/missing"))).toBeNull();
    expect(realParent(join(root, "ws/st"))).toBe(join(realPath(join(root, "ws")) as string, "st"));
    expect(realParent(join(root, "ws/out/new.txt"))).toBe(join(realPath(join(root, "other")) as string, "new.txt"));
  });

  it("expands globs against the host, with braces, and says when it could not read", () => {
    expect(expandGlob(join(root, "state/k*/*.k?y"))?.matches).toEqual([join(root, "state/keys/classifier.key")]);
    expect(expandGlob(join(root, "nothing/*"))).toEqual({ matches: [], partial: false });
    expect(expandWordPaths("{st,x}/database-url", join(root, "ws"))?.matches).toEqual([
      join(root, "ws/st/database-url"),
      join(root, "ws/x/database-url"),
    ]);
    expect(expandWordPaths("rel/*", "")?.partial).toBe(true);
  });

  it("gives the words bash would make of a glob, relative to the cwd", () => {
    expect(wordExpansions("*", join(root, "ws"))).toContain("-rf");
    expect(wordExpansions("*.txt", join(root, "ws"))).toEqual(["a.txt"]);
    expect(wordExpansions("*.none", join(root, "ws"))).toEqual(["*.none"]);
  });

  it("reads a script of at most 64 KiB, nothing else", () => {
    expect(readScript(join(root, "ws/a.txt"))).toBe("a");
    expect(readScript(join(root, "ws/big.sh"))).toBeNull();
    expect(readScript(join(root, "ws"))).toBeNull();
    expect(readScript(join(root, "ws/missing"))).toBeNull();
  });

  it("judges a place by its text and by what it names here", () => {
    expect(secretPlace(resolvePlace(w("root/etc/shadow"), ctx()))).toBe(true);
    expect(secretPlace(resolvePlace(w("st/database-url"), ctx()))).toBe(true);
    expect(secretPlace(resolvePlace(w(join(root, "sta?e/k*/*")), ctx()))).toBe(true);
    expect(secretPlace(resolvePlace(w("a.txt"), ctx()))).toBe(false);
    expect(hostPaths(resolvePlace(w("st"), ctx()), false)).toEqual([]);
    expect(hostPaths(resolvePlace(w("st/"), ctx()), false)).toContain(realPath(join(root, "state")));
    expect(hostPaths(resolvePlace(w("root/etc/shadow"), { ...ctx(), remote: true }), true)).toEqual([]);
  });

  it("the state dir is secret wherever it is, and only while it is the state dir", () => {
    expect(secretPath(join(root, "state/anything"))).toBe(true);
    setStateDir(join(root, "other"));
    expect(secretPath(join(root, "state/anything"))).toBe(false);
    expect(secretPath(join(root, "other/x"))).toBe(true);
    setStateDir(join(root, "state"));
  });

  it("finds the links in a directory from its listing, resolves through them, and gives up on a directory packed with links", () => {
    beginCommand();
    const ws = join(root, "ws");
    expect(linksIn(ws)?.sort()).toEqual([join(ws, "out"), join(ws, "root"), join(ws, "st")]);
    // After the listing, a link is resolved without its own lstat: the answer must not change.
    expect(realPath(join(ws, "root/etc"))).toBe(realPath("/etc"));
    expect(realParent(join(ws, "st/keys/x"))).toBe(join(realPath(join(root, "state/keys")) as string, "x"));
    expect(linksIn(join(root, "missing"))).toEqual([]);
    const packed = join(root, "packed");
    mkdirSync(packed);
    for (let i = 0; i < 65; i++) symlinkSync("/etc", join(packed, `l${i}`));
    beginCommand();
    expect(linksIn(packed)).toBeNull();
    rmSync(packed, { recursive: true });
    beginCommand();
  });
});
