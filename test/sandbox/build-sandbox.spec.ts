// build-sandbox.sh is shellcheck-clean and, in --dry-run, plans the mirror
// from an inventory and a rebuild manifest without running anything;
// `agent-sudo inventory` is read-only JSON with no secrets.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { inventoryCommand } from "../../cli/inventory.js";
import { missing, named } from "../support/needs.js";
import { repoRoot } from "../support/stack.js";

const script = join(repoRoot, "build-sandbox.sh");
const has = (bin: string) => missing(bin) === undefined;

describe("build-sandbox.sh", () => {
  it.skipIf(!has("shellcheck"))(named("is shellcheck-clean", missing("shellcheck")), () => {
    expect(spawnSync("shellcheck", [script]).status).toBe(0);
  });

  it.skipIf(!has("jq"))(named("plans an Incus mirror from inventory and gaps (dry run)", missing("jq")), () => {
    const dir = mkdtempSync(join(tmpdir(), "build-sandbox-"));
    try {
      writeFileSync(
        join(dir, "h.json"),
        JSON.stringify({
          packages: [{ name: "bash", state: "install" }],
          groups: [{ name: "media", gid: 1001 }],
          users: [{ name: "deploy", uid: 1001, gid: 1001, home: "/home/deploy", shell: "/bin/bash" }],
          directories: [{ path: "/opt/appdata", mode: "755", owner: 0, group: 0 }],
        }),
      );
      writeFileSync(join(dir, "m.gaps"), "package jq\nuser bob\npath /opt/appdata/x/config.yml\ncommand frob\n");
      const r = spawnSync(script, ["server-01", "--inventory", join(dir, "h.json"), "--manifest", join(dir, "m.gaps"), "--dry-run"], {
        encoding: "utf8",
      });
      expect(r.status).toBe(0);
      expect(r.stdout).toContain(
        "+ incus launch images:debian/13 sandbox-server-01 -c limits.cpu=2 -c limits.memory=2GiB -d root\\,size=10GiB -n incusbr0",
      );
      expect(r.stdout).toMatch(/apt-get install -y -qq --no-install-recommends jq/);
      expect(r.stdout).toContain("+ incus snapshot create sandbox-server-01 baseline --reuse");
      expect(r.stderr).toContain("gap: command frob");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refuses an unknown host", () => {
    expect(spawnSync(script, ["laptop"]).status).toBe(2);
  });
});

describe("agent-sudo inventory", () => {
  it.skipIf(!has("dpkg-query"))("writes packages, users, groups, sudoers structure and a directory skeleton", async () => {
    const chunks: string[] = [];
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((c: string) => (chunks.push(String(c)), true)) as typeof process.stdout.write;
    try {
      expect(await inventoryCommand(["--root", "/etc", "--depth", "1"])).toBe(0);
    } finally {
      process.stdout.write = write;
    }
    const inv = JSON.parse(chunks.join("")) as Record<string, unknown[]>;
    expect(inv.packages?.length).toBeGreaterThan(10);
    expect(inv.users).toContainEqual(expect.objectContaining({ name: "root", uid: 0 }));
    expect(JSON.stringify(inv)).not.toMatch(/\$6\$|\$y\$/); // no password hashes
    expect(inv.directories).toContainEqual(expect.objectContaining({ path: "/etc" }));
  });
});
