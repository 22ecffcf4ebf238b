// As root, `agent-sudo start` refuses a checkout its service users cannot
// reach (a clone under /root, mode 0700), before touching anything: they
// drop to their own users and go on reading code, policies and the audit
// migrations from it, so the stack would half work (found on a fresh Debian:
// the audit never reached PostgreSQL, policy signatures read as missing).
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { snapshot } from "../deploy/built-tree.js";

const root = process.getuid?.() === 0;

describe.skipIf(!root)("a checkout the service users cannot reach", () => {
  let src: string;
  let scratch: string;
  // The copy's own policies (the default, beside its code): nothing inherited from this run's environment.
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("AGENT_SUDO_")));
  const start = (home: string) =>
    spawnSync(process.execPath, [join(src, "dist", "cli", "main.js"), "start"], {
      env: { ...env, AGENT_SUDO_HOME: home },
      encoding: "utf8",
      timeout: 60_000,
    });
  beforeAll(() => {
    src = snapshot(); // a copy of the built tree in a fresh temp dir: mode 0700, as /root is
    scratch = mkdtempSync(join(tmpdir(), "agent-sudo-unreach-"));
  });
  afterAll(() => {
    rmSync(src, { recursive: true, force: true });
    rmSync(scratch, { recursive: true, force: true });
  });

  it("start exits 1, names the directory and what to do, and creates nothing", () => {
    chmodSync(src, 0o700);
    const home = join(scratch, "home");
    const r = start(home);
    expect(r.status, r.stdout + r.stderr).toBe(1);
    expect(r.stderr).toContain(`the service users cannot reach ${src}: ${src} is mode 0700 (other users cannot enter it)`);
    expect(r.stderr).toContain("Nothing was changed");
    expect(r.stdout).not.toContain("ready");
    expect(existsSync(home)).toBe(false);
  }, 90_000);

  it("the same checkout made searchable gets past the check (control)", () => {
    chmodSync(src, 0o755);
    // A state dir that cannot be created stops it right after the check, so no stack starts.
    const blocker = join(scratch, "file");
    writeFileSync(blocker, "");
    const r = start(join(blocker, "home"));
    expect(r.status).toBe(1);
    expect(r.stderr).not.toContain("cannot reach");
    expect(r.stderr).toMatch(/ENOTDIR|not a directory/);
  }, 90_000);
});
