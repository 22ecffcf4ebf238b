// Package-state undo through the whole stack with a real package: a tiny
// .deb built here with dpkg-deb (no network, no dependencies, one file under
// /usr/share/doc), installed by `/exec dpkg -i` (tier 2: trialled, then run),
// and removed again by `agent-sudo rollback` — which reverts only what that
// command changed. The package is purged in afterAll whatever happens.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliMain, startStack, type Stack } from "../support/stack.js";

const PKG = "agent-sudo-undo-test";
const canRun = process.getuid?.() === 0 && spawnSync("dpkg-deb", ["--version"]).status === 0;

function installed(name: string): boolean {
  const r = spawnSync("dpkg-query", ["-W", "-f=${db:Status-Abbrev}", name], { encoding: "utf8" });
  return r.status === 0 && r.stdout.startsWith("ii");
}

describe.skipIf(!canRun)("package undo end to end (a .deb built here)", () => {
  let stack: Stack;
  let dir: string;
  let deb: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "agent-sudo-pkg-"));
    const root = join(dir, "pkg");
    mkdirSync(join(root, "DEBIAN"), { recursive: true });
    mkdirSync(join(root, "usr", "share", "doc", PKG), { recursive: true });
    writeFileSync(join(root, "DEBIAN", "control"), `Package: ${PKG}\nVersion: 1.0\nArchitecture: all\nMaintainer: agent-sudo tests <tests@localhost>\nDescription: test package for agent-sudo's package undo\n`);
    writeFileSync(join(root, "usr", "share", "doc", PKG, "README"), "installed by agent-sudo's tests\n");
    deb = join(dir, `${PKG}_1.0_all.deb`);
    execFileSync("dpkg-deb", ["--root-owner-group", "--build", root, deb], { stdio: "pipe" });
    execFileSync("chmod", ["-R", "a+rX", dir]);
    stack = await startStack({ env: { AGENT_SUDO_HOST_ID: "server-01", AGENT_SUDO_BREAKER_TRIP_ON_TIER4: "0" } });
  });
  afterAll(async () => {
    await stack?.stop();
    spawnSync("dpkg", ["--purge", PKG], { stdio: "ignore" });
    rmSync(dir, { recursive: true, force: true });
  });

  // A local .deb needs no network: it runs once in the mirror, and what dpkg
  // and the package's scripts wrote is the judged diff (system paths: tier 3).
  it("dpkg -i through /exec installs it as a committed diff; rollback removes exactly it", async () => {
    expect(installed(PKG)).toBe(false);
    const res = await stack.exec({ command: `dpkg -i ${deb}`, timeout: 120 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ tier: 3, exit_code: 0 });
    expect(Number(res.body.committed)).toBeGreaterThan(2);
    expect(installed(PKG)).toBe(true);
    expect(existsSync(`/usr/share/doc/${PKG}/README`)).toBe(true);

    const out = execFileSync(process.execPath, [cliMain, "rollback", String(res.body.undo_id)], { env: stack.cliEnv, encoding: "utf8" });
    expect(out).toContain(`removed  /usr/share/doc/${PKG}`);
    expect(out).toContain("restored /var/lib/dpkg/status");
    expect(out).not.toContain("FAILED");
    expect(installed(PKG)).toBe(false);
    expect(existsSync(`/usr/share/doc/${PKG}/README`)).toBe(false);
    // Everything else dpkg knows is as it was: bash is still installed.
    expect(installed("bash")).toBe(true);
  }, 180_000);
});
