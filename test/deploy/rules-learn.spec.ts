// agent-sudo-rules-learn.service's run, as the unit makes it (as root: creates
// the user): the installed CLI, as the unit's unprivileged user, against a real
// PostgreSQL. It proposes into state/proposals while the policies stay root's
// and untouched; a person's reject (as root, umask 077) leaves a store the
// learner still reads and rewrites; a store an earlier install left beside
// the policies moves into state/proposals with its history.
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installCommand, LEARNER } from "../../cli/install.js";
import { migrate } from "../../services/gateway/audit/migrate.js";
import { lookupUser } from "../../services/shared/privilege.js";
import { PENDING_FILE, readPending } from "../../services/shared/proposals.js";
import { startTestPostgres, type TestPostgres } from "../audit/postgres-fixture.js";
import { capture, snapshot } from "./built-tree.js";

const isRoot = process.getuid?.() === 0;

describe.skipIf(!isRoot)("rules learn as its unit runs it (as root: creates the learner's user)", () => {
  let root: string;
  let src: string;
  let db: TestPostgres;
  const home = () => join(root, "var/lib/agent-sudo");
  const policies = () => join(root, "opt/agent-sudo/policies");
  const store = () => join(home(), LEARNER.proposals);
  const install = () => capture(installCommand, ["--host", "server-01", "--root", root, "--from", src]);
  const cli = () => join(root, "opt/agent-sudo/dist/cli/main.js");
  /** The policies directory: every name with its content. */
  const policyState = () => readdirSync(policies()).sort().map((f) => `${f}:${readFileSync(join(policies(), f), "utf8").length}`);

  /** The installed CLI as the unit runs it: its user, no capabilities, its environment. */
  function learn() {
    const u = lookupUser(LEARNER.user);
    expect(u).toBeDefined();
    return spawnSync("/usr/bin/setpriv", ["--reuid", String(u?.uid), "--regid", String(u?.gid), "--clear-groups", "--bounding-set=-all", "--no-new-privs", "--", process.execPath, cli(), "rules", "learn"], {
      env: { PATH: "/usr/bin:/bin", AGENT_SUDO_HOME: home(), DATABASE_URL: db.url, NODE_ENV: "production" },
      encoding: "utf8",
      timeout: 120_000,
    });
  }
  /** The installed CLI as a person runs it: root, umask 077. */
  const asRoot = (...args: string[]) =>
    spawnSync("/bin/sh", ["-c", 'umask 077; exec "$@"', "sh", process.execPath, cli(), ...args], { env: { PATH: "/usr/bin:/bin", AGENT_SUDO_HOME: home() }, encoding: "utf8", timeout: 60_000 });

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), "agent-sudo-learn-"));
    chmodSync(root, 0o755);
    src = snapshot();
    expect((await install()).code).toBe(0);
    db = await startTestPostgres();
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    try {
      await migrate(c);
      for (let i = 1; i <= 5; i++) {
        for (const phase of ["intent", "outcome"]) {
          await c.query(
            `INSERT INTO command_audit (request_id, phase, ts, host, caller, source, command, cwd, assigned_tier, decision_type, evidence, exit_code, rollback_taken)
             VALUES ($1, $2, now(), 'server-01', 'ci-bot', 'http', $3, '/srv', 2, $4, '{}', $5, $6)`,
            [`req-${i}`, phase, `acme-report --since 2024010${i}`, phase === "intent" ? "pending" : "executed", phase === "intent" ? null : 0, phase === "intent" ? null : false],
          );
        }
      }
    } finally {
      await c.end();
    }
  }, 240_000);
  afterAll(async () => {
    await db?.stop();
    if (root) rmSync(root, { recursive: true, force: true });
    if (src) rmSync(src, { recursive: true, force: true });
  });

  it("its user cannot write the policies: the store has to live elsewhere", () => {
    const u = lookupUser(LEARNER.user);
    const probe = spawnSync(process.execPath, ["-e", `try{require("fs").writeFileSync(${JSON.stringify(join(policies(), "probe"))},"x");console.log("wrote")}catch(e){console.log(e.code)}`], { uid: u?.uid, gid: u?.gid, encoding: "utf8" });
    expect(probe.stdout.trim()).toBe("EACCES");
  });

  let id = "";
  it("proposes into state/proposals, leaves the policies as they were, and a person sees the proposal", () => {
    const before = policyState();
    const r = learn();
    expect(r.status, r.stderr).toBe(0);
    id = /added (p-[0-9a-f]{12})/.exec(r.stdout)?.[1] ?? "";
    expect(id, r.stdout).not.toBe("");
    expect(r.stdout).toContain(join(store(), PENDING_FILE));
    expect(readPending(store()).proposals.map((p) => p.id)).toEqual([id]);
    expect(policyState()).toEqual(before);
    expect(existsSync(join(policies(), PENDING_FILE))).toBe(false);
    const list = asRoot("rules", "list", "--proposed");
    expect(list.status, list.stderr).toBe(0);
    expect(list.stdout).toContain(id);
  });

  it("after a person's reject (root, umask 077) the learner still reads the store and keeps the shape rejected", () => {
    const rej = asRoot("rules", "reject", id, "--reason", "not on this host", "--by", "ops");
    expect(rej.status, rej.stderr).toBe(0);
    const r = learn();
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/skipped: rejected .* by ops \(not on this host\)/);
    expect(readPending(store()).rejected.map((x) => x.id)).toEqual([id]);
  });

  it("an install moves a store left beside the installed policies into state/proposals, history kept", async () => {
    const kept = readFileSync(join(store(), PENDING_FILE));
    rmSync(join(store(), PENDING_FILE));
    writeFileSync(join(policies(), PENDING_FILE), kept, { mode: 0o644 });
    const { code, out } = await install();
    expect(code).toBe(0);
    expect(out).toContain(`move ${join(policies(), PENDING_FILE)} → ${join(store(), PENDING_FILE)}`);
    expect(existsSync(join(policies(), PENDING_FILE))).toBe(false);
    expect(readPending(store()).rejected.map((x) => x.id)).toEqual([id]);
    const r = learn();
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain("skipped: rejected");
  });
});
