// The AppArmor profiles, compiled but never loaded: `apparmor_parser -Q -K -T`
// (skip the kernel load, skip the cache) on every profile, plus the rules the
// deployment issue asks for, read from the files.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const dir = join(repo, "apparmor");
const profiles = readdirSync(dir).filter((n) => /^agent-sudo-[a-z]+$/.test(n)).sort();
const parser = ["/sbin/apparmor_parser", "/usr/sbin/apparmor_parser", ...(process.env.PATH ?? "").split(":").map((d) => join(d, "apparmor_parser"))].find((p) => existsSync(p));

/** The parser's notice when securityfs is absent (containers, CI): not an error. */
const noise = (s: string) => s.split("\n").filter((l) => l.trim() && !/^Cache read\/write disabled/.test(l)).join("\n");

describe.skipIf(!parser || !existsSync("/etc/apparmor.d/abstractions/base"))("AppArmor profiles compile (apparmor_parser -Q -K -T)", () => {
  // Skipped only when apparmor_parser or its abstractions (Debian package
  // `apparmor`) are absent; CI installs it.
  const compile = (path: string) => spawnSync(parser as string, ["-Q", "-K", "-T", path], { encoding: "utf8", timeout: 30_000 });

  it.each(profiles)("%s compiles", (name) => {
    const r = compile(join(dir, name));
    expect(noise(r.stderr)).toBe("");
    expect(r.status).toBe(0);
  });

  it("the compile check has teeth: a broken profile fails", () => {
    const tmp = mkdtempSync(join(tmpdir(), "agent-sudo-aa-"));
    try {
      const broken = readFileSync(join(dir, "agent-sudo-classifier"), "utf8").replace("deny network inet,", "deny netwrk inet,");
      writeFileSync(join(tmp, "broken"), broken);
      expect(compile(join(tmp, "broken")).status).not.toBe(0);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});

describe("AppArmor profiles: the rules the deployment asks for", () => {
  const text = (name: string) => readFileSync(join(dir, name), "utf8");

  it("one profile per service, named like its file and its unit's AppArmorProfile=", () => {
    expect(profiles).toEqual(["breaker", "classifier", "concurrence", "executor", "gateway", "sandbox"].map((s) => `agent-sudo-${s}`));
    for (const name of profiles) {
      expect(text(name)).toMatch(new RegExp(`^profile ${name} `, "m"));
      expect(readFileSync(join(repo, "systemd", `${name}.service`), "utf8")).toContain(`AppArmorProfile=${name}\n`);
    }
  });

  it.each(profiles.filter((p) => p !== "agent-sudo-gateway"))("%s denies inet and inet6", (name) => {
    expect(text(name)).toMatch(/^\s*deny network inet,$/m);
    expect(text(name)).toMatch(/^\s*deny network inet6,$/m);
    expect(text(name)).not.toMatch(/^\s*network inet/m);
  });

  it("the gateway may use TCP (it is the HTTP front door)", () => {
    expect(text("agent-sudo-gateway")).toMatch(/^\s*network inet stream,$/m);
    expect(text("agent-sudo-gateway")).not.toMatch(/^\s*deny network inet,$/m);
  });

  it.each(profiles.filter((p) => p !== "agent-sudo-executor"))("%s reads the node binary and only its own bundle", (name) => {
    const t = text(name);
    const service = name.replace("agent-sudo-", "");
    expect(t).toMatch(/^\s*\/usr\/bin\/node mr,$/m);
    const own = service === "concurrence" ? "classifier/concurrence" : service;
    expect(t).toContain(`@{AGENT_SUDO_PREFIX}/dist/services/${own}/** r,`);
    const others = ["gateway", "sandbox", "breaker", "executor", "classifier"].filter((s) => s !== service && !(service === "concurrence" && s === "classifier"));
    for (const other of others) expect(t).not.toContain(`@{AGENT_SUDO_PREFIX}/dist/services/${other}/** r,`);
    expect(t).toContain("deny @{AGENT_SUDO_PREFIX}/** wl,");
  });

  it("the executor may run what a root executor runs, but not reach the network or its own trust anchors", () => {
    const t = text("agent-sudo-executor");
    expect(t).toMatch(/^\s*capability,$/m);
    expect(t).toMatch(/^\s*\/\{,\*\*\} rwlkmix,$/m);
    expect(t).toContain("deny @{AGENT_SUDO_HOME}/keys/*.key r,");
    expect(t).toContain("deny capability mac_admin,");
    expect(t).toContain("deny capability sys_module,");
  });
});
