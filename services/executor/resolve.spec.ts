import { chmodSync, chownSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CodedError } from "../shared/errors.js";
import { resolveAs, type Viewer } from "./resolve.js";

const root = process.getuid?.() === 0;
const nobody: Viewer = { uid: 65534, gid: 65534 };
let t: string;

beforeAll(() => {
  t = realpathSync(mkdtempSync(join(tmpdir(), "resolve-")));
  chmodSync(t, 0o755);
  mkdirSync(join(t, "open", "real", "sub"), { recursive: true, mode: 0o755 });
  symlinkSync(join(t, "open", "real"), join(t, "open", "link"));
  symlinkSync("real/sub", join(t, "open", "rel"));
  symlinkSync("loop", join(t, "open", "loop"));
  writeFileSync(join(t, "open", "file"), "");
  // Root-only: nobody may search it, so nothing under it may be told.
  mkdirSync(join(t, "closed", "present"), { recursive: true });
  chmodSync(join(t, "closed"), 0o700);
  writeFileSync(join(t, "closed", "file"), "");
  symlinkSync("/", join(t, "closed", "link"));
  symlinkSync(join(t, "closed", "present"), join(t, "open", "into-closed"));
  // Searchable by its group only; and one nobody owns with only group/other x (owner bits rule).
  mkdirSync(join(t, "group", "in"), { recursive: true });
  chmodSync(join(t, "group"), 0o710);
  if (root) chownSync(join(t, "group"), 0, nobody.gid);
  mkdirSync(join(t, "owned", "in"), { recursive: true });
  chmodSync(join(t, "owned"), 0o611);
  if (root) chownSync(join(t, "owned"), nobody.uid, 0);
});

afterAll(() => rmSync(t, { recursive: true, force: true }));

function refusal(f: () => unknown): string {
  try {
    f();
  } catch (err) {
    if (err instanceof CodedError) return err.detail ?? err.code;
    throw err;
  }
  return "answered";
}

describe("Resolve walks a cwd only as far as the gateway's user could", () => {
  it("resolves links where that user can look: a cwd through a symlink is judged as its target", () => {
    expect(resolveAs(join(t, "open", "link", "sub"), nobody)).toBe(join(t, "open", "real", "sub"));
    expect(resolveAs(join(t, "open", "rel"), nobody)).toBe(join(t, "open", "real", "sub"));
    expect(resolveAs(`${t}//open/./link/sub/../sub/`, nobody)).toBe(join(t, "open", "real", "sub"));
    expect(resolveAs(join(t, "open", "link", ".."), nobody)).toBe(join(t, "open"));
    expect(resolveAs("/", nobody)).toBe("/");
    expect(refusal(() => resolveAs(join(t, "open", "missing"), nobody))).toBe("cwd does not exist");
    expect(refusal(() => resolveAs(join(t, "open", "file"), nobody))).toBe("cwd is not a directory");
    expect(refusal(() => resolveAs(join(t, "open", "file", "x"), nobody))).toBe("cwd is not a directory");
    expect(refusal(() => resolveAs(join(t, "open", "loop"), nobody))).toBe("cwd: too many symbolic links");
  });

  it.skipIf(!root)("says nothing of what lies in a directory that user cannot search: every name there answers alike", () => {
    const closed = join(t, "closed");
    for (const name of ["present", "absent", "file", "link", "link/etc", "absent/../present"])
      expect(resolveAs(join(closed, name), nobody), name).toBe(join(closed, name));
    // A link the user can read leads there; what is beyond stays as given.
    expect(resolveAs(join(t, "open", "into-closed", "x"), nobody)).toBe(join(closed, "present", "x"));
    // The directory itself is visible (its parent is searchable).
    expect(resolveAs(closed, nobody)).toBe(closed);
    // Root sees everything (an executor not run as root answers for its own user).
    expect(resolveAs(join(closed, "link", "tmp"), { uid: 0, gid: 0 })).toBe(realpathSync("/tmp"));
    expect(refusal(() => resolveAs(join(closed, "absent"), { uid: 0, gid: 0 }))).toBe("cwd does not exist");
  });

  it.skipIf(!root)("reads the mode as the kernel does: the group's bit for a member, the owner's bit for the owner", () => {
    expect(resolveAs(join(t, "group", "in"), nobody)).toBe(join(t, "group", "in"));
    expect(refusal(() => resolveAs(join(t, "group", "nope"), nobody))).toBe("cwd does not exist");
    expect(resolveAs(join(t, "group", "nope"), { uid: 65533, gid: 65533 })).toBe(join(t, "group", "nope"));
    expect(resolveAs(join(t, "owned", "nope"), nobody)).toBe(join(t, "owned", "nope"));
  });
});
