import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { Engine } from "../verdict.js";
import { loadEngine } from "./index.js";

const policies = join(import.meta.dirname, "..", "..", "..", "policies");
let engine: Engine;
beforeAll(async () => {
  engine = await loadEngine(policies);
});

const run = (command: string, extra: Partial<{ host: "primary" | "server-01"; source: "sudo" | "claude"; cwd: string }> = {}) =>
  engine.classify({ command, cwd: extra.cwd ?? "/home/dev/p", host: extra.host ?? "primary", source: extra.source ?? "claude" });

describe("engine", () => {
  it("carries a sha256 policy digest", async () => {
    expect(engine.policyDigest).toHaveLength(32);
    expect((await loadEngine(policies)).policyDigest.equals(engine.policyDigest)).toBe(true);
  });

  it("takes the maximum of the parts and names the deciding part", () => {
    const v = run("ls && git push && cat README.md");
    expect(v.tier).toBe(3);
    expect(v.rule).toBe("git-push");
    expect(v.parts.map((p) => p.tier)).toEqual([0, 3, 0]);
  });

  it("judges the gateway's self-test probes as the self-test expects, with no cwd (git status 0, rm -rf / 4)", () => {
    const probe = (command: string) => engine.classify({ command, cwd: "", host: "primary", source: "claude" }).tier;
    expect(probe("git status")).toBe(0);
    expect(probe("rm -rf /")).toBe(4);
    // Pointed somewhere, git is judged there even without a cwd.
    expect(probe("git -C /tmp/e status")).toBe(2);
  });

  it("sets explicit only when an active rule decided", () => {
    expect(run("git status").explicit).toBe(true);
    expect(run("cat .env").explicit).toBe(false);
    expect(run("frobnicate").explicit).toBe(false);
    expect(run("rm -rf /").explicit).toBe(false);
  });

  it("applies host overrides and the miss behaviour", () => {
    expect(run("reboot").tier).toBe(4);
    expect(run("reboot", { host: "server-01" }).tier).toBe(3);
    expect(run("frobnicate --list").tier).toBe(4);
    expect(run("frobnicate list", { host: "server-01" }).tier).toBe(0);
    expect(run("frobnicate build x", { host: "server-01" }).tier).toBe(2);
    expect(run("frobnicate purge x", { host: "server-01" }).tier).toBe(4);
  });

  it("defers sudo to SUDO.md and uses it for /exec callers", () => {
    expect(run("sudo systemctl restart nginx").rule).toBe("sudo-systemctl-restart");
    expect(run("systemctl restart nginx", { source: "sudo" }).rule).toBe("sudo-systemctl-restart");
    expect(run("sudo -i").tier).toBe(4);
  });

  it("judges writes by place: workspace 1, outside 2+, nothing known without a cwd", () => {
    expect(run("touch a.txt").tier).toBe(1);
    expect(run("touch ../other/a.txt").tier).toBe(2);
    expect(run("touch a.txt", { cwd: "" }).tier).toBe(2);
    expect(run("echo x > /etc/motd").tier).toBe(3);
  });

  it("treats text as data", () => {
    for (const c of ["echo 'rm -rf /'", "git commit -m 'DROP TABLE users'", "grep 'mkfs' notes", "cat <<'EOF'\nrm -rf /\nEOF"])
      expect(run(c).tier, c).toBeLessThanOrEqual(1);
  });

  it("never judges unparseable input 0–1", () => {
    expect(run("echo 'open").tier).toBe(2);
    expect(run("ls ) rm -rf /").tier).toBe(4);
  });
});

describe("code nested without end", () => {
  it("refuses substitutions thousands deep, plain or in a here-document, instead of failing", () => {
    for (const n of [2000, 5000]) {
      const inner = `${"$(".repeat(n)}x${")".repeat(n)}`;
      for (const command of [`echo ${inner}`, `cat <<EOF\n${inner}\nEOF`, `cat <<EOF\n\t${inner}\nEOF`]) {
        for (const source of ["claude", "sudo"] as const) expect(run(command, { source }).rule, `${n} ${source}`).toBe("nesting-too-deep");
      }
    }
  });

  it("judges a here-document's nested substitutions once each: 300 levels with a deletion inside is still caught", () => {
    const inner = `${"$(".repeat(300)}rm -rf ~${")".repeat(300)}`;
    const v = run(`cat <<EOF\n\t${inner}\nEOF`);
    expect(v.tier).toBe(4);
  });

  it("does not parse piece by piece more hidden code than a command line can sensibly hold", () => {
    const many = Array.from({ length: 70 }, (_, i) => `\t$(echo ${i})`).join("\n");
    const v = run(`cat <<EOF\n${many}\nEOF`);
    expect(v.tier).toBeGreaterThanOrEqual(2);
  });
});

describe("network grant (rules flagged `network` in SUDO.md)", () => {
  const net = (command: string) => run(command, { source: "sudo", host: "server-01" }).attrs?.network;

  it.each([
    "apt-get update",
    "apt-get install -y cowsay",
    "DEBIAN_FRONTEND=noninteractive apt-get install -y cowsay",
    "apt-get update && apt-get install -y nginx",
  ])("grants it to %s", (command) => expect(net(command)).toBe(true));

  it.each([
    ["sh -c 'apt-get install -y bash; python3 /home/agent/p/x.py'", "code run through a shell"],
    ["LD_PRELOAD=/home/agent/x.so apt-get update", "a steering assignment"],
    ["APT_CONFIG=/home/agent/a.conf apt-get install -y cowsay", "another apt configuration"],
    ["env apt-get update", "a wrapper"],
    ["apt-get update > /tmp/x", "a redirection"],
    ["apt-get install -y cowsay; curl -fsS http://127.0.0.1/", "a part whose rule grants none"],
    ["apt-get install -y ./local.deb", "a local package (its rule grants none)"],
    ["apt-get install -y $PKG", "an expansion"],
  ])("withholds it from %s (%s)", (command) => {
    expect(net(command)).toBe(false);
  });
});
