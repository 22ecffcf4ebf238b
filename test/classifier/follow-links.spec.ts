// A recursive read that follows symbolic links reads whatever a link under
// its tree points at: the tree is searched for links, and a tree too large
// to search counts as reaching anywhere. Real files in a temp workspace, the
// real engine over the real policies.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadEngine } from "../../services/classifier/engine/index.js";
import type { Engine } from "../../services/classifier/verdict.js";
import { policiesDir } from "./engine-fixture.js";

let engine: Engine;
let ws: string;

beforeAll(async () => {
  engine = await loadEngine(policiesDir);
  ws = mkdtempSync(join(tmpdir(), "agent-sudo-follow-"));
  mkdirSync(join(ws, "small", "a"), { recursive: true });
  writeFileSync(join(ws, "small", "a", "f.txt"), "x\n");
  // A link that stays inside the tree, and one to a harmless file outside it.
  symlinkSync(join(ws, "small", "a"), join(ws, "small", "again"));
  symlinkSync("/usr/share/common-licenses", join(ws, "small", "licenses"));
  mkdirSync(join(ws, "big"));
  for (let i = 0; i < 4100; i++) writeFileSync(join(ws, "big", `f${i}`), "");
  mkdirSync(join(ws, "deep", "x", "y"), { recursive: true });
  symlinkSync("/etc", join(ws, "deep", "x", "y", "conf"));
  // 65 harmless links in one directory: more than the classifier judges one by one for an extraction.
  mkdirSync(join(ws, "packed"));
  writeFileSync(join(ws, "packed", "x.tar"), "");
  for (let i = 0; i < 65; i++) symlinkSync("/usr/share/common-licenses", join(ws, "packed", `l${i}`));
  mkdirSync(join(ws, "few"));
  writeFileSync(join(ws, "few", "x.tar"), "");
  for (let i = 0; i < 3; i++) symlinkSync("/usr/share/common-licenses", join(ws, "few", `l${i}`));
});

afterAll(() => rmSync(ws, { recursive: true, force: true }));

const tier = (command: string, source: "claude" | "sudo" = "claude") => engine.classify({ command, cwd: ws, host: "primary", source }).tier;

describe("symlink-following recursive reads", () => {
  it("stay reads when every link under the tree stays in it or leads nowhere secret", () => {
    for (const cmd of ["grep -R x small", "rg -L x small", "find -L small -type f -exec cat {} +"]) expect(tier(cmd), cmd).toBe(0);
  });

  it("reach what a link deep in the tree points at (deep/x/y/conf -> /etc)", () => {
    for (const source of ["claude", "sudo"] as const)
      for (const cmd of ["grep -R root: deep", "find -L deep -exec cat {} +", "rg --follow root: deep", "tar -chf - deep"])
        expect(tier(cmd, source), `${source}: ${cmd}`).toBeGreaterThanOrEqual(2);
  });

  it("count a tree too large to search as reaching anywhere, and the same tree read without following as a read", () => {
    expect(tier("grep -R x big")).toBe(2);
    expect(tier("grep -r x big")).toBe(0);
  });

  it("count an extraction into a directory packed with links as not known, and one beside a few harmless links as the extraction it is", () => {
    for (const source of ["claude", "sudo"] as const) {
      const inPacked = engine.classify({ command: "tar xf x.tar", cwd: join(ws, "packed"), host: "primary", source });
      expect(inPacked.tier, `${source}: ${inPacked.reason}`).toBeGreaterThanOrEqual(2);
      if (source === "claude") expect(inPacked.reason).toMatch(/cannot be listed for links/);
    }
    expect(engine.classify({ command: "tar xf x.tar", cwd: join(ws, "few"), host: "primary", source: "claude" }).reason).not.toMatch(
      /cannot be listed/,
    );
  });
});
