// The systemd units, checked offline: `systemd-analyze verify` on every unit
// (in a throw-away root holding the units, the distribution's own units and
// a stand-in for the ExecStart binary, so the check does not depend on where
// this machine keeps node), `systemd-analyze security --offline=yes` against
// the per-unit ceilings in systemd/security-thresholds.json, and the issue's
// hardening list read straight from the files.
import { spawnSync } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LEARNER } from "../../cli/install-units.js";
import { named } from "../support/needs.js";
import { repoRoot } from "../support/stack.js";
import { findProgram, pathDirs } from "../../services/shared/programs.js";

const unitDir = join(repoRoot, "systemd");
const units = readdirSync(unitDir)
  .filter((n) => /\.(service|target|timer)$/.test(n))
  .sort();
const services = units.filter((n) => n.endsWith(".service"));
/** The six long-running services (the learner is a oneshot its timer starts). */
const daemons = services.filter((n) => n !== LEARNER.unit);
const thresholds = JSON.parse(readFileSync(join(unitDir, "security-thresholds.json"), "utf8")) as {
  units: Record<string, { measured: number; max: number }>;
};

function which(tool: string): string | undefined {
  return findProgram(tool, [...pathDirs(), "/usr/bin", "/bin", "/usr/sbin", "/sbin"]);
}
const analyze = which("systemd-analyze");
const systemUnits = ["/usr/lib/systemd/system", "/lib/systemd/system"].find((d) => existsSync(join(d, "sysinit.target")));

/** Key → values of one unit file (a key may repeat). */
function directives(name: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const line of readFileSync(join(unitDir, name), "utf8").split("\n")) {
    const m = /^([A-Za-z]+)=(.*)$/.exec(line.trim());
    if (m?.[1] !== undefined && m[2] !== undefined) out.set(m[1], [...(out.get(m[1]) ?? []), m[2]]);
  }
  return out;
}
const one = (name: string, key: string) => directives(name).get(key)?.at(-1);

const skipReason =
  !analyze || !systemUnits
    ? "skipped: systemd-analyze or the distribution's unit files are not installed (apt-get install systemd; .ci/run installs it)"
    : undefined;

describe.skipIf(skipReason)(named("systemd units, offline", skipReason), () => {
  // Skipped only when systemd-analyze (Debian package `systemd`) or the
  // distribution's unit files are absent; CI installs them.
  let root: string;
  const run = (args: string[]) => spawnSync(analyze as string, args, { encoding: "utf8", timeout: 30_000 });

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), "agent-sudo-units-"));
    mkdirSync(join(root, "etc/systemd/system"), { recursive: true });
    mkdirSync(join(root, "usr/lib/systemd"), { recursive: true });
    cpSync(systemUnits as string, join(root, "usr/lib/systemd/system"), { recursive: true, verbatimSymlinks: true });
    for (const u of units) cpSync(join(unitDir, u), join(root, "etc/systemd/system", u));
    // verify checks that ExecStart's binary exists and is executable, inside --root.
    for (const u of services) {
      const bin = one(u, "ExecStart")?.split(/\s+/)[0] ?? "";
      mkdirSync(join(root, dirname(bin)), { recursive: true });
      writeFileSync(join(root, bin), "#!/bin/sh\nexit 0\n");
      chmodSync(join(root, bin), 0o755);
    }
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const verify = (unit: string) => run(["verify", `--root=${root}`, "--man=no", "--generators=no", unit]);

  it.each(units)("systemd-analyze verify %s: exit 0 and no warnings", (unit) => {
    const r = verify(unit);
    expect(r.stderr + r.stdout).toBe("");
    expect(r.status).toBe(0);
  });

  it("the verify check has teeth: an unknown directive and a missing binary are caught", () => {
    writeFileSync(join(root, "etc/systemd/system/agent-sudo-typo.service"), "[Service]\nExecStart=/usr/bin/node x\nPrivateNetwrok=yes\n");
    expect(verify("agent-sudo-typo.service").stderr).toMatch(/Unknown key/);
    writeFileSync(join(root, "etc/systemd/system/agent-sudo-nobin.service"), "[Service]\nExecStart=/nonexistent/node x\n");
    expect(verify("agent-sudo-nobin.service").status).not.toBe(0);
  });

  it("every service has a security ceiling and every ceiling a service", () => {
    expect(Object.keys(thresholds.units).sort()).toEqual(services);
  });

  it.each(services)("systemd-analyze security --offline=yes %s is within its ceiling", (unit) => {
    const r = run(["security", "--offline=yes", `--root=${root}`, "--no-pager", unit]);
    expect(r.status, r.stderr).toBe(0);
    const m = /Overall exposure level for \S+: (\d+\.\d)/.exec(r.stdout);
    expect(m, r.stdout.slice(-500)).not.toBeNull();
    const score = Number(m?.[1]);
    expect(score).toBeLessThanOrEqual(thresholds.units[unit]?.max ?? 0);
  });
});

/** The sandbox unit's bounding set, as systemd/README.md documents it ("The sandbox"). */
const SANDBOX_CAPS = [
  "CAP_SYS_ADMIN",
  "CAP_SETUID",
  "CAP_SETGID",
  "CAP_SETPCAP",
  "CAP_SETFCAP",
  "CAP_CHOWN",
  "CAP_DAC_OVERRIDE",
  "CAP_FOWNER",
  "CAP_FSETID",
  "CAP_KILL",
  "CAP_NET_BIND_SERVICE",
  "CAP_SYS_CHROOT",
  "CAP_AUDIT_WRITE",
];

describe("systemd units: the hardening list (issue 10), read from the files", () => {
  const unprivileged = daemons.filter((u) => u !== "agent-sudo-executor.service");
  // The sandbox keeps a root launcher (mounts, namespaces): its own test below.
  const dropOnly = unprivileged.filter((u) => u !== "agent-sudo-sandbox.service");

  it("has the six services, the learner and its timer, and the target that wants the six and the timer", () => {
    expect(daemons.map((u) => u.replace(/^agent-sudo-|\.service$/g, "")).sort()).toEqual([
      "breaker",
      "classifier",
      "concurrence",
      "executor",
      "gateway",
      "sandbox",
    ]);
    expect(units).toEqual(expect.arrayContaining(["agent-sudo.target", LEARNER.unit, "agent-sudo-rules-learn.timer"]));
    const wants = (one("agent-sudo.target", "Wants") ?? "").split(/\s+/).sort();
    expect(wants).toEqual([...daemons, "agent-sudo-rules-learn.timer"].sort());
  });

  it("the executor cannot rewrite any unit or profile that ships (ReadOnlyPaths=)", () => {
    const ro = (directives("agent-sudo-executor.service").get("ReadOnlyPaths") ?? []).join(" ").split(/\s+/);
    for (const u of units) expect(ro, u).toContain(`-/etc/systemd/system/${u}`);
    for (const p of readdirSync(join(repoRoot, "apparmor"))) expect(ro, p).toContain(`-/etc/apparmor.d/${p}`);
  });

  it("executor: root, no network, control-group kill, delegated cgroup it can write, a task bound", () => {
    const d = directives("agent-sudo-executor.service");
    expect(d.get("User")).toBeUndefined();
    expect(d.get("PrivateNetwork")).toEqual(["yes"]);
    expect(d.get("IPAddressDeny")).toEqual(["any"]);
    expect(d.get("RestrictAddressFamilies")).toEqual(["AF_UNIX"]);
    expect(d.get("KillMode")).toEqual(["control-group"]);
    // Per-command cgroups (services/executor/cgroup.ts): systemd 252's
    // ProtectControlGroups=yes would make /sys/fs/cgroup read-only and defeat Delegate=.
    expect(d.get("Delegate")).toEqual(["yes"]);
    expect(d.has("ProtectControlGroups")).toBe(false);
    // A bound for a fork bomb in any command it runs (systemd's default scales with pid_max: none on big hosts).
    expect(Number(d.get("TasksMax")?.[0])).toBeGreaterThan(0);
    expect(Number(d.get("TasksMax")?.[0])).toBeLessThanOrEqual(8192);
  });

  it.each(dropOnly)(
    "%s: strict filesystem, no home and a private tmp (the judges: the host's, read-only), only the drop's capabilities, @system-service, no new privileges",
    (unit) => {
      const d = directives(unit);
      expect(d.get("ProtectSystem")).toEqual(["strict"]);
      // The two judges see the host's /home and /tmp (read-only): they judge commands by what is there.
      const judge = unit === "agent-sudo-classifier.service" || unit === "agent-sudo-concurrence.service";
      expect(d.get("ProtectHome")).toEqual([judge ? "read-only" : "yes"]);
      expect(d.get("PrivateTmp")).toEqual(judge ? undefined : ["yes"]);
      expect(d.get("ProtectKernelTunables")).toEqual(["yes"]);
      expect(d.get("RestrictNamespaces")).toEqual(["yes"]);
      expect(d.get("CapabilityBoundingSet")).toEqual(["CAP_SETUID CAP_SETGID CAP_CHOWN"]);
      expect(d.get("AmbientCapabilities")).toEqual([""]);
      expect(d.get("SystemCallFilter")).toEqual(["@system-service"]);
      expect(d.get("NoNewPrivileges")).toEqual(["yes"]);
      expect(d.get("ReadWritePaths")?.[0]).toMatch(/^\/var\/lib\/agent-sudo\/run(\s|$)/);
    },
  );

  it("sandbox: the bounding set is exactly the documented one, and covers what a trial keeps", () => {
    const d = directives("agent-sudo-sandbox.service");
    const set = (d.get("CapabilityBoundingSet") ?? []).join(" ").split(/\s+/).filter(Boolean);
    expect(d.get("CapabilityBoundingSet")).toHaveLength(1);
    expect([...set].sort()).toEqual([...SANDBOX_CAPS].sort());
    expect(set).not.toContain("CAP_DAC_READ_SEARCH");
    // systemd/README.md documents the same list.
    const readme = readFileSync(join(unitDir, "README.md"), "utf8");
    const documented = /`CapabilityBoundingSet=([A-Z_ ]+)`/.exec(readme)?.[1]?.split(" ") ?? [];
    expect([...documented].sort()).toEqual([...SANDBOX_CAPS].sort());
    // bubblewrap hands a trial only what its launcher has: every TRIAL_CAPS entry must be here.
    const overlay = readFileSync(join(repoRoot, "services/sandbox/launcher/overlay.ts"), "utf8");
    const trialCaps = [...(/const TRIAL_CAPS = \[([^\]]*)\]/.exec(overlay)?.[1] ?? "").matchAll(/"([^"]+)"/g)].map((m) => m[1] ?? "");
    expect(trialCaps.length).toBeGreaterThan(0);
    for (const c of trialCaps) expect(set, c).toContain(`CAP_${c.toUpperCase()}`);
    expect(d.get("AmbientCapabilities")).toEqual([""]);
  });

  it("sandbox: the namespaces and mounts a trial needs, the host as it is, no network, bounded", () => {
    const d = directives("agent-sudo-sandbox.service");
    expect(d.get("RestrictNamespaces")?.[0]?.split(/\s+/).sort()).toEqual(["cgroup", "ipc", "mnt", "net", "pid", "user", "uts"]);
    expect(d.get("SystemCallFilter")).toEqual(["@system-service @mount"]);
    expect(d.get("NoNewPrivileges")).toEqual(["yes"]);
    expect(d.get("PrivateNetwork")).toEqual(["yes"]);
    expect(d.get("IPAddressDeny")).toEqual(["any"]);
    // AF_NETLINK: bubblewrap brings the trial's loopback up over rtnetlink.
    expect(d.get("RestrictAddressFamilies")).toEqual(["AF_UNIX AF_NETLINK"]);
    expect(d.get("ProtectSystem")).toEqual(["strict"]);
    expect(d.get("ReadWritePaths")).toEqual(["/var/lib/agent-sudo/run /var/lib/agent-sudo/state/sandbox"]);
    // The mirror must see the real host; a fresh /proc must be mountable in the trial.
    for (const key of ["PrivateTmp", "ProtectHome", "ProtectKernelTunables", "ProtectKernelLogs", "User"])
      expect(d.has(key), key).toBe(false);
    expect(d.get("TasksMax")?.[0]).toMatch(/^\d+$/);
    expect(d.get("MemoryMax")?.[0]).toMatch(/^\d+[KMG]?$/);
    expect(d.get("KillMode")).toEqual(["control-group"]);
  });

  it("breaker: its ntfy server only — IP denied but for install's drop-in, no listening port, its environment file", () => {
    const d = directives("agent-sudo-breaker.service");
    expect(d.has("PrivateNetwork")).toBe(false);
    expect(d.get("RestrictAddressFamilies")).toEqual(["AF_UNIX AF_INET AF_INET6"]);
    expect(d.get("IPAddressDeny")).toEqual(["any"]);
    // The allowed addresses come only from agent-sudo-breaker.service.d/ntfy.conf (cli/install-network.ts).
    expect(d.has("IPAddressAllow")).toBe(false);
    expect(d.get("SocketBindDeny")).toEqual(["any"]);
    expect(d.get("EnvironmentFile")).toEqual(["-/var/lib/agent-sudo/breaker.env"]);
    expect(d.get("ReadWritePaths")).toEqual(["/var/lib/agent-sudo/run /var/lib/agent-sudo/state/breaker"]);
  });

  it("gateway: its audit spool is writable and DATABASE_URL reaches it from an environment file", () => {
    const d = directives("agent-sudo-gateway.service");
    expect(d.get("ReadWritePaths")).toEqual(["/var/lib/agent-sudo/run /var/lib/agent-sudo/state/gateway"]);
    expect(d.get("EnvironmentFile")).toEqual(["-/var/lib/agent-sudo/gateway.env"]);
    expect(d.get("RestrictAddressFamilies")).toEqual(["AF_UNIX AF_INET AF_INET6"]);
    expect(d.get("IPAddressAllow")?.[0]).toContain("localhost");
  });

  it.each(daemons)("%s: restart on failure with a start limit, an AppArmor profile that exists, no MemoryDenyWriteExecute", (unit) => {
    const d = directives(unit);
    expect(d.get("Restart")).toEqual(["on-failure"]);
    expect(Number(one(unit, "StartLimitBurst"))).toBeGreaterThan(0);
    expect(Number(one(unit, "StartLimitIntervalSec"))).toBeGreaterThan(0);
    expect(d.has("MemoryDenyWriteExecute")).toBe(false);
    const profile = one(unit, "AppArmorProfile") ?? "";
    expect(profile).toBe(unit.replace(/\.service$/, ""));
    expect(existsSync(join(repoRoot, "apparmor", profile))).toBe(true);
    expect(one(unit, "Environment")).toContain("AGENT_SUDO_HOME=/var/lib/agent-sudo");
    expect(one(unit, "ExecStart")).toMatch(/^\/usr\/bin\/node .*\/opt\/agent-sudo\/dist\/services\/[a-z/]+\/main\.js$/);
  });

  it.each(["agent-sudo-classifier.service", "agent-sudo-concurrence.service"])("%s: no network", (unit) => {
    const d = directives(unit);
    expect(d.get("PrivateNetwork")).toEqual(["yes"]);
    expect(d.get("RestrictAddressFamilies")).toEqual(["AF_UNIX"]);
    expect(d.get("IPAddressDeny")).toEqual(["any"]);
  });

  // The learner binds nothing and reads no key, so it needs no start-up privilege at all.
  it("rules-learn: a oneshot as its own user, no capabilities, every hardening directive the signers have", () => {
    const d = directives(LEARNER.unit);
    expect(d.get("Type")).toEqual(["oneshot"]);
    expect(d.get("User")).toEqual([LEARNER.user]);
    expect(d.get("Group")).toEqual([LEARNER.user]);
    expect(d.has("Restart")).toBe(false);
    expect(d.get("CapabilityBoundingSet")).toEqual([""]);
    expect(d.get("AmbientCapabilities")).toEqual([""]);
    expect(d.has("MemoryDenyWriteExecute")).toBe(false);
    const signer = directives("agent-sudo-classifier.service");
    const hardening = [
      "NoNewPrivileges",
      "ProtectSystem",
      "PrivateDevices",
      "PrivateIPC",
      "PrivateMounts",
      "ProtectProc",
      "ProtectKernelTunables",
      "ProtectKernelModules",
      "ProtectKernelLogs",
      "ProtectControlGroups",
      "ProtectClock",
      "ProtectHostname",
      "RestrictNamespaces",
      "RestrictRealtime",
      "RestrictSUIDSGID",
      "LockPersonality",
      "KeyringMode",
      "SystemCallArchitectures",
      "SystemCallErrorNumber",
      "UMask",
    ];
    for (const key of hardening) expect({ key, v: d.get(key) }).toEqual({ key, v: signer.get(key) });
    // The judges see the host's /home and /tmp (read-only); the learner judges nothing on the host.
    expect(d.get("ProtectHome")).toEqual(["yes"]);
    expect(d.get("PrivateTmp")).toEqual(["yes"]);
    // The signers' filter, minus what only their drop needs.
    expect(d.get("SystemCallFilter")).toEqual(["@system-service", "~@privileged @resources"]);
  });

  it("rules-learn: writes only the proposals store; no key, token, socket or other state; the gateway's destinations, no listening port", () => {
    const d = directives(LEARNER.unit);
    expect(d.get("ReadWritePaths")).toEqual([`/var/lib/agent-sudo/${LEARNER.proposals}`]);
    const hidden = (d.get("InaccessiblePaths") ?? []).join(" ").split(/\s+/);
    for (const p of ["keys", "tokens.json", "run", "logs", "state/executor", "state/gateway", "state/breaker", "state/sandbox"])
      expect(hidden).toContain(`-/var/lib/agent-sudo/${p}`);
    expect(d.get("EnvironmentFile")).toEqual(["-/var/lib/agent-sudo/gateway.env"]);
    expect(d.get("RestrictAddressFamilies")).toEqual(["AF_UNIX AF_INET AF_INET6"]);
    expect(d.get("IPAddressAllow")).toEqual(directives("agent-sudo-gateway.service").get("IPAddressAllow"));
    expect(d.get("IPAddressDeny")).toEqual(["any"]);
    expect(d.get("SocketBindDeny")).toEqual(["any"]);
    expect(one(LEARNER.unit, "ExecStart")).toBe("/usr/bin/node --enable-source-maps /opt/agent-sudo/dist/cli/main.js rules learn");
    expect(existsSync(join(repoRoot, "cli/main.ts"))).toBe(true);
    expect(one(LEARNER.unit, "AppArmorProfile")).toBe("agent-sudo-rules-learn");
    expect(existsSync(join(repoRoot, "apparmor", "agent-sudo-rules-learn"))).toBe(true);
    expect(one(LEARNER.unit, "PartOf")).toBe("agent-sudo.target");
  });

  it("rules-learn.timer: hourly, catches up after downtime, part of the target, starts the learner", () => {
    const t = directives("agent-sudo-rules-learn.timer");
    expect(t.get("OnCalendar")).toEqual(["hourly"]);
    expect(t.get("Persistent")).toEqual(["true"]);
    expect(t.get("WantedBy")).toEqual(["agent-sudo.target"]);
    expect(t.get("PartOf")).toEqual(["agent-sudo.target"]);
    // No Unit=: a timer starts the service of its own name.
    expect(t.has("Unit")).toBe(false);
    expect(services).toContain("agent-sudo-rules-learn.service");
  });

  it("the deployment table in systemd/README.md shows each unit's measured score", () => {
    const readme = readFileSync(join(unitDir, "README.md"), "utf8");
    for (const [unit, t] of Object.entries(thresholds.units)) {
      const row = readme.split("\n").find((l) => l.startsWith("|") && l.includes(`\`${unit}\``));
      expect(row, unit).toBeDefined();
      expect(row).toContain(t.measured.toFixed(1));
    }
  });
});
