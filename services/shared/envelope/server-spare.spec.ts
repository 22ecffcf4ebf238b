// The warm server's spare child (program.ts `new_kid`): once asked for a pid
// namespace, the server forks the next such child ahead whenever nothing
// runs, born as pid 1 of a fresh pid namespace and blocked on its control
// pipe, so the fork leaves the request's path. What it must not change: the child reads
// nothing of the host before its request arrives — its mount namespace,
// masks, read-only view, environment and command are the request's, made
// when it comes. Real server, real kernel, scratch paths on the root disk
// (a tier-0 /tmp is a scratch overlay: a write not landing there proves
// nothing); needs root.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { childPids } from "../../../test/support/processes.js";
import { EnvelopeServer } from "./server.js";
import { envelopeReadiness, envelopeWords, readOnlySpec } from "./spec.js";

// The executor's own check: Linux, a system-call table for this CPU, root, perl.
const READY = envelopeReadiness();
const SKIP = READY === "ok" ? undefined : READY;
if (SKIP) console.log(`server-spare.spec.ts skipped: ${SKIP}`);

const ENV = { PATH: "/usr/sbin:/usr/bin:/sbin:/bin", LC_ALL: "C" };
let server: EnvelopeServer;
let dir = "";
let lost = "";

async function tier0(cmd: string, o: { masks?: string[]; env?: Record<string, string> } = {}) {
  const words = envelopeWords(readOnlySpec({ masks: o.masks ?? [], cwd: "/", network: false }), ["/bin/bash", "-c", cmd]);
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  const run = server.run({ kind: "envelope", args: words, env: o.env ?? ENV, onStdout: (c) => out.push(c), onStderr: (c) => err.push(c) });
  const exit = await run.done;
  return { code: exit.code, status: exit.status, stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString() };
}

async function until(what: () => boolean, ms = 5000): Promise<boolean> {
  const end = Date.now() + ms;
  while (!what() && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
  return what();
}

describe.skipIf(!!SKIP)("the warm server's spare child", () => {
  beforeAll(() => {
    server = EnvelopeServer.start((why) => (lost = why));
    dir = mkdtempSync("/var/lib/agent-sudo-spare-test-");
  });
  afterAll(() => {
    server?.close();
    if (dir) {
      spawnQuiet("umount", ["-l", join(dir, "late-mount")]);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("is forked after the first pid-namespace request, idle, in a pid namespace of its own", async () => {
    const first = await tier0("echo $$");
    expect(first.stdout.trim()).toBe("1");
    const pid = server.pid ?? 0;
    expect(await until(() => childPids(pid).length === 1)).toBe(true);
    const [spare] = childPids(pid);
    // Not the server's pid namespace: born as pid 1 of a new one.
    expect(readFileSync(`/proc/${spare}/status`, "utf8")).toMatch(/^NSpid:\s+\d+\s+1$/m);
    expect(execFileSync("readlink", [`/proc/${spare}/ns/mnt`]).toString()).toBe(execFileSync("readlink", ["/proc/self/ns/mnt"]).toString());
  });

  it("sees the host as it is when the request comes: a mount made after its fork is read-only inside, a path masked then is empty", async () => {
    await tier0("true"); // a spare is waiting now
    const late = join(dir, "late-mount");
    mkdirSync(late);
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=1m", "agent-sudo-spare-test", late]);
    writeFileSync(join(late, "seen"), "mounted-after-the-fork\n");
    const marker = randomBytes(12).toString("hex");
    const secret = join(dir, "made-later");
    mkdirSync(secret);
    writeFileSync(join(secret, "key"), `${marker}\n`);
    const r = await tier0(`cat ${late}/seen; echo x > ${late}/written; echo "write=$?"; cat ${secret}/key; ls -A ${secret}`, {
      masks: [secret],
    });
    expect(r.status).toBe("ok\n");
    expect(r.stdout).toContain("mounted-after-the-fork");
    expect(r.stdout).toContain("write=1");
    expect(r.stderr).toMatch(/Read-only file system/);
    expect(existsSync(join(late, "written"))).toBe(false);
    expect(r.stdout + r.stderr).not.toContain(marker);
  });

  it("gives each request its own environment and pid namespace, whether spare or fresh", async () => {
    const seen: string[] = [];
    for (let i = 0; i < 6; i++) {
      const r = await tier0('echo "$$ ${V:-unset} ${W:-unset}"', { env: { ...ENV, ...(i % 2 ? { V: `v${i}` } : { W: `w${i}` }) } });
      seen.push(r.stdout.trim());
    }
    expect(seen).toEqual(["1 unset w0", "1 v1 unset", "1 unset w2", "1 v3 unset", "1 unset w4", "1 v5 unset"]);
  });

  it("a spare killed while waiting is reaped and replaced; requests still run", async () => {
    await tier0("true");
    const pid = server.pid ?? 0;
    expect(await until(() => childPids(pid).length === 1)).toBe(true);
    const [spare] = childPids(pid);
    process.kill(spare ?? 0, "SIGKILL");
    // Reaped (no zombie left) and, since nothing runs, replaced by a new one.
    expect(await until(() => childPids(pid).length === 1 && childPids(pid)[0] !== spare)).toBe(true);
    for (let i = 0; i < 3; i++) expect((await tier0(`echo run${i}`)).stdout).toBe(`run${i}\n`);
    expect(await until(() => childPids(pid).length === 1)).toBe(true);
    expect(lost).toBe("");
  });

  it("goes with the server: nothing is left once it is closed", async () => {
    const other = EnvelopeServer.start(() => undefined);
    const words = envelopeWords(readOnlySpec({ masks: [], cwd: "/", network: false }), ["/bin/true"]);
    await other.run({ kind: "envelope", args: words, env: ENV, onStdout: () => undefined, onStderr: () => undefined }).done;
    const pid = other.pid ?? 0;
    expect(await until(() => childPids(pid).length === 1)).toBe(true);
    const [spare] = childPids(pid);
    other.close();
    expect(await until(() => !existsSync(`/proc/${spare}`) || readFileSync(`/proc/${spare}/stat`, "utf8").includes(") Z "))).toBe(true);
  });
});

function spawnQuiet(file: string, args: string[]): void {
  try {
    execFileSync(file, args, { stdio: "ignore" });
  } catch {
    // nothing mounted there
  }
}
