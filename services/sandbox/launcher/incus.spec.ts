// The Incus driver against a local HTTP stand-in on a Unix socket that
// answers the documented endpoints (instances, state, snapshots, restore,
// exec with record-output, operations/wait, exec logs). Incus itself cannot
// run here; the stand-in executes nothing.
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BASELINE_SCRIPT, CHANGES_SCRIPT, createMirror, IncusClient, IncusDriver, parseChanges } from "./incus.js";

interface Op {
  id: string;
  status: "Success" | "Failure" | "Running";
  err: string;
  metadata: unknown;
}

interface ExecAnswer {
  return: number;
  stdout: string;
  stderr: string;
  running?: boolean;
}

class IncusStandIn {
  readonly requests: string[] = [];
  readonly ops = new Map<string, Op>();
  readonly logs = new Map<string, string>();
  readonly snapshots = new Set<string>();
  readonly instances = new Map<string, unknown>();
  trialAnswer: ExecAnswer = { return: 0, stdout: "hello\n", stderr: "" };
  changes = "C /etc/new\nC /etc/new/sub\nM /etc/hosts\nD /etc/old\n";
  failNext = "";
  server!: Server;

  constructor(readonly socket: string) {}

  start(): Promise<void> {
    this.server = createServer((req, res) => {
      void body(req).then((raw) => {
        const url = new URL(req.url ?? "/", "http://incus");
        this.requests.push(`${req.method} ${url.pathname}`);
        const json = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
        const answer = (status: number, env: unknown) => {
          res.writeHead(status, { "content-type": "application/json" });
          res.end(JSON.stringify(env));
        };
        const op = (status: Op["status"] = "Success", err = "", metadata: unknown = null) => {
          const id = randomUUID();
          if (this.failNext && `${req.method} ${url.pathname}`.startsWith(this.failNext)) {
            status = "Failure";
            err = "stand-in: operation failed";
            this.failNext = "";
          }
          this.ops.set(id, { id, status, err, metadata });
          answer(202, { type: "async", status: "Operation created", status_code: 100, operation: `/1.0/operations/${id}`, metadata: {} });
        };
        const p = url.pathname;
        let m: RegExpMatchArray | null;
        if (req.method === "POST" && p === "/1.0/instances") {
          this.instances.set(String(json.name), json);
          return op();
        }
        if ((m = p.match(/^\/1\.0\/operations\/([^/]+)\/wait$/))) {
          const o = this.ops.get(m[1] ?? "");
          if (!o) return answer(404, { type: "error", error: "Operation not found", error_code: 404 });
          return answer(200, {
            type: "sync",
            status: "Success",
            status_code: 200,
            metadata: { ...o, status_code: o.status === "Success" ? 200 : o.status === "Running" ? 103 : 400 },
          });
        }
        if ((m = p.match(/^\/1\.0\/instances\/([^/]+)\/logs\/exec-output\/([^/]+)$/))) {
          const log = this.logs.get(p);
          if (log === undefined) return answer(404, { type: "error", error: "not found", error_code: 404 });
          if (req.method === "DELETE") {
            this.logs.delete(p);
            return answer(200, { type: "sync", status: "Success", status_code: 200, metadata: {} });
          }
          res.writeHead(200, { "content-type": "application/octet-stream" });
          return res.end(log);
        }
        if ((m = p.match(/^\/1\.0\/instances\/([^/]+)$/)) && req.method === "PUT") {
          if (!this.instances.has(m[1] ?? "")) return answer(404, { type: "error", error: "Instance not found", error_code: 404 });
          const snap = String(json.restore ?? "");
          return this.snapshots.has(snap) ? op() : op("Failure", `snapshot ${snap} not found`);
        }
        if ((m = p.match(/^\/1\.0\/instances\/([^/]+)\/state$/))) return op();
        if ((m = p.match(/^\/1\.0\/instances\/([^/]+)\/snapshots$/))) {
          this.snapshots.add(String(json.name));
          return op();
        }
        if ((m = p.match(/^\/1\.0\/instances\/([^/]+)\/snapshots\/([^/]+)$/)) && req.method === "DELETE") {
          this.snapshots.delete(m[2] ?? "");
          return op();
        }
        if ((m = p.match(/^\/1\.0\/instances\/([^/]+)\/exec$/))) {
          const name = m[1] ?? "";
          expect(json["record-output"]).toBe(true);
          expect(json["wait-for-websocket"]).toBe(false);
          const cmd = json.command as string[];
          let a: ExecAnswer = { return: 0, stdout: "", stderr: "" };
          if (cmd[2] === CHANGES_SCRIPT) a = { return: 0, stdout: this.changes, stderr: "" };
          else if (cmd[2] === BASELINE_SCRIPT) a = { return: 0, stdout: "", stderr: "" };
          else if (cmd[0] === "/usr/bin/id") a = { return: cmd[2] === "bob" ? 0 : 1, stdout: "1000\n", stderr: "" };
          else if (cmd[1] === "-c" && cmd[4] !== undefined) a = this.trialAnswer;
          const id = randomUUID();
          const out = `/1.0/instances/${name}/logs/exec-output/exec_${id}.stdout`;
          const err = `/1.0/instances/${name}/logs/exec-output/exec_${id}.stderr`;
          this.logs.set(out, a.stdout);
          this.logs.set(err, a.stderr);
          return op(a.running ? "Running" : "Success", "", { return: a.return, output: { "1": out, "2": err } });
        }
        return answer(404, { type: "error", error: "not found", error_code: 404 });
      });
    });
    return new Promise((resolve) => this.server.listen(this.socket, resolve));
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

function body(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let s = "";
    req.on("data", (c: Buffer) => (s += c.toString()));
    req.on("end", () => resolve(s));
  });
}

describe("Incus driver against a stand-in Incus on a Unix socket", () => {
  let dir: string;
  let standIn: IncusStandIn;
  let client: IncusClient;
  const driver = () =>
    new IncusDriver({ socket: standIn.socket, instances: {}, snapshot: "baseline", shell: "/bin/bash", stdoutCap: 1024, stderrCap: 1024 });
  const input = { host: "server-01", command: "touch /etc/new", cwd: "/root", runAs: "", timeoutS: 30 };

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), "incus-standin-"));
    standIn = new IncusStandIn(join(dir, "unix.socket"));
    await standIn.start();
    client = new IncusClient(standIn.socket);
  });
  afterEach(async () => {
    await standIn.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("creates the mirror (debian/13, 2 vCPU, 2 GiB, 10 GiB, NAT bridge), starts it, takes the baseline snapshot", async () => {
    await createMirror(client, { name: "sandbox-server-01" });
    // biome-ignore lint/suspicious/noExplicitAny: the stand-in keeps the JSON it was sent
    const spec = standIn.instances.get("sandbox-server-01") as Record<string, any>;
    expect(spec.source).toMatchObject({ type: "image", alias: "debian/13", protocol: "simplestreams" });
    expect(spec.config).toEqual({ "limits.cpu": "2", "limits.memory": "2GiB" });
    expect(spec.devices.root).toMatchObject({ path: "/", size: "10GiB" });
    expect(spec.devices.eth0).toMatchObject({ type: "nic", network: "incusbr0" });
    expect(standIn.snapshots.has("baseline")).toBe(true);
    expect(standIn.requests).toContain("PUT /1.0/instances/sandbox-server-01/state");
  });

  it("restores the baseline, execs with recorded output, fetches and deletes the logs, lists changes", async () => {
    await createMirror(client, { name: "sandbox-server-01" });
    const r = await driver().run(input);
    expect(r.exitCode).toBe(0);
    expect(r.stdout.toString()).toBe("hello\n");
    expect(r.changes).toEqual([
      { path: "/etc/hosts", kind: "modified" },
      { path: "/etc/new", kind: "created" },
      { path: "/etc/old", kind: "deleted" },
    ]);
    const seq = standIn.requests.filter((r) => !r.includes("/1.0/operations/"));
    const i = seq.lastIndexOf("PUT /1.0/instances/sandbox-server-01");
    expect(i).toBeGreaterThan(-1);
    expect(seq[i + 1]).toBe("POST /1.0/instances/sandbox-server-01/exec");
    expect(seq.filter((r) => r.startsWith("DELETE /1.0/instances/sandbox-server-01/logs/exec-output/"))).toHaveLength(6); // baseline listing, trial, change listing: two logs each
    expect(standIn.logs.size).toBe(0);
  });

  it("reports the command's exit code and stderr", async () => {
    await createMirror(client, { name: "sandbox-server-01" });
    standIn.trialAnswer = { return: 127, stdout: "", stderr: "bash: line 1: jq: command not found\n" };
    const r = await driver().run({ ...input, command: "jq ." });
    expect(r.exitCode).toBe(127);
    expect(r.stderr.toString()).toContain("command not found");
  });

  it("fills gaps in the instance and re-takes the baseline", async () => {
    await createMirror(client, { name: "sandbox-server-01" });
    const before = standIn.requests.length;
    expect(await driver().fill("server-01", [{ kind: "package", name: "jq" }])).toBe(true);
    const later = standIn.requests.slice(before).filter((r) => !r.includes("/1.0/operations/"));
    expect(later).toContain("DELETE /1.0/instances/sandbox-server-01/snapshots/baseline");
    expect(later.at(-1)).toBe("POST /1.0/instances/sandbox-server-01/snapshots");
    expect(await driver().fill("server-01", [{ kind: "command", name: "frob" }])).toBe(false);
  });

  it("error path: a failed operation throws with Incus's error", async () => {
    await expect(driver().run(input)).rejects.toThrow(/Instance not found/);
    await createMirror(client, { name: "sandbox-server-01" });
    standIn.failNext = "PUT /1.0/instances/sandbox-server-01";
    await expect(driver().run(input)).rejects.toThrow(/operation .* failed: stand-in: operation failed/);
  });

  it("error path: a timed-out exec is reported as timed out", async () => {
    await createMirror(client, { name: "sandbox-server-01" });
    standIn.trialAnswer = { return: 0, stdout: "", stderr: "", running: true };
    const r = await driver().run(input);
    expect(r.timedOut).toBe(true);
  });

  it("error path: the socket is missing", async () => {
    const gone = new IncusDriver({
      socket: join(dir, "missing.socket"),
      instances: {},
      snapshot: "baseline",
      shell: "/bin/bash",
      stdoutCap: 1024,
      stderrCap: 1024,
    });
    await expect(gone.run(input)).rejects.toThrow(/incus socket .*missing\.socket: connect ENOENT/);
  });

  it("parses change lists, folding created trees", () => {
    expect(parseChanges("C /a\nC /a/b\nC /a/b/c\nM /x\nD /y\njunk\n")).toEqual([
      { path: "/a", kind: "created" },
      { path: "/x", kind: "modified" },
      { path: "/y", kind: "deleted" },
    ]);
  });
});
