import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_MASKS } from "./settings.js";
import { forbiddenWrites, shellcheck } from "./static.js";
import { missing, named } from "../../test/support/needs.js";

const noShellcheck = missing("shellcheck");

describe("shellcheck", () => {
  it.skipIf(noShellcheck)(named("reports error-level findings", noShellcheck), async () => {
    const r = await shellcheck("if true; then echo x");
    expect(r.errors.length).toBeGreaterThan(0);
  });
  it.skipIf(noShellcheck)(named("passes clean text, keeps warnings apart", noShellcheck), async () => {
    expect(await shellcheck("echo x > /tmp/y")).toEqual({ errors: [], warnings: [] });
    const w = await shellcheck("cd /opt; rm -rf $DIR/x");
    expect(w.errors).toEqual([]);
  });
  it("without shellcheck, still parses with bash -n: a syntax error fails, clean text passes, and both say only syntax was checked", async () => {
    const bad = await shellcheck("if true; then echo x", "/nonexistent/shellcheck");
    expect(bad.errors).toHaveLength(1);
    expect(bad.errors[0]).toMatch(/^bash -n: syntax error/);
    expect(bad.warnings[0]).toMatch(/shellcheck is not installed/);
    const good = await shellcheck("echo x > /tmp/y; ls | wc -l", "/nonexistent/shellcheck");
    expect(good.errors).toEqual([]);
    expect(good.warnings[0]).toMatch(/only bash -n syntax was checked/);
  });
  it("bash -n runs nothing of the text it parses", async () => {
    const dir = mkdtempSync(join(tmpdir(), "static-"));
    try {
      expect((await shellcheck(`touch ${dir}/ran; $(touch ${dir}/ran2)`, "/nonexistent/shellcheck")).errors).toEqual([]);
      expect(existsSync(join(dir, "ran")) || existsSync(join(dir, "ran2"))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  it("fails closed when shellcheck is there but does not answer in its format", async () => {
    const r = await shellcheck("true", "/bin/true");
    expect(r.errors[0]).toMatch(/not JSON/);
    const e = await shellcheck("true", "/bin/false");
    expect(e.errors).not.toEqual([]);
  });
});

describe("forbiddenWrites", () => {
  const forbidden = ["/boot", "/var/lib/agent-sudo"];
  it.each([
    ["echo x > /etc/shadow", "/etc/shadow"],
    ["cp key /home/bob/.ssh/authorized_keys", "/home/bob/.ssh/authorized_keys"],
    ["sudo tee /var/lib/agent-sudo/keys/x < y", "/var/lib/agent-sudo/keys/x"],
    ["dd if=/dev/zero of=/boot/vmlinuz", "/boot/vmlinuz"],
    ["sed -i s/a/b/ /var/lib/postgresql/conf", "/var/lib/postgresql/conf"],
    ["echo root:x | chpasswd", "/etc/shadow"],
  ])("%s writes %s", (cmd, path) => expect(forbiddenWrites(cmd, forbidden, DEFAULT_MASKS)).toContain(path));
  it.each(["cat /etc/shadow", "echo x > /etc/motd", "sed s/a/b/ /var/lib/postgresql/conf", "ls /boot"])("%s does not", (cmd) =>
    expect(forbiddenWrites(cmd, forbidden, DEFAULT_MASKS)).toEqual([]),
  );
});
