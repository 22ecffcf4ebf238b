// A gated run (shared/envelope/server.ts `gated`, program.ts `$GATE`): the envelope is built
// at once and the command runs only once its caller releases it — the
// executor makes its journal entry durable meanwhile (execute.ts). Never
// released, nothing runs. Real server, real kernel, a live envelope writing
// into a scratch directory on the root disk (the write is what must not
// happen before the release); needs root.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { childPids } from "../../test/support/processes.js";
import { EnvelopeServer } from "../shared/envelope/server.js";
import { envelopeReadiness, envelopeWords, liveSpec, readOnlySpec } from "../shared/envelope/spec.js";
import { runCommand } from "./run.js";

// The executor's own check: Linux, a system-call table for this CPU, root, perl.
const READY = envelopeReadiness();
const SKIP = READY === "ok" ? undefined : READY;
if (SKIP) console.log(`run-gate.spec.ts skipped: ${SKIP}`);

const ENV = { PATH: "/usr/sbin:/usr/bin:/sbin:/bin", LC_ALL: "C" };
let server: EnvelopeServer;
let dir = "";
let lost = "";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function gated(words: string[]) {
  const out: Buffer[] = [];
  const run = server.run({ kind: "envelope", args: words, env: ENV, gated: true, onStdout: (c) => out.push(c), onStderr: () => undefined });
  let ended = false;
  void run.done.finally(() => (ended = true)).catch(() => undefined);
  return { run, out: () => Buffer.concat(out).toString(), ended: () => ended };
}

describe.skipIf(!!SKIP)("a gated run", () => {
  beforeAll(() => {
    server = EnvelopeServer.start((why) => (lost = why));
    dir = mkdtempSync("/var/lib/agent-sudo-gate-test-");
  });
  afterAll(() => {
    server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
    expect(lost).toBe("");
  });

  it("is built but runs only when released, from a fresh child and from a spare alike", async () => {
    for (const round of [1, 2, 3]) {
      const file = join(dir, `released-${round}`);
      const g = gated(envelopeWords(liveSpec({ masks: [], cwd: "/" }), ["/bin/sh", "-c", `touch ${file}; echo ran`]));
      await sleep(300);
      expect(existsSync(file)).toBe(false);
      expect(g.out()).toBe("");
      expect(g.ended()).toBe(false);
      g.run.go();
      const exit = await g.run.done;
      expect(exit).toMatchObject({ code: 0, status: "ok\n" });
      expect(g.out()).toBe("ran\n");
      expect(existsSync(file)).toBe(true);
    }
  });

  it("never released and killed: nothing ran, no ok", async () => {
    const file = join(dir, "never");
    const g = gated(envelopeWords(liveSpec({ masks: [], cwd: "/" }), ["/bin/sh", "-c", `touch ${file}`]));
    const pid = await g.run.pid;
    await sleep(200);
    process.kill(-pid, "SIGKILL");
    const exit = await g.run.done;
    expect(exit.status).not.toContain("ok");
    expect(existsSync(file)).toBe(false);
  });

  it("runCommand: a gate that opens runs the command; one that is shut kills it unrun, with the reason", async () => {
    const base = {
      server,
      timeoutS: 10,
      env: ENV,
      stdoutCap: 1 << 20,
      stderrCap: 1 << 20,
    };
    const ran = join(dir, "opened");
    const open = sleep(200);
    const r1 = await runCommand({
      ...base,
      launch: { kind: "envelope", args: envelopeWords(liveSpec({ masks: [], cwd: "/" }), ["/bin/sh", "-c", `touch ${ran}`]) },
      gate: open,
    });
    expect(r1).toMatchObject({ exitCode: 0 });
    expect(r1.setupError).toBeUndefined();
    expect(existsSync(ran)).toBe(true);

    const shutOut = join(dir, "shut");
    const shut = sleep(200).then(() => {
      throw new Error("journal write failed");
    });
    const r2 = await runCommand({
      ...base,
      launch: { kind: "envelope", args: envelopeWords(liveSpec({ masks: [], cwd: "/" }), ["/bin/sh", "-c", `touch ${shutOut}`]) },
      gate: shut,
    });
    expect(r2.setupError).toBe("its caller did not release it (nothing ran)");
    expect(existsSync(shutOut)).toBe(false);

    // A read-only (tier-0) envelope: the same gate, its own pid namespace (the spare's path).
    const r3 = await runCommand({
      ...base,
      launch: {
        kind: "envelope",
        args: envelopeWords(readOnlySpec({ masks: [], cwd: "/", network: false }), ["/bin/sh", "-c", "echo $$"]),
      },
      gate: sleep(100),
    });
    expect(Buffer.from(r3.stdout).toString()).toBe("1\n");
  });

  it("a spare slow to read its request still finds the release that followed it in the same pipe", async () => {
    const words = envelopeWords(readOnlySpec({ masks: [], cwd: "/", network: false }), ["/bin/echo", "released"]);
    const first = gated(words);
    first.run.go();
    await first.run.done; // a spare is forked once nothing runs
    const pid = server.pid ?? 0;
    let spare: number | undefined;
    for (let i = 0; i < 100 && spare === undefined; i++) {
      spare = childPids(pid)[0];
      if (spare === undefined) await sleep(20);
    }
    expect(spare).toBeDefined();
    process.kill(spare ?? 0, "SIGSTOP");
    try {
      // Request and release both wait in the spare's pipe before it reads a byte.
      const g = gated(words);
      await sleep(100);
      g.run.go();
      await sleep(100);
      process.kill(spare ?? 0, "SIGCONT");
      const timeout = sleep(5000).then(() => "still waiting for its release");
      expect(await Promise.race([g.run.done.then((e) => e.status), timeout])).toBe("ok\n");
      expect(g.out()).toBe("released\n");
    } finally {
      try {
        process.kill(spare ?? 0, "SIGCONT");
      } catch {
        // ran and gone
      }
    }
  });

  it("a release for a run that is not gated, or already ended, changes nothing", async () => {
    const out: Buffer[] = [];
    const words = envelopeWords(readOnlySpec({ masks: [], cwd: "/", network: false }), ["/bin/echo", "plain"]);
    const run = server.run({ kind: "envelope", args: words, env: ENV, onStdout: (c) => out.push(c), onStderr: () => undefined });
    run.go();
    expect(await run.done).toMatchObject({ code: 0, status: "ok\n" });
    run.go();
    expect(Buffer.concat(out).toString()).toBe("plain\n");
    // The server still answers.
    const g = gated(words);
    g.run.go();
    expect((await g.run.done).code).toBe(0);
  });
});
