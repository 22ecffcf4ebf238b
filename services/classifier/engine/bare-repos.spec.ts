// A bare repository known by what the host holds (HEAD, objects/, refs/), not
// by a `.git` suffix: its config and hooks are judged as .git's are.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Engine } from "../verdict.js";
import { loadEngine } from "./index.js";

const policies = join(import.meta.dirname, "..", "..", "..", "policies");
let engine: Engine;
let ws = "";

beforeAll(async () => {
  ws = mkdtempSync(join(tmpdir(), "bare-repos-"));
  for (const dir of ["srv/objects", "srv/refs/heads", "srv/hooks", "half/objects", "plain", "src/hooks"])
    mkdirSync(join(ws, dir), { recursive: true });
  writeFileSync(join(ws, "srv/HEAD"), "ref: refs/heads/main\n");
  writeFileSync(join(ws, "half/HEAD"), "ref: refs/heads/main\n");
  engine = await loadEngine(policies, { stateDir: join(ws, "state") });
});

afterAll(() => {
  if (ws) rmSync(ws, { recursive: true, force: true });
});

const tier = (command: string) => engine.classify({ command, cwd: ws, host: "primary", source: "claude" }).tier;

describe("bare repositories on this host", () => {
  it("judges a write of a bare repository's config or hooks as a persistence file", () => {
    expect(tier("echo '[core] fsmonitor = touch /tmp/p' >> srv/config")).toBe(3);
    expect(tier(`printf '[alias]\\n\\tx = !id\\n' > ${ws}/srv/config`)).toBe(3);
    expect(tier("cp x srv/hooks/pre-receive")).toBe(3);
    expect(tier("echo x > srv/commondir")).toBe(3);
    expect(tier("cd srv && echo '[core]' >> config")).toBe(3);
  });

  it("leaves directories that are no repository alone", () => {
    // half/ has HEAD and objects/ but no refs/: git does not take it for a repository.
    expect(tier("echo x > half/config")).toBeLessThanOrEqual(1);
    expect(tier("echo x > plain/config")).toBeLessThanOrEqual(1);
    expect(tier("echo x > src/hooks/useThing.ts")).toBeLessThanOrEqual(1);
  });

  it("counts a repository the command makes, before or after the write", () => {
    expect(tier("git init --bare made && echo '[core]' >> made/config")).toBe(3);
    expect(tier("echo '[core]' >> made2/config && git init -q --bare made2")).toBe(3);
    expect(tier("git init -q made3 && echo x >> made3/config")).toBeLessThanOrEqual(1);
  });
});
