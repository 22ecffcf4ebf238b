// The AppArmor profiles, compiled but never loaded: `apparmor_parser -Q -K -T`
// (skip the kernel load, skip the cache) on every profile, plus the rules the
// deployment issue asks for, read from the files.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { named } from "../support/needs.js";
import { repoRoot } from "../support/stack.js";
import { describe, expect, it } from "vitest";

const dir = join(repoRoot, "apparmor");
const profiles = readdirSync(dir)
  .filter((n) => /^agent-sudo-[a-z]+(-[a-z]+)*$/.test(n))
  .sort();
/** agent-sudo-rules-learn.service's profile: the CLI, not a service. */
const LEARNER = "agent-sudo-rules-learn";
const parser = [
  "/sbin/apparmor_parser",
  "/usr/sbin/apparmor_parser",
  ...(process.env.PATH ?? "").split(":").map((d) => join(d, "apparmor_parser")),
].find((p) => existsSync(p));

/** The parser's notice when securityfs is absent (containers, CI): not an error. */
const noise = (s: string) =>
  s
    .split("\n")
    .filter((l) => l.trim() && !/^Cache read\/write disabled/.test(l))
    .join("\n");

const skipReason =
  !parser || !existsSync("/etc/apparmor.d/abstractions/base")
    ? "skipped: apparmor_parser or its abstractions are not installed (apt-get install apparmor; .ci/run installs it)"
    : undefined;

describe.skipIf(skipReason)(named("AppArmor profiles compile (apparmor_parser -Q -K -T)", skipReason), () => {
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

  it("one profile per unit, named like its file and its unit's AppArmorProfile=", () => {
    expect(profiles).toEqual(
      ["breaker", "classifier", "concurrence", "executor", "gateway", "rules-learn", "sandbox"].map((s) => `agent-sudo-${s}`),
    );
    for (const name of profiles) {
      expect(text(name)).toMatch(new RegExp(`^profile ${name} `, "m"));
      expect(readFileSync(join(repoRoot, "systemd", `${name}.service`), "utf8")).toContain(`AppArmorProfile=${name}\n`);
    }
  });

  it.each(profiles.filter((p) => p !== "agent-sudo-gateway" && p !== "agent-sudo-breaker" && p !== LEARNER))(
    "%s denies inet and inet6",
    (name) => {
      expect(text(name)).toMatch(/^\s*deny network inet,$/m);
      expect(text(name)).toMatch(/^\s*deny network inet6,$/m);
      expect(text(name)).not.toMatch(/^\s*network inet/m);
    },
  );

  it("the breaker may open TCP connections (ntfy) and nothing else of IP; its three sockets; no abstract Unix sockets", () => {
    const t = text("agent-sudo-breaker");
    expect(t).toMatch(/^\s*network inet stream,$/m);
    expect(t).toMatch(/^\s*network inet6 stream,$/m);
    expect(t).toMatch(/^\s*deny network inet dgram,$/m);
    expect(t).toMatch(/^\s*deny network inet6 dgram,$/m);
    expect(t).toMatch(/^\s*deny network inet raw,$/m);
    expect(t).not.toMatch(/^\s*network inet,$/m);
    for (const sock of ["breaker.sock", "breaker-admin.sock", "breaker-rearm.sock"])
      expect(t).toContain(`@{AGENT_SUDO_HOME}/run/${sock} rw,`);
    expect(t).toContain("@{AGENT_SUDO_HOME}/state/breaker/** rwk,");
    expect(t).toMatch(/^\s*\/etc\/hosts r,$/m);
    expect(t).toContain("deny unix (connect, send, receive) peer=(addr=@**),");
  });

  it("the gateway reads its migrations, writes its audit spool, reaches PostgreSQL by TCP or Unix socket", () => {
    const t = text("agent-sudo-gateway");
    expect(t).toContain("@{AGENT_SUDO_HOME}/state/gateway/** rwk,");
    expect(t).toContain("@{AGENT_SUDO_PREFIX}/services/gateway/audit/migrations/** r,");
    expect(t).toContain("/{var/,}run/postgresql/.s.PGSQL.* rw,");
  });

  it.each(["agent-sudo-classifier", "agent-sudo-concurrence"])(
    "%s, a judge, reads the host's tree but none of agent-sudo's secrets nor another service's bundle",
    (name) => {
      const t = text(name);
      expect(t).toMatch(/^\s*\/\*\* r,$/m);
      expect(t).toContain("deny @{AGENT_SUDO_HOME}/{tokens.json,metrics-tokens.json,console-tokens.json,dev-token,database-url} r,");
      expect(t).toContain("deny @{AGENT_SUDO_HOME}/state/** r,");
      expect(t).toContain("deny @{AGENT_SUDO_HOME}/logs/** r,");
      const service = name.replace("agent-sudo-", "");
      const keys = /deny @\{AGENT_SUDO_HOME\}\/keys\/\{([a-z,]+)\}\.key r,/.exec(t)?.[1]?.split(",") ?? [];
      expect(keys.sort()).toEqual(["breaker", "classifier", "concurrence", "operator", "policy", "sandbox"].filter((k) => k !== service));
      const bundles = /deny @\{AGENT_SUDO_PREFIX\}\/dist\/services\/\{([a-z,]+)\}\/\*\* r,/.exec(t)?.[1]?.split(",") ?? [];
      for (const other of ["gateway", "sandbox", "breaker", "executor"]) expect(bundles, other).toContain(other);
    },
  );

  it("the gateway may use TCP (it is the HTTP front door)", () => {
    expect(text("agent-sudo-gateway")).toMatch(/^\s*network inet stream,$/m);
    expect(text("agent-sudo-gateway")).not.toMatch(/^\s*deny network inet,$/m);
  });

  it.each(profiles.filter((p) => p !== "agent-sudo-executor" && p !== LEARNER))(
    "%s reads the node binary and only its own bundle",
    (name) => {
      const t = text(name);
      const service = name.replace("agent-sudo-", "");
      expect(t).toMatch(/^\s*\/usr\/bin\/node mr,$/m);
      expect(t).toContain(`@{AGENT_SUDO_PREFIX}/dist/services/${service}/** r,`);
      const others = ["gateway", "sandbox", "breaker", "executor", "classifier", "concurrence"].filter((s) => s !== service);
      for (const other of others) expect(t).not.toContain(`@{AGENT_SUDO_PREFIX}/dist/services/${other}/** r,`);
      expect(t).toContain("deny @{AGENT_SUDO_PREFIX}/** wl,");
    },
  );

  it("rules-learn writes only its proposals store and its /tmp staging copies; no key, token, env file or socket; no capability", () => {
    const t = text(LEARNER);
    // Every rule that grants a write, by path.
    const writes = t
      .split("\n")
      .map((l) => /^\s*(?:owner\s+)?(\S+)\s+([rwlkmixPUC]+),$/.exec(l))
      .filter((m): m is RegExpExecArray => m !== null && m[2]?.includes("w") === true)
      .map((m) => m[1]);
    expect(writes.length).toBeGreaterThan(0);
    for (const w of writes)
      expect(w).toMatch(
        /^(@\{AGENT_SUDO_HOME\}\/state\/proposals\/(\*\*)?|\/tmp\/\.rules-stage-\*\/(\*\*)?|\/\{var\/,\}run\/postgresql\/\.s\.PGSQL\.\*)$/,
      );
    for (const d of [
      "@{AGENT_SUDO_HOME}/keys/** rwlk,",
      "@{AGENT_SUDO_HOME}/tokens.json rwlk,",
      "@{AGENT_SUDO_HOME}/*.env rwlk,",
      "@{AGENT_SUDO_HOME}/run/** rwlk,",
      "@{AGENT_SUDO_PREFIX}/** wl,",
    ])
      expect(t).toContain(`deny ${d}`);
    expect(t).toMatch(/^\s*deny capability,$/m);
    expect(t).not.toMatch(/^\s*capability\b/m);
    // The CLI and the engine it checks candidates with; the policies read-only.
    expect(t).toMatch(/^\s*\/usr\/bin\/node mr,$/m);
    expect(t).toContain("@{AGENT_SUDO_PREFIX}/dist/cli/** r,");
    expect(t).toContain("@{AGENT_SUDO_PREFIX}/policies/** r,");
    // The audit database and ntfy over TCP, DNS; no raw IP, no abstract Unix sockets of the host.
    expect(t).toMatch(/^\s*network inet stream,$/m);
    expect(t).toMatch(/^\s*deny network inet raw,$/m);
    expect(t).toContain("deny unix (connect, send, receive) peer=(addr=@**),");
    expect(t).toContain("/{var/,}run/postgresql/.s.PGSQL.* rw,");
  });

  /** One profile block of a file: the top-level profile (its child profiles cut out) or a child `profile NAME {…}`. */
  function block(name: string, child?: string): string {
    const t = text(name);
    if (child) {
      const start = t.indexOf(`\n  profile ${child} `);
      expect(start, `${name}//${child}`).toBeGreaterThan(0);
      return t.slice(start, t.indexOf("\n  }\n", start));
    }
    return t.replace(/\n {2}profile [a-z]+ [\s\S]*?\n {2}\}\n/g, "\n");
  }

  it("sandbox: only the launcher mounts, and only under run/sandbox-trials; the gRPC half and the trial mount nothing", () => {
    const top = block("agent-sudo-sandbox");
    const launcher = block("agent-sudo-sandbox", "launcher");
    const bwrap = block("agent-sudo-sandbox", "bwrap");
    const trial = block("agent-sudo-sandbox", "trial");
    // The gRPC half: the drop's capabilities, no mounts, the launcher entered through unshare.
    expect(top).toMatch(/^\s*deny mount,$/m);
    expect(top).not.toMatch(/capability sys_admin/);
    expect(top).toContain("/usr/bin/unshare Cx -> launcher,");
    // The launcher: every mount rule names its target under the trials directory (or the propagation of /).
    const mounts = launcher.split("\n").filter((l) => /^\s*mount\b/.test(l));
    expect(mounts.length).toBeGreaterThan(0);
    for (const m of mounts) expect(m).toMatch(/-> (\/,|@\{AGENT_SUDO_HOME\}\/run\/sandbox-trials\/)/);
    expect(launcher).toMatch(/^\s*capability sys_admin,$/m);
    expect(launcher).toMatch(/^\s*deny capability dac_read_search,$/m);
    expect(launcher).toMatch(/^\s*deny pivot_root,$/m);
    expect(launcher).toContain("/usr/bin/bwrap Px -> agent-sudo-sandbox//bwrap,");
    expect(launcher).toContain("@{PROC}/sys/user/max_user_namespaces w,");
    expect(launcher).toContain("deny @{AGENT_SUDO_HOME}/keys/*.key rwlk,");
    expect(launcher).toContain("deny @{AGENT_SUDO_HOME}/tokens.json rwlk,");
    // bubblewrap builds the trial's root; the trial is handed on at setpriv.
    expect(bwrap).toMatch(/^\s*pivot_root,$/m);
    expect(bwrap).toMatch(/^\s*network netlink raw,$/m);
    expect(bwrap).toContain("/usr/bin/setpriv Px -> agent-sudo-sandbox//trial,");
    // The trial: no mounts, no CAP_SYS_ADMIN, no signer's key, no IP.
    expect(trial).toMatch(/^\s*deny mount,$/m);
    expect(trial).toMatch(/^\s*deny capability sys_admin,$/m);
    expect(trial).toContain("deny @{AGENT_SUDO_HOME}/keys/*.key rwlk,");
    expect(trial).toMatch(/^\s*deny network inet,$/m);
    // Every capability a trial keeps (TRIAL_CAPS in overlay.ts) is allowed to the trial.
    const overlay = readFileSync(join(repoRoot, "services/sandbox/launcher/overlay.ts"), "utf8");
    const trialCaps = [...(/const TRIAL_CAPS = \[([^\]]*)\]/.exec(overlay)?.[1] ?? "").matchAll(/"([^"]+)"/g)].map((m) => m[1] ?? "");
    for (const c of trialCaps) expect(trial).toMatch(new RegExp(`^\\s*capability ${c},$`, "m"));
  });

  it("the executor may write its own delegated cgroup (per-command cgroups)", () => {
    const t = text("agent-sudo-executor");
    expect(t).toMatch(/^\s*\/\{,\*\*\} rwlkmix,$/m);
    // No deny rule reaches /sys or the cgroup file system.
    expect(t.split("\n").filter((l) => /^\s*deny\s+(\/sys\/|@\{sys\}|\S*cgroup)/.test(l))).toEqual([]);
  });

  it("the executor may run what a root executor runs, but not reach the network or its own trust anchors", () => {
    const t = text("agent-sudo-executor");
    expect(t).toMatch(/^\s*capability,$/m);
    expect(t).toMatch(/^\s*\/\{,\*\*\} rwlkmix,$/m);
    expect(t).toContain("deny @{AGENT_SUDO_HOME}/keys/*.key r,");
    expect(t).toContain("deny @{AGENT_SUDO_HOME}/*.env wl,");
    expect(t).toContain("deny capability mac_admin,");
    expect(t).toContain("deny capability sys_module,");
  });
});
