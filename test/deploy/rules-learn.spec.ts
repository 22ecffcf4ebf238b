// agent-sudo-rules-learn.service's run, as the unit makes it (as root: creates
// the user): the installed CLI, as the unit's unprivileged user, against a real
// PostgreSQL. It proposes into state/proposals while the policies stay root's
// and untouched; a person's reject (as root, umask 077) leaves a store the
// learner still reads and rewrites; a store an earlier install left beside
// the policies moves into state/proposals with its history. All of it runs
// inside a throwaway root (test/deploy/install-root.ts): the learner's user
// and PostgreSQL's are created there, never on this machine.
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LEARNER } from "../../cli/install-units.js";
import { migrate } from "../../services/gateway/audit/migrate.js";
import { lookupUser } from "../../services/shared/privilege.js";
import { PENDING_FILE, readPending } from "../../services/shared/proposals.js";
import type { Forward } from "../support/throwaway-root.js";
import { type InstallRoot, startInstallRoot } from "./install-root.js";

const isRoot = process.getuid?.() === 0;
/** PostgreSQL's port inside the throwaway root (its own network namespace). */
const PG_PORT = 25432;

describe.skipIf(!isRoot)("rules learn as its unit runs it (as root, inside a throwaway root: creates the learner's user there)", () => {
  let ir: InstallRoot;
  let root: string;
  let insideUrl = "";
  let forward: Forward | undefined;
  let postgres: ReturnType<InstallRoot["tr"]["spawn"]> | undefined;
  const learnerOnHost = lookupUser(LEARNER.user) !== undefined;
  const outside = (p: string) => ir.outside(p);
  const home = () => join(root, "var/lib/agent-sudo");
  const policies = () => join(root, "opt/agent-sudo/policies");
  const store = () => join(home(), LEARNER.proposals);
  const install = () => ir.install("--host", "server-01");
  const cli = () => join(root, "opt/agent-sudo/dist/cli/main.js");
  /** The policies directory: every name with its content. */
  const policyState = () =>
    readdirSync(outside(policies()))
      .sort()
      .map((f) => `${f}:${readFileSync(outside(join(policies(), f)), "utf8").length}`);

  /** The installed CLI as the unit runs it: its user, no capabilities, its environment. */
  async function learn() {
    const r = await ir.asUser(LEARNER.user, [process.execPath, cli(), "rules", "learn"], {
      env: { PATH: "/usr/bin:/bin", AGENT_SUDO_HOME: home(), DATABASE_URL: insideUrl, NODE_ENV: "production" },
      setpriv: ["--bounding-set=-all", "--no-new-privs"],
    });
    return { status: r.code, stdout: r.stdout, stderr: r.stderr };
  }
  /** The installed CLI as a person runs it: root, umask 077. */
  async function asRoot(...args: string[]) {
    const r = await ir.tr.exec(
      [
        "/bin/sh",
        "-c",
        'umask 077; exec "$@"',
        "sh",
        "/usr/bin/env",
        "-i",
        "PATH=/usr/bin:/bin",
        `AGENT_SUDO_HOME=${home()}`,
        process.execPath,
        cli(),
        ...args,
      ],
      { timeoutMs: 60_000 },
    );
    return { status: r.code, stdout: r.stdout, stderr: r.stderr };
  }

  /** A real PostgreSQL inside the throwaway root (as root: its OS user is created there); its URL inside. */
  async function startPostgresInside(): Promise<string> {
    const code = `
      import { chmodSync, mkdtempSync } from "node:fs";
      import { startEmbeddedPostgres } from ${JSON.stringify(join(ir.src, "dist/cli/embedded-postgres.js"))};
      const dir = mkdtempSync("/tmp/agent-sudo-learn-pg-");
      chmodSync(dir, 0o711);
      const db = await startEmbeddedPostgres({ dataDir: dir + "/pg", port: ${PG_PORT} });
      process.stdout.write("URL " + db.url + "\\n");
      process.stdin.resume();
      process.stdin.on("end", () => db.stop().then(() => process.exit(0)));`;
    const child = ir.tr.spawn([process.execPath, "--input-type=module", "-e", code]);
    postgres = child;
    let out = "";
    child.stderr?.on("data", (c: Buffer) => (out += c.toString()));
    return new Promise((resolve, reject) => {
      child.stdout?.on("data", (c: Buffer) => {
        out += c.toString();
        const m = /^URL (\S+)$/m.exec(out);
        if (m?.[1]) resolve(m[1]);
      });
      child.once("exit", (c) => reject(new Error(`PostgreSQL inside the throwaway root exited ${c}:\n${out}`)));
    });
  }

  beforeAll(async () => {
    ir = await startInstallRoot();
    root = ir.root;
    const r = await install();
    expect(r.code, r.err).toBe(0);
    insideUrl = await startPostgresInside();
    forward = await ir.tr.forward(PG_PORT);
    const url = new URL(insideUrl);
    url.port = String(forward.port);
    const c = new pg.Client({ connectionString: url.toString() });
    await c.connect();
    try {
      await migrate(c);
      for (let i = 1; i <= 5; i++) {
        for (const phase of ["intent", "outcome"]) {
          await c.query(
            `INSERT INTO command_audit (request_id, phase, ts, host, caller, source, command, cwd, assigned_tier, decision_type, evidence, exit_code, rollback_taken)
             VALUES ($1, $2, now(), 'server-01', 'ci-bot', 'http', $3, '/srv', 2, $4, '{}', $5, $6)`,
            [
              `req-${i}`,
              phase,
              `acme-report --since 2024010${i}`,
              phase === "intent" ? "pending" : "executed",
              phase === "intent" ? null : 0,
              phase === "intent" ? null : false,
            ],
          );
        }
      }
    } finally {
      await c.end();
    }
  }, 240_000);
  afterAll(async () => {
    postgres?.stdin?.end();
    await forward?.close();
    await ir?.close();
  });

  it("the learner's user exists in the throwaway root only", () => {
    expect(ir.user(LEARNER.user)).toBeDefined();
    expect(lookupUser(LEARNER.user) !== undefined).toBe(learnerOnHost);
  });

  it("its user cannot write the policies: the store has to live elsewhere", async () => {
    const target = join(policies(), "probe");
    const probe = await ir.asUser(LEARNER.user, [
      process.execPath,
      "-e",
      `try{require("fs").writeFileSync(${JSON.stringify(target)},"x");console.log("wrote")}catch(e){console.log(e.code)}`,
    ]);
    expect(probe.stdout.trim(), probe.stderr).toBe("EACCES");
    // root can: the probe tells the two apart.
    const asRootProbe = await ir.tr.exec([
      process.execPath,
      "-e",
      `require("fs").writeFileSync(${JSON.stringify(target)},"x");require("fs").rmSync(${JSON.stringify(target)});console.log("wrote")`,
    ]);
    expect(asRootProbe.stdout.trim()).toBe("wrote");
  });

  let id = "";
  it("proposes into state/proposals, leaves the policies as they were, and a person sees the proposal", async () => {
    const before = policyState();
    const r = await learn();
    expect(r.status, r.stderr).toBe(0);
    id = /added (p-[0-9a-f]{12})/.exec(r.stdout)?.[1] ?? "";
    expect(id, r.stdout).not.toBe("");
    expect(r.stdout).toContain(join(store(), PENDING_FILE));
    expect(readPending(outside(store())).proposals.map((p) => p.id)).toEqual([id]);
    expect(policyState()).toEqual(before);
    expect(existsSync(outside(join(policies(), PENDING_FILE)))).toBe(false);
    const list = await asRoot("rules", "list", "--proposed");
    expect(list.status, list.stderr).toBe(0);
    expect(list.stdout).toContain(id);
  });

  it("after a person's reject (root, umask 077) the learner still reads the store and keeps the shape rejected", async () => {
    const rej = await asRoot("rules", "reject", id, "--reason", "not on this host", "--by", "ops");
    expect(rej.status, rej.stderr).toBe(0);
    const r = await learn();
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/skipped: rejected .* by ops \(not on this host\)/);
    expect(readPending(outside(store())).rejected.map((x) => x.id)).toEqual([id]);
  });

  it("an install moves a store left beside the installed policies into state/proposals, history kept", async () => {
    const kept = readFileSync(outside(join(store(), PENDING_FILE)));
    rmSync(outside(join(store(), PENDING_FILE)));
    writeFileSync(outside(join(policies(), PENDING_FILE)), kept, { mode: 0o644 });
    const { code, out } = await install();
    expect(code).toBe(0);
    expect(out).toContain(`move ${join(policies(), PENDING_FILE)} → ${join(store(), PENDING_FILE)}`);
    expect(existsSync(outside(join(policies(), PENDING_FILE)))).toBe(false);
    expect(readPending(outside(store())).rejected.map((x) => x.id)).toEqual([id]);
    const r = await learn();
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain("skipped: rejected");
  });
});
