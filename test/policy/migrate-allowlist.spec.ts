import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { isReadOnly, isReproducible, migrate, migrateAllowlistCommand, newTierFor } from "../../cli/migrate-allowlist.js";
import { parsePolicy } from "../../services/classifier/engine/policy.js";

const fixture = join(dirname(fileURLToPath(import.meta.url)), "fixtures", "allowlist.json");
const tmp = mkdtempSync(join(tmpdir(), "migrate-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await migrateAllowlistCommand(args, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

function file(name: string, body: unknown): string {
  const p = join(tmp, name);
  writeFileSync(p, typeof body === "string" ? body : JSON.stringify(body));
  return p;
}

describe("migrate-allowlist", () => {
  it("migrates the sample allowlist.json, covering each old tier, into rules the policy parser accepts", async () => {
    const { code, out, err } = await run([fixture]);
    expect(code).toBe(0);
    const policy = parsePolicy(`# SUDO\n\n${out}\n`, "SUDO.md");
    const tierOf = (pattern: string) => policy.rules.find((r) => r.patterns[0] === pattern)?.tier;
    // old 1 (auto): read-only verbs → 0, else 1
    expect(tierOf("systemctl status *")).toBe(0);
    expect(tierOf("df -h")).toBe(0);
    expect(tierOf("docker ps *")).toBe(0); // "sudo " dropped
    expect(tierOf("journalctl -u *")).toBe(1); // a glob could be --vacuum-time
    expect(tierOf("chmod 644 /etc/nginx/sites-available/*")).toBe(1);
    // old 2 (human approval): reproducible → 2, else 3
    expect(tierOf("apt-get install -y *")).toBe(2);
    expect(tierOf("cp /opt/appdata/*.conf /etc/*")).toBe(2);
    expect(tierOf("systemctl restart *")).toBe(3);
    expect(tierOf("docker compose -f /opt/appdata/* up -d")).toBe(3);
    // old 0 (refuse) → 4
    expect(tierOf("rm -rf /*")).toBe(4);
    expect(tierOf("mkfs*")).toBe(4);
    // danger vetoes → the veto section, regexes intact
    expect(policy.vetoes.map((v) => v.id)).toEqual(["mig-veto-1", "mig-veto-2", "mig-veto-3"]);
    expect(policy.vetoes[1]?.regex.test("dd if=/dev/zero of=/dev/sda bs=1M")).toBe(true);
    expect(policy.vetoes[2]?.regex.test(":(){ :|:& };:")).toBe(true);
    // classes follow the tier; order is the input's; every rule active
    expect(policy.rules.map((r) => r.verbClass)).toEqual([
      "read",
      "read",
      "reproducible",
      "read",
      "reproducible",
      "reproducible",
      "reproducible",
      "live-service",
      "live-service",
      "catastrophic",
      "catastrophic",
      "read",
    ]);
    expect(policy.rules.every((r) => r.state === "active")).toBe(true);
    expect(policy.rules.find((r) => r.patterns[0] === "apt-get install -y *")?.rationale).toContain("package installs / needs network");
    expect(err).toMatch(/mig-12-systemctl-status-nginx .* can never match: mig-01-systemctl-status/);
    expect(err).toContain("12 rules (tier 0: 4, tier 1: 2, tier 2: 2, tier 3: 2, tier 4: 2), 3 danger vetoes");
  });

  it("accepts a plain list (old tier 1 unless --plain-tier), mixed with entries, and --state proposed", async () => {
    const p = file("plain.json", ["uptime", "free -m", "systemctl reload nginx", { pattern: "reboot", tier: 0 }]);
    const { code, out } = await run([p, "--state", "proposed"]);
    expect(code).toBe(0);
    const policy = parsePolicy(out, "SUDO.md");
    expect(policy.rules.map((r) => [r.patterns[0], r.tier, r.state])).toEqual([
      ["uptime", 0, "proposed"],
      ["free -m", 0, "proposed"],
      ["systemctl reload nginx", 1, "proposed"],
      ["reboot", 4, "proposed"],
    ]);
    const two = await run([p, "--plain-tier", "2", "--id-prefix", "old-bridge"]);
    const p2 = parsePolicy(two.out, "SUDO.md");
    expect(p2.rules[0]).toMatchObject({ id: "old-bridge-1-uptime", tier: 3 });
  });

  it.each([
    [
      "a tier outside 0–2",
      [{ pattern: "ls", tier: 3 }],
      /entry 0 \(\{"pattern":"ls","tier":3\}\): "tier" must be the old bridge's 0 \(refuse\), 1 \(auto\) or 2/,
    ],
    ["a tier as a string", [{ pattern: "ls", tier: "1" }], /entry 0 .*"tier" must be/],
    [
      "an unknown key",
      [
        { pattern: "ls", tier: 1 },
        { pattern: "id", tier: 1, comment: "x" },
      ],
      /entry 1 \(.*\): unknown key "comment"/,
    ],
    ["a missing pattern", [{ tier: 1 }], /entry 0 .*"pattern" must be a string/],
    ["a backtick in a pattern", ["echo `id`"], /entry 0 .*backtick/],
    ["a number in a plain list", ["ls", 7], /entry 1 \(7\): an entry is/],
    ["a catch-all auto rule", [{ pattern: "*", tier: 1 }], /matches every command/],
    ["an unknown top-level key", { rules: [], deny: [] }, /top level: unknown key "deny"/],
    ["a top-level string", '"ls"', /top level must be/],
    ["a Python-only regex veto", { danger_vetoes: ["(?i)rm -rf"] }, /danger_vetoes 0 .*not a valid regular expression.*Python/],
    ["sudo options", ["sudo -u postgres psql"], /sudo options/],
  ])("refuses %s with an error naming the entry", async (_what, body, message) => {
    const { code, err, out } = await run([file("bad.json", body)]);
    expect(code).toBe(1);
    expect(out).toBe("");
    expect(err).toMatch(message);
  });

  it("refuses text that is not JSON and usage mistakes", async () => {
    expect((await run([file("bad.json", "{nope")])).err).toMatch(/not valid JSON/);
    expect((await run([])).code).toBe(2);
    expect((await run([fixture, "--plain-tier", "5"])).code).toBe(2);
    expect((await run([fixture, "--state", "on"])).code).toBe(2);
  });

  it("read-only detection is conservative about flags and globs", () => {
    expect(isReadOnly("find /var/log -name *.log")).toBe(false); // glob could be -delete
    expect(isReadOnly("find /var/log -mtime +7")).toBe(true);
    expect(isReadOnly("find /tmp -delete")).toBe(false);
    expect(isReadOnly("journalctl --vacuum-time=2d")).toBe(false);
    expect(isReadOnly("journalctl -u nginx -n 50")).toBe(true);
    expect(isReadOnly("ip addr")).toBe(true);
    expect(isReadOnly("ip addr *")).toBe(false); // could be ip addr add
    expect(isReadOnly("ip addr show *")).toBe(true);
    expect(isReadOnly("hostname")).toBe(true);
    expect(isReadOnly("hostname *")).toBe(false);
    expect(isReadOnly("cat /etc/hosts > /tmp/x")).toBe(false);
    expect(isReadOnly("sort -o /etc/passwd *")).toBe(false);
    expect(isReadOnly("systemctl * status")).toBe(false);
    expect(isReproducible("apt install *")).toBe(true);
    expect(isReproducible("systemctl restart nginx")).toBe(false);
    expect(isReproducible("chmod 600 * && systemctl restart x")).toBe(false);
    expect(newTierFor(0, "ls")).toBe(4);
  });

  it("keeps rule ids unique and valid for long and odd patterns", () => {
    const { rules } = migrate(JSON.stringify(["ls", "ls", "Weird___Name --X=1 ./a/b/c/d/e/f/g/h/i/j/k/l", "--"]));
    expect(new Set(rules.map((r) => r.id)).size).toBe(4);
    for (const r of rules) expect(r.id).toMatch(/^[a-z0-9][a-z0-9.-]*$/);
  });
});
