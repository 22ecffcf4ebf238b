// Package-state undo through the whole stack with a real package: a tiny
// .deb built here with dpkg-deb (no network, no dependencies, one file under
// /usr/share/doc), installed by `/exec dpkg -i` (run once in the mirror, the
// judged diff committed), and removed again by `agent-sudo rollback` — which
// reverts only what that command changed. The stack runs inside a throwaway
// root (test/support/rooted-stack.ts): dpkg's database and /usr/share/doc
// are the root's copy-on-write overlays, never this machine's.
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { missing } from "../support/needs.js";
import { startRootedStack, type RootedStack } from "../support/rooted-stack.js";

const PKG = "agent-sudo-undo-test";
const skipReason =
  process.getuid?.() !== 0
    ? "skipped: needs root (the throwaway root and the stack's executor)"
    : missing("dpkg-deb", "unshare", "nsenter", "perl");

describe.skipIf(skipReason)(
  `package undo end to end (a .deb built here, a stack in a throwaway root)${skipReason ? ` — ${skipReason}` : ""}`,
  () => {
    let s: RootedStack;
    let dir: string;
    let deb: string;
    const installed = async (name: string) => (await s.sh(`dpkg-query -W -f='\${db:Status-Abbrev}' ${name}`)).stdout.startsWith("ii");
    const exists = async (path: string) => (await s.sh(`test -e ${path}`)).code === 0;

    beforeAll(async () => {
      // Built on the host's /tmp before the root starts: the root sees it (its lower layer).
      dir = mkdtempSync("/tmp/agent-sudo-pkg-");
      chmodSync(dir, 0o755);
      const root = join(dir, "pkg");
      mkdirSync(join(root, "DEBIAN"), { recursive: true });
      mkdirSync(join(root, "usr", "share", "doc", PKG), { recursive: true });
      writeFileSync(
        join(root, "DEBIAN", "control"),
        `Package: ${PKG}\nVersion: 1.0\nArchitecture: all\nMaintainer: agent-sudo tests <tests@localhost>\nDescription: test package for agent-sudo's package undo\n`,
      );
      writeFileSync(join(root, "usr", "share", "doc", PKG, "README"), "installed by agent-sudo's tests\n");
      deb = join(dir, `${PKG}_1.0_all.deb`);
      execFileSync("dpkg-deb", ["--root-owner-group", "--build", root, deb], { stdio: "pipe" });
      execFileSync("chmod", ["-R", "a+rX", dir]);
      s = await startRootedStack({ env: { AGENT_SUDO_HOST_ID: "server-01", AGENT_SUDO_BREAKER_TRIP_ON_TIER4: "0" } });
    }, 180_000);
    afterAll(async () => {
      await s?.stop();
      rmSync(dir, { recursive: true, force: true });
    });

    // A local .deb needs no network: it runs once in the mirror, and what dpkg
    // and the package's scripts wrote is the judged diff (system paths: tier 3).
    it("dpkg -i through /exec installs it as a committed diff; rollback removes exactly it", async () => {
      expect(await installed(PKG)).toBe(false);
      const res = await s.exec({ command: `dpkg -i ${deb}`, timeout: 120 });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({ tier: 3, exit_code: 0 });
      expect(Number(res.body.committed)).toBeGreaterThan(2);
      expect(await installed(PKG)).toBe(true);
      expect(await exists(`/usr/share/doc/${PKG}/README`)).toBe(true);

      const out = await s.cli(["rollback", String(res.body.undo_id)]);
      expect(out.code, out.stderr).toBe(0);
      expect(out.stdout).toContain(`removed  /usr/share/doc/${PKG}`);
      expect(out.stdout).toContain("restored /var/lib/dpkg/status");
      expect(out.stdout).not.toContain("FAILED");
      expect(await installed(PKG)).toBe(false);
      expect(await exists(`/usr/share/doc/${PKG}/README`)).toBe(false);
      // Everything else dpkg knows is as it was: bash is still installed.
      expect(await installed("bash")).toBe(true);
      // And this machine never had it.
      expect(spawnSync("dpkg-query", ["-W", PKG]).status).not.toBe(0);
    }, 180_000);
  },
);
