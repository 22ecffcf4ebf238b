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
  it("fails closed without shellcheck", async () => {
    const r = await shellcheck("true", "/nonexistent/shellcheck");
    expect(r.errors[0]).toMatch(/could not run/);
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
