// A script in a scratch directory (/tmp: anyone may write there) runs from
// the hook at tier 1 only when it is the workspace owner's own file, no one
// else may write it, and a link to it is the owner's too — real files owned
// by another user (nobody), made in a temporary directory.
import { chmodSync, chownSync, lchownSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { policiesDir } from "../../../test/classifier/engine-fixture.js";
import type { Engine } from "../verdict.js";
import { loadEngine } from "./index.js";

const NOBODY = 65534;
let engine: Engine;
let root = "";
let ws = "";

beforeAll(async () => {
  engine = await loadEngine(policiesDir);
  root = mkdtempSync("/tmp/agent-sudo-script-place-");
  ws = join(root, "ws");
  mkdirSync(ws);
  for (const name of ["mine.sh", "theirs.sh", "open.sh", "target.sh"]) writeFileSync(join(root, name), "echo hi\n", { mode: 0o644 });
  chownSync(join(root, "theirs.sh"), NOBODY, NOBODY);
  chmodSync(join(root, "open.sh"), 0o666);
  // A link someone else made, to the owner's own file; and the owner's link to someone else's file.
  symlinkSync(join(root, "mine.sh"), join(root, "their-link.sh"));
  lchownSync(join(root, "their-link.sh"), NOBODY, NOBODY);
  symlinkSync(join(root, "theirs.sh"), join(root, "my-link.sh"));
  symlinkSync("/etc", join(ws, "etc"));
  // A directory another user owns: a script not there yet may be put there by them first.
  mkdirSync(join(root, "theirs"));
  chownSync(join(root, "theirs"), NOBODY, NOBODY);
  // A sticky world-writable directory, as /tmp: anyone may create a name there first (review 38).
  mkdirSync(join(root, "sticky"));
  chmodSync(join(root, "sticky"), 0o1777);
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

const tier = (command: string) => engine.classify({ command, cwd: ws, host: "primary", source: "claude" }).tier;

describe("scripts the hook runs from scratch space", () => {
  it("runs the workspace owner's own file, and one the same command has yet to write", () => {
    for (const run of ["bash", "sh", "python3"]) expect(tier(`${run} ${root}/mine.sh`), run).toBe(1);
    expect(tier(`${root}/mine.sh`)).toBe(1);
    expect(tier(`bash ${root}/not-yet.sh`)).toBe(1);
  });

  it("does not run a script not there yet in a directory another user owns", () => {
    expect(tier(`bash ${root}/theirs/new.sh`)).toBe(2);
    expect(tier(`bash ${root}/theirs/sub/new.sh`)).toBe(2);
  });

  it("does not run a script not there yet in a sticky world-writable directory, unless the same line writes it first", () => {
    expect(tier(`bash ${root}/sticky/new.sh`)).toBe(2);
    expect(tier(`node --openssl-config=${root}/sticky/x.cnf x.js`)).toBe(2);
    expect(tier(`node -r ${root}/sticky/x.js app.js`)).toBe(2);
    expect(tier(`echo 'echo hi' > ${root}/sticky/new.sh && bash ${root}/sticky/new.sh`)).toBe(1);
    expect(tier(`bash ${root}/sticky/new.sh; echo 'echo hi' > ${root}/sticky/new.sh`)).toBe(2);
  });

  it("does not run another user's file, one anyone may write, or either through a link", () => {
    for (const name of ["theirs.sh", "open.sh", "their-link.sh", "my-link.sh"]) {
      expect(tier(`bash ${root}/${name}`), name).toBe(2);
      expect(tier(`${root}/${name}`), name).toBe(2);
    }
  });

  it("judges a workspace path by where its links lead", () => {
    expect(tier("./etc/profile.d/x.sh")).toBe(2);
    expect(tier("bash etc/x.sh")).toBe(2);
    expect(tier("~/x.sh")).toBe(2);
  });
});
