// runCommand for real, through a real warm envelope server (perl): a real
// shell in a temp dir, no mocks. The envelope protocol is exercised with a
// fake envelope program (sh) that reports its setup on fd 3: "ok\n" and then
// exec's the command, or "error: …" and exits.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EnvelopeServer } from "../shared/envelope/server.js";
import { runCommand, type RunSpec } from "./run.js";

let dir: string;
let server: EnvelopeServer;
let lost = "";
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "agent-sudo-run-"));
  server = EnvelopeServer.start((why) => (lost = why));
});
afterAll(() => {
  server.close();
  expect(lost).toBe("");
  rmSync(dir, { recursive: true, force: true });
});

/** `bash -c command` in the temp dir (a plain run: no fd 3), or `over.launch` as it is. */
function spec(command: string, over: Partial<RunSpec> & { cwd?: string; shell?: string } = {}): RunSpec {
  const { cwd = dir, shell = "/bin/bash", ...rest } = over;
  return {
    server,
    launch: { kind: "plain", args: [shell, "-c", `cd ${cwd} && ${command}`] },
    timeoutS: 10,
    env: { PATH: "/usr/local/bin:/usr/bin:/bin", LANG: "C.UTF-8" },
    stdoutCap: 1024 * 1024,
    stderrCap: 256 * 1024,
    ...rest,
  };
}

/** A pid is gone when it no longer exists or is a zombie awaiting its reaper. */
function gone(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
    return state === "Z" || state === "X";
  } catch {
    return true;
  }
}

async function waitGone(pid: number, ms = 2000): Promise<boolean> {
  const t0 = Date.now();
  while (Date.now() - t0 < ms) {
    if (gone(pid)) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return gone(pid);
}

describe("runCommand", () => {
  it("captures stdout and stderr separately and reports exit 0", async () => {
    const r = await runCommand(spec("echo out; echo err >&2"));
    expect(r.exitCode).toBe(0);
    expect(r.stdout.toString()).toBe("out\n");
    expect(r.stderr.toString()).toBe("err\n");
    expect(r.truncated).toBe(false);
    expect(r.timedOut).toBe(false);
    expect(r.signal).toBe("");
    expect(r.durationMs).toBeGreaterThanOrEqual(0);
  });

  it("reports non-zero exit codes as they are", async () => {
    expect((await runCommand(spec("exit 3"))).exitCode).toBe(3);
    expect((await runCommand(spec("false"))).exitCode).toBe(1);
    const ls = await runCommand(spec("ls /nonexistent-agent-sudo"));
    expect(ls.exitCode).toBe(2);
    expect(ls.stderr.toString()).toContain("nonexistent-agent-sudo");
  });

  it("reports death by signal as 128+n with the signal name", async () => {
    const r = await runCommand({ ...spec(""), launch: { kind: "plain", args: ["/bin/bash", "-c", "kill -TERM $$"] } });
    expect(r.exitCode).toBe(143);
    expect(r.signal).toBe("SIGTERM");
    expect(r.timedOut).toBe(false);
  });

  it("caps stdout, sets truncated, and lets the command run to completion", async () => {
    const marker = join(dir, "cap-finished");
    const r = await runCommand(spec(`head -c 200000 /dev/zero; echo done > ${marker}; exit 5`, { stdoutCap: 1000 }));
    expect(r.stdout.length).toBe(1000);
    expect(r.truncated).toBe(true);
    expect(r.exitCode).toBe(5);
    expect(r.timedOut).toBe(false);
    expect(existsSync(marker)).toBe(true);
  });

  it("caps stderr too", async () => {
    const r = await runCommand(spec("head -c 50000 /dev/zero >&2; echo ok", { stderrCap: 100 }));
    expect(r.stderr.length).toBe(100);
    expect(r.truncated).toBe(true);
    expect(r.stdout.toString()).toBe("ok\n");
    expect(r.exitCode).toBe(0);
  });

  it("output exactly at the cap is not truncated", async () => {
    const r = await runCommand(spec("printf 'abcdefghij'", { stdoutCap: 10 }));
    expect(r.stdout.toString()).toBe("abcdefghij");
    expect(r.truncated).toBe(false);
  });

  it("kills the whole process group on timeout, background child included", async () => {
    const t0 = Date.now();
    const r = await runCommand(spec("sleep 30 & echo $!; wait", { timeoutS: 1 }));
    const elapsed = Date.now() - t0;
    expect(r.timedOut).toBe(true);
    expect(r.exitCode).toBe(124);
    expect(elapsed).toBeLessThan(5000);
    const child = Number(r.stdout.toString().trim());
    expect(child).toBeGreaterThan(1);
    expect(await waitGone(child)).toBe(true);
  });

  it("kills a background child the shell left behind when it exits", async () => {
    const r = await runCommand(spec("sleep 30 >/dev/null 2>&1 & echo $!"));
    expect(r.exitCode).toBe(0);
    expect(r.timedOut).toBe(false);
    const child = Number(r.stdout.toString().trim());
    expect(child).toBeGreaterThan(1);
    expect(await waitGone(child)).toBe(true);
  });

  it("gives no stdin: reads get EOF at once", async () => {
    const r = await runCommand(spec('read -r line; echo "rc=$? line=[$line]"; cat; echo end', { timeoutS: 5 }));
    expect(r.timedOut).toBe(false);
    expect(r.stdout.toString()).toBe("rc=1 line=[]\nend\n");
  });

  it("passes only the given environment: the test process's variables are absent", async () => {
    process.env.AGENT_SUDO_RUN_SPEC_SECRET = "leak-me-if-you-can";
    try {
      const r = await runCommand(spec("env"));
      expect(r.exitCode).toBe(0);
      const env = r.stdout.toString();
      expect(env).not.toContain("AGENT_SUDO_RUN_SPEC_SECRET");
      expect(env).not.toContain("leak-me-if-you-can");
      expect(env).toContain("LANG=C.UTF-8");
      const names = env
        .split("\n")
        .filter(Boolean)
        .map((l) => l.slice(0, l.indexOf("=")));
      // bash itself adds PWD, SHLVL and _ (and OLDPWD: this test's `cd`); nothing else may appear.
      expect(names.filter((n) => !["PATH", "LANG", "PWD", "OLDPWD", "SHLVL", "_"].includes(n))).toEqual([]);
    } finally {
      delete process.env.AGENT_SUDO_RUN_SPEC_SECRET;
    }
  });

  it("reports a missing program as exit 127 without throwing", async () => {
    const r = await runCommand(spec("echo hi", { shell: join(dir, "no-such-shell") }));
    expect(r.exitCode).toBe(127);
    expect(r.stdout.length).toBe(0);
    expect(r.timedOut).toBe(false);
  });

  it("runs many at once, each answer its own", async () => {
    const rs = await Promise.all(Array.from({ length: 40 }, (_, i) => runCommand(spec(`echo out-${i}; echo err-${i} >&2; exit ${i % 7}`))));
    for (const [i, r] of rs.entries())
      expect([r.stdout.toString(), r.stderr.toString(), r.exitCode]).toEqual([`out-${i}\n`, `err-${i}\n`, i % 7]);
  });

  it("carries a large output whole, byte for byte", async () => {
    const r = await runCommand(spec("head -c 3000000 /dev/urandom | tee big | sha256sum >&2; cat big", { stdoutCap: 4 << 20 }));
    const { createHash } = await import("node:crypto");
    expect(r.stdout.length).toBe(3_000_000);
    expect(createHash("sha256").update(r.stdout).digest("hex")).toBe(r.stderr.toString().split(" ")[0]);
  });

  it("a plain command has no fd 3", async () => {
    const r = await runCommand(spec("{ echo x >&3; } 2>/dev/null; echo rc=$?"));
    expect(r.stdout.toString()).toBe("rc=1\n");
    expect(r.setupError).toBeUndefined();
  });
});

describe("runCommand with a launch program", () => {
  /** A fake envelope: sh running `script`, with fd 3 for its status. */
  const launch = (script: string) => ({ kind: "exec" as const, args: ["/bin/sh", "-c", script] });

  it("starts the launch program as it is", async () => {
    const r = await runCommand(spec("echo not-this", { launch: { kind: "plain", args: ["/bin/echo", "launched", "-c"] } }));
    expect(r.stdout.toString()).toBe("launched -c\n");
    expect(r.exitCode).toBe(0);
    expect(r.setupError).toBeUndefined();
  });

  it('envelope reports "error: …" on fd 3: setupError, exit 125, no output', async () => {
    const r = await runCommand(spec("echo never", { launch: launch('echo "error: nope" >&3; exit 125') }));
    expect(r.setupError).toBe("nope");
    expect(r.exitCode).toBe(125);
    expect(r.stdout.length).toBe(0);
    expect(r.stderr.length).toBe(0);
    expect(r.timedOut).toBe(false);
  });

  it("envelope error: whatever it printed before is dropped, and the first error line is the reason", async () => {
    const r = await runCommand(
      spec("true", { launch: launch('echo partial; echo oops >&2; printf "warming up\\nerror: cannot mount /proc\\n" >&3; exit 1') }),
    );
    expect(r.setupError).toBe("cannot mount /proc");
    expect(r.exitCode).toBe(125);
    expect(r.stdout.length).toBe(0);
    expect(r.stderr.length).toBe(0);
  });

  it('envelope reports "ok" on fd 3 then exec\'s the command: its output, exit code and signal are the result', async () => {
    const r = await runCommand(spec("unused", { launch: launch("echo ok >&3; exec sh -c 'echo hi; echo err >&2; exit 4'") }));
    expect(r.setupError).toBeUndefined();
    expect(r.exitCode).toBe(4);
    expect(r.stdout.toString()).toBe("hi\n");
    expect(r.stderr.toString()).toBe("err\n");
    const killed = await runCommand(spec("unused", { launch: launch("echo ok >&3; exec sh -c 'kill -TERM $$'") }));
    expect(killed.setupError).toBeUndefined();
    expect([killed.exitCode, killed.signal]).toEqual([143, "SIGTERM"]);
  });

  it("envelope ok, the command closes fd 3 and runs on", async () => {
    const r = await runCommand(spec("unused", { launch: launch("echo ok >&3; exec 3>&-; sleep 0.2; echo done") }));
    expect(r.setupError).toBeUndefined();
    expect(r.stdout.toString()).toBe("done\n");
    expect(r.exitCode).toBe(0);
  });

  it("envelope exits without a status: setupError, the command did not run", async () => {
    const marker = join(dir, "envelope-no-status");
    const r = await runCommand(spec("unused", { launch: launch(`exit 3; echo ran > ${marker}`) }));
    expect(r.setupError).toBe("exited 3 before it was set up");
    expect(r.exitCode).toBe(125);
    expect(existsSync(marker)).toBe(false);
  });

  it("envelope killed by the timeout before its status: setupError says so", async () => {
    const r = await runCommand(spec("unused", { timeoutS: 1, launch: launch("sleep 30") }));
    expect(r.setupError).toBe("timed out while setting up");
    expect(r.timedOut).toBe(true);
    expect(r.exitCode).toBe(125);
  });

  it("envelope ok, then the command times out: an ordinary timeout", async () => {
    const r = await runCommand(spec("unused", { timeoutS: 1, launch: launch("echo ok >&3; exec sleep 30") }));
    expect(r.setupError).toBeUndefined();
    expect(r.timedOut).toBe(true);
    expect(r.exitCode).toBe(124);
  });

  it("an envelope wrapper that cannot be started is a setupError (nothing ran)", async () => {
    const r = await runCommand(spec("unused", { launch: { kind: "exec", args: [join(dir, "no-such-envelope")] } }));
    expect(r.setupError).toBeDefined();
  });
});

describe("runCommand under a blocked event loop", () => {
  // The race that answered 503 "nothing ran" for commands that had run: the
  // setup status was read on a timer that could fire before the pipe was.
  it("a command that ran is never reported as an envelope failure, however late its answer is read", async () => {
    const runs = Array.from({ length: 8 }, (_, i) =>
      runCommand(spec("unused", { launch: { kind: "exec", args: ["/bin/sh", "-c", `echo ok >&3; exec echo ran-${i}`] } })),
    );
    const t0 = Date.now();
    while (Date.now() - t0 < 600) {
      // busy: no I/O is read while this runs
    }
    const rs = await Promise.all(runs);
    for (const [i, r] of rs.entries()) expect([r.setupError, r.stdout.toString(), r.exitCode]).toEqual([undefined, `ran-${i}\n`, 0]);
  });
});

describe("the envelope server itself", () => {
  it("refuses a malformed request without dying, and keeps serving", async () => {
    const r = await runCommand(spec("", { launch: { kind: "bogus" as "plain", args: ["/bin/true"] } }));
    expect(r.exitCode).toBe(125);
    expect((await runCommand(spec("echo still"))).stdout.toString()).toBe("still\n");
  });

  it("relays a stream only up to its cap (+1 byte to say it was cut) and drops the rest itself; the command still runs to its end", async () => {
    let got = 0;
    const marker = join(dir, "server-cap-finished");
    const run = server.run({
      kind: "plain",
      args: ["/bin/sh", "-c", `head -c 20000000 /dev/zero; echo done > ${marker}`],
      env: {},
      caps: { stdout: 1000, stderr: 10 },
      onStdout: (c) => (got += c.length),
      onStderr: () => undefined,
    });
    expect((await run.done).code).toBe(0);
    expect(got).toBe(1001);
    expect(existsSync(marker)).toBe(true);
  });

  it("when it is lost, the commands in flight fail (their outcome is unknown) and onLost is told", async () => {
    let why = "";
    const own = EnvelopeServer.start((w) => (why = w));
    const pending = runCommand({ ...spec("sleep 30"), server: own });
    const pid = own.pid;
    expect(pid).toBeGreaterThan(1);
    await new Promise((r) => setTimeout(r, 200));
    process.kill(pid as number, "SIGKILL");
    await expect(pending).rejects.toThrow(/outcome is unknown/);
    expect(why).toMatch(/exited/);
    await expect(runCommand({ ...spec("echo x"), server: own })).rejects.toThrow(/envelope server/);
  });
});
