// `agent-sudo install` / `uninstall`: the dry run's output (changes nothing),
// and — as root, inside a throwaway root so that the system users it creates
// never reach this machine — a real install into a temporary --root: owners
// and modes of every file, socket directory and key; a second run that
// changes nothing; an uninstall that keeps the state dir.
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installCommand, uninstallCommand } from "../../cli/install.js";
import { inGatewayRanges, parseEnvFile } from "../../cli/install-network.js";
import { LEARNER } from "../../cli/install-units.js";
import { loadConfig } from "../../services/shared/config.js";
import { SIGNERS } from "../../services/shared/keys.js";
import { lookupUser } from "../../services/shared/privilege.js";
import { capture } from "./built-tree.js";
import { type InstallRoot, startInstallRoot } from "./install-root.js";

const isRoot = process.getuid?.() === 0;

const UNITS = [
  "agent-sudo.target",
  "agent-sudo-rules-learn.timer",
  ...["breaker", "classifier", "concurrence", "executor", "gateway", "sandbox", "rules-learn"].map((s) => `agent-sudo-${s}.service`),
];
const PROFILES = ["breaker", "classifier", "concurrence", "executor", "gateway", "rules-learn", "sandbox"].map((s) => `agent-sudo-${s}`);
const USERS = ["agent-sudo-gw", "agent-sudo-cls", "agent-sudo-con", "agent-sudo-sbx", "agent-sudo-brk", LEARNER.user];
const CONFIG = {
  host_id: "server-01",
  http: { bind: "127.0.0.1", port: 8084 },
  executor: { network: "systemd-run" },
  proposals_dir: "state/proposals",
};

function tree(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true }).map(String).sort();
}

describe("install --dry-run", () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), "agent-sudo-dry-"));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("prints every action for server-01 and changes nothing", async () => {
    const { code, out } = await capture(installCommand, ["--host", "server-01", "--dry-run", "--root", root]);
    expect(code).toBe(0);
    expect(tree(root)).toEqual([]);
    expect(out).toContain("dry run: nothing is changed");
    for (const u of UNITS)
      expect(out).toMatch(new RegExp(`would write ${root}/etc/systemd/system/${u.replace(".", "\\.")} \\(0644 root:root\\)`));
    for (const p of PROFILES) expect(out).toMatch(new RegExp(`would write ${root}/etc/apparmor\\.d/${p} \\(0644 root:root\\)`));
    for (const [d, mode] of [
      ["", "0711"],
      ["/run", "0711"],
      ["/state", "0711"],
      ["/logs", "0700"],
      ["/keys", "0755"],
      ["/state/executor", "0700"],
    ] as const) {
      expect(out).toContain(`would mkdir ${root}/var/lib/agent-sudo${d}/ (${mode} root:root)`);
    }
    expect(out).toContain(`would mkdir ${root}/var/lib/agent-sudo/state/gateway/ (0700 agent-sudo-gw:agent-sudo-gw)`);
    expect(out).toContain(`would mkdir ${root}/var/lib/agent-sudo/state/breaker/ (0700 agent-sudo-brk:agent-sudo-brk)`);
    expect(out).toContain(`would mkdir ${root}/var/lib/agent-sudo/state/sandbox/ (0700 agent-sudo-sbx:agent-sudo-sbx)`);
    expect(out).toContain(`would mkdir ${root}/var/lib/agent-sudo/state/proposals/ (0700 agent-sudo-lrn:agent-sudo-lrn)`);
    // No environment files: no network drop-ins (the breaker reaches no IP address at all).
    expect(out).not.toContain(".service.d/");
    for (const signer of SIGNERS) {
      expect(out).toContain(
        `would generate ed25519 signing key ${signer} (keys/${signer}.key 0600 root:root, keys/${signer}.pub 0644 root:root)`,
      );
    }
    expect(out).toContain(`would write ${root}/var/lib/agent-sudo/config.json (0644 root:root): ${JSON.stringify(CONFIG)}`);
    expect(out).toContain(`would write ${root}/var/lib/agent-sudo/tokens.json (0600 root:root)`);
    expect(out).toMatch(new RegExp(`would copy ${root}/opt/agent-sudo/dist/services ← `));
    expect(out).toMatch(new RegExp(`would copy ${root}/opt/agent-sudo/node_modules ← `));
    for (const user of USERS) expect(out).toMatch(new RegExp(`(would create|unchanged) +system user ${user} `));
    expect(out).toMatch(/\d+ would change, \d+ unchanged/);
    expect(out).toContain("next steps");
    expect(out).toContain("systemctl daemon-reload && systemctl enable --now agent-sudo.target");
    expect(out).toContain(`apparmor_parser -r -W -C ${root}/etc/apparmor.d/agent-sudo-*`);
  });

  it("writes primary's host_id for --host primary, and rewrites the prefix", async () => {
    const { out } = await capture(installCommand, ["--host", "primary", "--dry-run", "--root", root, "--prefix", "/srv/agent-sudo"]);
    expect(out).toContain(`config.json (0644 root:root): ${JSON.stringify({ ...CONFIG, host_id: "primary" })}`);
    expect(out).toContain(`would copy ${root}/srv/agent-sudo/dist/services ← `);
    expect(out).not.toContain("-C "); // primary loads its profiles in enforce mode
    expect(tree(root)).toEqual([]);
  });

  it("refuses a missing or unknown host and a shared prefix", async () => {
    await expect(installCommand(["--dry-run", "--root", root])).rejects.toThrow(/--host must be one of primary, server-01/);
    await expect(installCommand(["--host", "laptop", "--dry-run", "--root", root])).rejects.toThrow(/--host/);
    await expect(installCommand(["--host", "primary", "--dry-run", "--root", root, "--prefix", "/usr"])).rejects.toThrow(/--prefix/);
  });

  it("turns the breaker's ntfy URL into IPAddressAllow= and a pinned /etc/hosts; the gateway's public hosts into a drop-in", async () => {
    const staged = mkdtempSync(join(tmpdir(), "agent-sudo-dry-env-"));
    try {
      const home = join(staged, "var/lib/agent-sudo");
      mkdirSync(home, { recursive: true });
      // localhost resolves offline (from /etc/hosts).
      writeFileSync(
        join(home, "breaker.env"),
        "# ntfy\nAGENT_SUDO_NTFY_URL='https://localhost:8443/agent-sudo'\nAGENT_SUDO_NTFY_TOKEN=tk_x\n",
      );
      writeFileSync(
        join(home, "gateway.env"),
        "DATABASE_URL=postgres://audit:pw@203.0.113.5:5432/audit\nAGENT_SUDO_NTFY_URL=http://192.168.1.20/agent-sudo\n",
      );
      const { out } = await capture(installCommand, ["--host", "server-01", "--dry-run", "--root", staged]);
      const dropIn = `${staged}/etc/systemd/system/agent-sudo-breaker.service.d`;
      expect(out).toMatch(new RegExp(`would write ${dropIn}/ntfy\\.conf \\(0644 root:root\\): IPAddressAllow=[0-9a-f.: ]*127\\.0\\.0\\.1`));
      expect(out).toContain(`would write ${dropIn}/ntfy-hosts (0644 root:root) (pinned addresses)`);
      // The LAN ntfy address is in the gateway's own list already; the public database is not.
      expect(out).toContain(
        `would write ${staged}/etc/systemd/system/agent-sudo-gateway.service.d/destinations.conf (0644 root:root): IPAddressAllow=203.0.113.5`,
      );
      // The learner reads the same database: the same drop-in for its unit.
      expect(out).toContain(
        `would write ${staged}/etc/systemd/system/${LEARNER.unit}.d/destinations.conf (0644 root:root): IPAddressAllow=203.0.113.5`,
      );
      expect(out).toMatch(/would fix .*breaker\.env \(0600 root:root\)/);
      // An IP literal needs no pinned hosts file.
      writeFileSync(join(home, "breaker.env"), "AGENT_SUDO_NTFY_URL=http://192.0.2.7/agent-sudo\n");
      const literal = await capture(installCommand, ["--host", "server-01", "--dry-run", "--root", staged]);
      expect(literal.out).toContain(`${dropIn}/ntfy.conf (0644 root:root): IPAddressAllow=192.0.2.7`);
      expect(literal.out).not.toContain("ntfy-hosts");
      writeFileSync(join(home, "breaker.env"), "AGENT_SUDO_NTFY_URL=not a url\n");
      await expect(installCommand(["--host", "server-01", "--dry-run", "--root", staged])).rejects.toThrow(
        /AGENT_SUDO_NTFY_URL in .*breaker\.env is not a URL/,
      );
    } finally {
      rmSync(staged, { recursive: true, force: true });
    }
  });

  it("parses environment files as systemd does, and knows the gateway's own address ranges", () => {
    expect(parseEnvFile("# c\n; c\nA=1\n B = x \nC=\"q v\"\nD='s'\nbad line\n")).toEqual({ A: "1", C: "q v", D: "s" });
    for (const ip of ["127.0.0.1", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.0.9", "169.254.1.1", "::1", "fd00::1", "fe80::1"])
      expect(inGatewayRanges(ip), ip).toBe(true);
    for (const ip of ["172.32.0.1", "8.8.8.8", "203.0.113.5", "2001:db8::1"]) expect(inGatewayRanges(ip), ip).toBe(false);
  });

  it("uninstall --dry-run on an empty root has nothing to do", async () => {
    const { out } = await capture(uninstallCommand, ["--dry-run", "--root", root]);
    expect(out).toContain("nothing to do: not installed");
    expect(tree(root)).toEqual([]);
  });
});

describe.skipIf(!isRoot)("install into a temporary --root inside a throwaway root (as root: creates users, chowns)", () => {
  // Needs root (useradd, chown); CI runs as root. The install runs inside a
  // throwaway root (test/support/throwaway-root.ts): the system users it
  // creates land in that root's /etc/passwd, never this machine's. Files are
  // checked from here through /proc/PID/root.
  let ir: InstallRoot;
  let root: string;
  let first = "";
  let hostUsers: string[] = [];
  const hostHas = () => USERS.filter((u) => lookupUser(u) !== undefined);
  const outside = (p: string) => ir.outside(p);
  const home = () => join(root, "var/lib/agent-sudo");
  const prefix = () => join(root, "opt/agent-sudo");
  const install = (...argv: string[]) => ir.install(...argv);
  const uninstall = (...argv: string[]) => ir.uninstall(...argv);
  const userInside = (name: string) => ir.user(name);

  beforeAll(async () => {
    hostUsers = hostHas();
    ir = await startInstallRoot();
    root = ir.root;
    const r = await install("--host", "server-01");
    expect(r.code, r.err).toBe(0);
    first = r.out;
  }, 180_000);
  afterAll(async () => {
    await ir?.close();
  });

  const uidOf = (user: string) => (user === "root" ? 0 : (userInside(user)?.uid ?? -1));
  function expectMeta(path: string, mode: number, user: string, kind: "file" | "dir" = "file"): void {
    const st = lstatSync(outside(path));
    expect(kind === "dir" ? st.isDirectory() : st.isFile(), path).toBe(true);
    expect({ path, mode: (st.mode & 0o7777).toString(8), uid: st.uid }).toEqual({ path, mode: mode.toString(8), uid: uidOf(user) });
  }

  it("lays out the state dir: directories, socket dir, per-service state, config, tokens", () => {
    expect(first).not.toContain("would ");
    expectMeta(home(), 0o711, "root", "dir");
    expectMeta(join(home(), "run"), 0o711, "root", "dir");
    expectMeta(join(home(), "state"), 0o711, "root", "dir");
    expectMeta(join(home(), "logs"), 0o700, "root", "dir");
    expectMeta(join(home(), "keys"), 0o755, "root", "dir");
    expectMeta(join(home(), "state/executor"), 0o700, "root", "dir");
    expectMeta(join(home(), "state/gateway"), 0o700, "agent-sudo-gw", "dir");
    expectMeta(join(home(), "state/breaker"), 0o700, "agent-sudo-brk", "dir");
    expectMeta(join(home(), "state/sandbox"), 0o700, "agent-sudo-sbx", "dir");
    expectMeta(join(home(), "state/proposals"), 0o700, LEARNER.user, "dir");
    expectMeta(join(home(), "config.json"), 0o644, "root");
    expect(JSON.parse(readFileSync(outside(join(home(), "config.json")), "utf8"))).toEqual(CONFIG);
    expectMeta(join(home(), "tokens.json"), 0o600, "root");
    expect(JSON.parse(readFileSync(outside(join(home(), "tokens.json")), "utf8"))).toEqual({ callers: [] });
    for (const user of USERS) expect(userInside(user), user).toBeDefined();
  });

  it("creates the system users in the root it runs in: none on this machine", () => {
    expect(hostHas()).toEqual(hostUsers);
  });

  it("the learner's unit may write exactly the store config.json names, as the user that owns it", () => {
    const unit = readFileSync(outside(join(root, "etc/systemd/system", LEARNER.unit)), "utf8");
    const rw = /^ReadWritePaths=(.*)$/m.exec(unit)?.[1] ?? "";
    const user = /^User=(.*)$/m.exec(unit)?.[1] ?? "";
    const store = loadConfig(outside(home())).proposalsDir;
    expect(outside(join(root, rw))).toBe(store);
    expect(lstatSync(store).uid).toBe(uidOf(user));
    expect(uidOf(user)).toBeGreaterThan(0);
  });

  it("generates every signer's key pair, the operator's too: private 0600 root, public 0644 root", () => {
    expect(tree(outside(join(home(), "keys")))).toEqual([
      "breaker.key",
      "breaker.pub",
      "classifier.key",
      "classifier.pub",
      "concurrence.key",
      "concurrence.pub",
      "operator.key",
      "operator.pub",
      "sandbox.key",
      "sandbox.pub",
    ]);
    for (const signer of SIGNERS) {
      expectMeta(join(home(), "keys", `${signer}.key`), 0o600, "root");
      expectMeta(join(home(), "keys", `${signer}.pub`), 0o644, "root");
      expect(readFileSync(outside(join(home(), "keys", `${signer}.key`)), "utf8")).toContain("BEGIN PRIVATE KEY");
    }
  });

  it("keeps the operator's private key from every service: no service user can open it, no profile grants it", async () => {
    // A person's key (rollback grants from the CLI as root): no service reads it, before or after its drop.
    const key = join(home(), "keys", "operator.key");
    for (const user of USERS) {
      const probe = await ir.asUser(user, [
        process.execPath,
        "-e",
        `try{require("fs").readFileSync(${JSON.stringify(key)});console.log("read")}catch(e){console.log(e.code)}`,
      ]);
      expect(probe.stdout.trim(), `${user}: ${probe.stderr}`).toBe("EACCES");
    }
    // The probe can tell: root reads it.
    const asRoot = await ir.tr.exec([process.execPath, "-e", `require("fs").readFileSync(${JSON.stringify(key)});console.log("read")`]);
    expect(asRoot.stdout.trim()).toBe("read");
    for (const p of PROFILES) {
      const text = readFileSync(outside(join(root, "etc/apparmor.d", p)), "utf8");
      const grants = text.split("\n").filter((l) => !/^\s*(#|deny\b)/.test(l) && /keys\/(operator\.key|\*\.key|\*\*|\*(\s|,))/.test(l));
      expect(grants, p).toEqual([]);
    }
    for (const u of UNITS) expect(readFileSync(outside(join(root, "etc/systemd/system", u)), "utf8"), u).not.toContain("operator");
  });

  it("installs the units and profiles 0644 root", () => {
    expect(tree(outside(join(root, "etc/systemd/system")))).toEqual([...UNITS].sort());
    expect(tree(outside(join(root, "etc/apparmor.d")))).toEqual(PROFILES);
    for (const u of UNITS) expectMeta(join(root, "etc/systemd/system", u), 0o644, "root");
    for (const p of PROFILES) expectMeta(join(root, "etc/apparmor.d", p), 0o644, "root");
    expect(readFileSync(outside(join(root, "etc/systemd/system/agent-sudo-gateway.service")), "utf8")).toContain(
      "/opt/agent-sudo/dist/services/gateway/main.js",
    );
  });

  it("installs the code root-owned and writable by root alone (the executor runs it as root)", () => {
    const paths = tree(outside(prefix()));
    expect(paths).toEqual(
      expect.arrayContaining([
        "bin/agent-sudo",
        "dist/services/executor/main.js",
        "dist/services/concurrence/main.js",
        "package.json",
        "node_modules/@grpc/grpc-js/package.json",
        "node_modules/zod/package.json",
      ]),
    );
    expect(paths.some((p) => p.startsWith("node_modules/vitest") || p.startsWith("node_modules/typescript"))).toBe(false);
    for (const rel of paths) {
      const st = lstatSync(outside(join(prefix(), rel)));
      expect({ rel, uid: st.uid, gid: st.gid }).toEqual({ rel, uid: 0, gid: 0 });
      if (st.isSymbolicLink()) continue;
      expect({ rel, mode: (st.mode & 0o7777).toString(8) }).toEqual({
        rel,
        mode: st.isDirectory() || (st.mode & 0o100) !== 0 ? "755" : "644",
      });
    }
    expectMeta(join(prefix(), "bin/agent-sudo"), 0o755, "root");
  });

  it("a second run changes nothing and says so", async () => {
    const { code, out } = await install("--host", "server-01");
    expect(code).toBe(0);
    expect(out).toMatch(/nothing to do: all \d+ actions unchanged/);
    expect(
      out
        .split("\n")
        .filter((l) => /^ {2}\S/.test(l) && !l.startsWith("  unchanged"))
        .filter((l) => !/^ {2}(the|[0-9]\.)/.test(l)),
    ).toEqual([]);
  });

  it("writes the breaker's network drop-in from breaker.env, and removes it when the URL goes", async () => {
    const dir = join(root, "etc/systemd/system/agent-sudo-breaker.service.d");
    const env = outside(join(home(), "breaker.env"));
    writeFileSync(env, "AGENT_SUDO_NTFY_URL=https://localhost/agent-sudo\n", { mode: 0o644 });
    chmodSync(env, 0o644);
    expect((await install("--host", "server-01")).code).toBe(0);
    expectMeta(join(home(), "breaker.env"), 0o600, "root");
    const conf = readFileSync(outside(join(dir, "ntfy.conf")), "utf8");
    expect(conf).toMatch(/^\[Service\]$/m);
    expect(conf).toMatch(/^IPAddressAllow=.*127\.0\.0\.1/m);
    expect(conf).toContain("BindReadOnlyPaths=/etc/systemd/system/agent-sudo-breaker.service.d/ntfy-hosts:/etc/hosts\n");
    expect(readFileSync(outside(join(dir, "ntfy-hosts")), "utf8")).toMatch(/^127\.0\.0\.1 localhost$/m);
    expectMeta(join(dir, "ntfy.conf"), 0o644, "root");
    expect((await install("--host", "server-01")).out).toMatch(/nothing to do/);
    writeFileSync(env, "# no ntfy\n", { mode: 0o600 });
    await install("--host", "server-01");
    expect(existsSync(outside(join(dir, "ntfy.conf")))).toBe(false);
    expect(existsSync(outside(join(dir, "ntfy-hosts")))).toBe(false);
    rmSync(env);
  });

  it("refuses to turn server-01's config into primary's", async () => {
    const r = await install("--host", "primary");
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/host_id "server-01"/);
  });

  it("uninstall removes units, profiles and code, keeps the state dir; uninstall --purge --dry-run lists the rest", async () => {
    const { code } = await uninstall();
    expect(code).toBe(0);
    expect(tree(outside(join(root, "etc/systemd/system")))).toEqual([]);
    expect(tree(outside(join(root, "etc/apparmor.d")))).toEqual([]);
    expect(existsSync(outside(prefix()))).toBe(false);
    expectMeta(join(home(), "keys/classifier.key"), 0o600, "root");
    const purge = await uninstall("--purge", "--dry-run");
    expect(purge.out).toContain(`would remove ${home()}/ (keys, tokens, journal, audit spool, proposals)`);
    for (const user of USERS) expect(purge.out).toContain(`would userdel system user ${user}`);
    expect(existsSync(outside(home()))).toBe(true);
    const again = await install("--host", "server-01");
    expect(again.out).toContain("unchanged  ed25519 signing key classifier");
  }, 180_000);
});
