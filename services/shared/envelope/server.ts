// The warm envelope server (program.ts `--serve`), seen from the service
// that starts it: one perl process, started once, that forks a child per
// command and builds that command's envelope in it — instead of a new perl
// (start + compile ~2.5 ms) spawned from a large node process for every
// command. Children for a pid namespace are forked one ahead (a spare that
// has read nothing of the host until its request arrives). SECURITY: the server is this process's own child and reads
// requests only from the pipe on its stdin; it runs what it is told (the
// caller has verified the command first) and holds nothing secret. If it
// dies, the commands in flight have an unknown outcome: `onLost` tells the
// service, which exits (crash, don't limp; the supervisor restarts it).
import { type ChildProcess, spawn } from "node:child_process";
import { ENVELOPE_PROGRAM } from "./program.js";
import { envelopeArch, PERL } from "./spec.js";

export interface ServerRun {
  /**
   * "envelope": `args` are envelope words (spec.ts envelopeWords); "exec": an
   * argv run as it is, fd 3 open for the envelope it wraps (nsenter); "plain":
   * an argv with no fd 3; "xattrs": paths whose extended attributes the
   * server reads itself (the answer on stdout; no child).
   */
  kind: "envelope" | "exec" | "plain" | "xattrs";
  args: readonly string[];
  env: Readonly<Record<string, string>>;
  /** The command's own cgroup.procs: the child joins it before anything starts. */
  cgroupProcs?: string;
  /** Bytes of stdout and stderr relayed at most (one more says it was cut); the rest is dropped by the server. */
  caps?: { stdout: number; stderr: number };
  /**
   * An envelope built but not run until `go()`: the caller makes the run
   * durable (the executor's journal) while the envelope is built. Never
   * released, it does not run (its caller kills it, or its timeout does).
   */
  gated?: boolean;
  onStdout(chunk: Buffer): void;
  onStderr(chunk: Buffer): void;
}

export interface ServerExit {
  /** The exit code, or undefined when a signal ended it. */
  code?: number;
  signal?: number;
  /** What the child wrote on fd 3: "ok\n" just before exec, or "error: …". */
  status: string;
}

export interface Started {
  /** The child's pid (also its process group and session). */
  pid: Promise<number>;
  done: Promise<ServerExit>;
  /** A gated run's release (once; nothing for a run that is not gated or has ended). */
  go(): void;
}

interface Pending {
  run: ServerRun;
  status: Buffer[];
  pid(p: number): void;
  done(e: ServerExit): void;
  fail(e: Error): void;
}

/** Fields travel NUL-separated; a NUL inside one would split it. */
function field(value: string): string {
  if (value.includes("\0")) throw new Error("envelope server: NUL byte in a request");
  return value;
}

export class EnvelopeServer {
  private readonly pending = new Map<number, Pending>();
  private next = 0;
  private buf: Buffer = Buffer.alloc(0);
  private lostWhy: string | undefined;

  private constructor(private readonly child: ChildProcess) {}

  /** Starts the server; `onLost` is called once if it ever goes away while not being closed. */
  static start(onLost: (why: string) => void): EnvelopeServer {
    const arch = envelopeArch();
    if (!arch) throw new Error(`the envelope has no system-call table for ${process.arch}`);
    const child = spawn(PERL, ["-e", ENVELOPE_PROGRAM, "--", "--serve", `arch=${arch}`], { stdio: ["pipe", "pipe", "inherit"], env: {} });
    const server = new EnvelopeServer(child);
    let closing = false;
    server.close = () => {
      closing = true;
      child.stdin?.end();
    };
    const lost = (why: string) => {
      if (server.lostWhy) return;
      server.lostWhy = why;
      for (const p of server.pending.values()) p.fail(new Error(`envelope server ${why}: the command's outcome is unknown`));
      server.pending.clear();
      if (!closing) onLost(why);
    };
    child.stdout?.on("data", (chunk: Buffer) => server.receive(chunk));
    child.stdin?.on("error", () => undefined); // its exit reports the loss
    child.once("error", (err) => lost(`failed: ${err.message}`));
    child.once("exit", (code, signal) => lost(`exited (${signal ?? code})`));
    return server;
  }

  /** Ends the server; it kills whatever it still runs. */
  close: () => void = () => undefined;

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** The xattr answer (program.ts `xattrs`) for these paths, read by the server itself. */
  async xattrs(paths: readonly string[]): Promise<Buffer> {
    const out: Buffer[] = [];
    const exit = await this.run({ kind: "xattrs", args: paths, env: {}, onStdout: (c) => out.push(c), onStderr: () => undefined }).done;
    if (exit.code !== 0) throw new Error(`the xattr reader answered ${exit.status.trim() || `exit ${exit.code}`}`);
    return Buffer.concat(out);
  }

  run(run: ServerRun): Started {
    let resolvePid: (p: number) => void = () => undefined;
    let rejectPid: (e: Error) => void = () => undefined;
    const pid = new Promise<number>((res, rej) => ((resolvePid = res), (rejectPid = rej)));
    pid.catch(() => undefined);
    let id = -1;
    const done = new Promise<ServerExit>((resolve, reject) => {
      if (this.lostWhy) return reject(new Error(`envelope server ${this.lostWhy}`));
      const env = Object.entries(run.env).map(([k, v]) => {
        if (k.includes("=") || k === "") throw new Error(`envelope server: bad variable name ${JSON.stringify(k)}`);
        return field(`${k}=${v}`);
      });
      const caps = `${run.caps?.stdout ?? 0},${run.caps?.stderr ?? 0}`;
      const gate = run.gated ? "1" : "";
      const payload = Buffer.from(
        [run.kind, field(run.cgroupProcs ?? ""), caps, gate, String(env.length), ...env, ...run.args.map(field)].join("\0"),
      );
      id = this.next++;
      this.pending.set(id, {
        run,
        status: [],
        pid: resolvePid,
        done: resolve,
        fail: (e) => {
          rejectPid(e);
          reject(e);
        },
      });
      this.child.stdin?.write(`${id} ${payload.length}\n`);
      this.child.stdin?.write(payload);
    });
    done.catch((e: Error) => rejectPid(e));
    let released = false;
    const go = () => {
      if (released || !run.gated || id < 0 || !this.pending.has(id)) return;
      released = true;
      this.child.stdin?.write(`${id} go\n`);
    };
    return { pid, done, go };
  }

  /** Frames: "TYPE ID LENGTH\n" then LENGTH bytes. */
  private receive(chunk: Buffer): void {
    this.buf = this.buf.length === 0 ? chunk : Buffer.concat([this.buf, chunk]);
    for (;;) {
      const nl = this.buf.indexOf(10);
      if (nl < 0) return;
      const m = /^([POESX]) (\d+) (\d+)$/.exec(this.buf.subarray(0, nl).toString("latin1"));
      if (!m) {
        this.child.kill("SIGKILL"); // a server that speaks garbage is not trusted with anything more
        return;
      }
      const len = Number(m[3]);
      if (this.buf.length < nl + 1 + len) return;
      const data = this.buf.subarray(nl + 1, nl + 1 + len);
      this.buf = this.buf.subarray(nl + 1 + len);
      this.dispatch(m[1] ?? "", Number(m[2]), data);
    }
  }

  private dispatch(type: string, id: number, data: Buffer): void {
    const p = this.pending.get(id);
    if (!p) return;
    if (type === "P") p.pid(Number(data.toString("latin1")));
    else if (type === "O") p.run.onStdout(Buffer.from(data));
    else if (type === "E") p.run.onStderr(Buffer.from(data));
    else if (type === "S") p.status.push(Buffer.from(data));
    else {
      this.pending.delete(id);
      const [how, n] = data.toString("latin1").split(" ");
      const status = Buffer.concat(p.status).toString("utf8");
      p.done(how === "signal" ? { signal: Number(n), status } : { code: Number(n), status });
    }
  }
}
