// The Incus driver (seed D7): a mirror of another host as an Incus
// container, driven over the REST API on Incus's Unix socket with plain
// http.request({socketPath}) (no maintained npm client exists). It runs in
// the sandbox's privileged launcher: the socket is root:incus-admin and
// access to it is root-equivalent, so the gRPC-facing process never holds
// it. Per trial: restore the baseline snapshot, exec the command with
// record-output, wait on the operation, fetch and delete the logs, then a
// second exec lists what changed against the baseline's file list (made when
// the baseline was taken). Paths containing newlines are not reported.
import { request } from "node:http";
import type { Gap } from "../gaps.js";
import type { Change } from "./diff.js";
import type { Driver, DriverInput, DriverRun } from "../trial.js";

export class IncusError extends Error {}

interface Envelope {
  type?: string;
  status_code?: number;
  operation?: string;
  error?: string;
  metadata?: unknown;
}

interface Operation {
  id?: string;
  status?: string;
  status_code?: number;
  err?: string;
  metadata?: { return?: number; output?: Record<string, string> } | null;
}

export const MIRROR_STATE = "/var/lib/agent-sudo-mirror";
const PRUNE = `\\( -path /proc -o -path /sys -o -path /dev -o -path /run -o -path /tmp -o -path ${MIRROR_STATE} \\) -prune -o`;
/** Run once before the baseline snapshot: the file list trials are compared against. */
export const BASELINE_SCRIPT = `set -eu; mkdir -p ${MIRROR_STATE}; find / -xdev ${PRUNE} -print | LC_ALL=C sort > ${MIRROR_STATE}/baseline.list`;
/** Run after each trial: D deleted, M changed (not directories), C created. */
export const CHANGES_SCRIPT = `set -eu; b=${MIRROR_STATE}
find / -xdev ${PRUNE} -print | LC_ALL=C sort > "$b/after.list"
LC_ALL=C comm -23 "$b/baseline.list" "$b/after.list" | sed 's/^/D /'
find / -xdev ${PRUNE} -cnewer "$b/stamp" -print | LC_ALL=C sort > "$b/newer.list"
LC_ALL=C comm -12 "$b/baseline.list" "$b/newer.list" | while IFS= read -r p; do [ -d "$p" ] || printf 'M %s\\n' "$p"; done
LC_ALL=C comm -13 "$b/baseline.list" "$b/newer.list" | sed 's/^/C /'`;
/** Wraps the trial: stamp first, then the command under the shell given as $0. */
const STAMP_THEN_RUN = `touch ${MIRROR_STATE}/stamp && exec "$0" -c "$1"`;
/** Fills gaps: arguments are "kind name" pairs; never interpolated. */
const FILL_SCRIPT = `set -eu
while [ $# -ge 2 ]; do
  case "$1" in
    package) DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$2" ;;
    user) id "$2" >/dev/null 2>&1 || useradd --no-create-home --shell /usr/sbin/nologin "$2" ;;
    group) getent group "$2" >/dev/null || groupadd "$2" ;;
    path) mkdir -p "$2" ;;
    *) exit 3 ;;
  esac
  shift 2
done`;

export class IncusClient {
  constructor(
    readonly socketPath: string,
    private readonly timeoutMs = 60_000,
  ) {}

  raw(method: string, path: string, body?: unknown): Promise<{ status: number; data: Buffer }> {
    return new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
      const req = request(
        {
          socketPath: this.socketPath,
          method,
          path,
          headers: payload ? { "content-type": "application/json", "content-length": payload.length } : {},
          timeout: this.timeoutMs,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, data: Buffer.concat(chunks) }));
          res.on("error", reject);
        },
      );
      req.on("timeout", () => req.destroy(new IncusError(`${method} ${path}: no answer in ${this.timeoutMs} ms`)));
      req.on("error", (err) => reject(err instanceof IncusError ? err : new IncusError(`incus socket ${this.socketPath}: ${err.message}`)));
      req.end(payload);
    });
  }

  async call(method: string, path: string, body?: unknown): Promise<Envelope> {
    const { status, data } = await this.raw(method, path, body);
    let env: Envelope;
    try {
      env = JSON.parse(data.toString("utf8")) as Envelope;
    } catch {
      throw new IncusError(`${method} ${path}: HTTP ${status}, not JSON`);
    }
    if (env.type === "error" || status >= 400) throw new IncusError(`${method} ${path}: ${env.error || `HTTP ${status}`}`);
    return env;
  }

  /** Starts an async operation and waits for it; a failed operation throws. */
  async operate(method: string, path: string, body: unknown, timeoutS = 120): Promise<Operation> {
    const env = await this.call(method, path, body);
    if (env.type !== "async" || !env.operation) throw new IncusError(`${method} ${path}: expected an operation`);
    return this.wait(env.operation, timeoutS);
  }

  async wait(operation: string, timeoutS: number): Promise<Operation> {
    if (!/^\/1\.0\/operations\/[A-Za-z0-9-]+$/.test(operation)) throw new IncusError(`unexpected operation path ${operation}`);
    const env = await this.call("GET", `${operation}/wait?timeout=${timeoutS}`);
    const op = (env.metadata ?? {}) as Operation;
    if (op.status === "Failure" || (op.status_code ?? 200) >= 400)
      throw new IncusError(`operation ${op.id ?? operation} failed: ${op.err || op.status}`);
    return op;
  }

  /** exec with record-output; returns exit code and both logs (deleted after reading). */
  async exec(
    instance: string,
    command: string[],
    opts: { cwd?: string; user?: number; group?: number; env?: Record<string, string>; timeoutS: number },
  ): Promise<{ exitCode: number; timedOut: boolean; stdout: Buffer; stderr: Buffer }> {
    const env = await this.call("POST", `/1.0/instances/${instance}/exec`, {
      command,
      environment: opts.env ?? {},
      "wait-for-websocket": false,
      interactive: false,
      "record-output": true,
      ...(opts.cwd ? { cwd: opts.cwd } : {}),
      ...(opts.user !== undefined ? { user: opts.user, group: opts.group ?? opts.user } : {}),
    });
    if (env.type !== "async" || !env.operation) throw new IncusError("exec: expected an operation");
    const op = await this.wait(env.operation, opts.timeoutS);
    if (op.status === "Running") {
      await this.call("DELETE", env.operation).catch(() => undefined);
      return { exitCode: -1, timedOut: true, stdout: Buffer.alloc(0), stderr: Buffer.alloc(0) };
    }
    const output = op.metadata?.output ?? {};
    const log = async (fd: string) => {
      const path = output[fd];
      if (!path) return Buffer.alloc(0);
      if (!path.startsWith(`/1.0/instances/${instance}/logs/`)) throw new IncusError(`unexpected log path ${path}`);
      const got = await this.raw("GET", path);
      await this.call("DELETE", path);
      return got.data;
    };
    return { exitCode: op.metadata?.return ?? -1, timedOut: false, stdout: await log("1"), stderr: await log("2") };
  }
}

export interface MirrorSpec {
  name: string;
  image?: string;
  pool?: string;
  network?: string;
}

/** Creates and starts the mirror (images:debian/13, 2 vCPU, 2 GiB, 10 GiB root, NAT bridge) and takes the baseline. */
export async function createMirror(client: IncusClient, spec: MirrorSpec, snapshot = "baseline"): Promise<void> {
  await client.operate(
    "POST",
    "/1.0/instances",
    {
      name: spec.name,
      type: "container",
      source: { type: "image", alias: spec.image ?? "debian/13", server: "https://images.linuxcontainers.org", protocol: "simplestreams" },
      config: { "limits.cpu": "2", "limits.memory": "2GiB" },
      devices: {
        root: { type: "disk", path: "/", pool: spec.pool ?? "default", size: "10GiB" },
        eth0: { type: "nic", network: spec.network ?? "incusbr0", name: "eth0" },
      },
    },
    600,
  );
  await client.operate("PUT", `/1.0/instances/${spec.name}/state`, { action: "start", timeout: 60 });
  await takeBaseline(client, spec.name, snapshot, false);
}

/** Records the baseline file list and (re)takes the baseline snapshot. */
export async function takeBaseline(client: IncusClient, instance: string, snapshot: string, replace: boolean): Promise<void> {
  const r = await client.exec(instance, ["/bin/sh", "-c", BASELINE_SCRIPT], { timeoutS: 600 });
  if (r.exitCode !== 0) throw new IncusError(`baseline listing failed: ${r.stderr.toString("utf8").trim()}`);
  if (replace) await client.operate("DELETE", `/1.0/instances/${instance}/snapshots/${snapshot}`, undefined);
  await client.operate("POST", `/1.0/instances/${instance}/snapshots`, { name: snapshot, stateful: false });
}

export function parseChanges(text: string): Change[] {
  const kinds = { C: "created", M: "modified", D: "deleted" } as const;
  const all: Change[] = [];
  for (const line of text.split("\n")) {
    const kind = kinds[line[0] as keyof typeof kinds];
    const path = line.slice(2);
    if (kind && line[1] === " " && path.startsWith("/")) all.push({ path, kind });
  }
  // A created directory is listed once (its removal removes what it holds).
  const created = new Set(all.filter((c) => c.kind === "created").map((c) => c.path));
  const parentCreated = (p: string) => {
    for (let i = p.lastIndexOf("/"); i > 0; i = p.lastIndexOf("/", i - 1)) if (created.has(p.slice(0, i))) return true;
    return false;
  };
  return all
    .filter((c) => !(c.kind === "created" && parentCreated(c.path)))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function unknownUser(user: string, started: number): DriverRun {
  const stderr = Buffer.from(`agent-sudo-sandbox: unknown user '${user}'\n`);
  return {
    exitCode: 127,
    timedOut: false,
    stdout: Buffer.alloc(0),
    stderr,
    stdoutTruncated: false,
    stderrTruncated: false,
    changes: [],
    truncated: false,
    maskWrites: [],
    durationMs: performance.now() - started,
  };
}

export interface IncusDriverOptions {
  socket: string;
  instances: Record<string, string>;
  snapshot: string;
  shell: string;
  stdoutCap: number;
  stderrCap: number;
}

export class IncusDriver implements Driver {
  readonly name = "incus";
  private readonly client: IncusClient;

  constructor(private readonly opts: IncusDriverOptions) {
    this.client = new IncusClient(opts.socket);
  }

  instance(host: string): string {
    return this.opts.instances[host] ?? `sandbox-${host}`;
  }

  describe(): string {
    return `incus at ${this.opts.socket}`;
  }

  refuses(): string | undefined {
    return undefined;
  }

  async run(input: DriverInput): Promise<DriverRun> {
    const started = performance.now();
    const name = this.instance(input.host);
    await this.client.operate("PUT", `/1.0/instances/${name}`, { restore: this.opts.snapshot });
    const env = {
      PATH: "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
      LC_ALL: "C.UTF-8",
      DEBIAN_FRONTEND: "noninteractive",
      HOME: "/root",
    };
    const user = input.runAs ? await this.uidOf(name, input.runAs).catch(() => undefined) : undefined;
    if (input.runAs && !user) return unknownUser(input.runAs, started);
    const r = await this.client.exec(name, ["/bin/sh", "-c", STAMP_THEN_RUN, this.opts.shell, input.command], {
      cwd: input.cwd || "/root",
      env,
      timeoutS: input.timeoutS,
      ...(user ?? {}),
    });
    const changes = await this.client.exec(name, ["/bin/sh", "-c", CHANGES_SCRIPT], { timeoutS: 300 });
    if (changes.exitCode !== 0) throw new IncusError(`listing changes failed: ${changes.stderr.toString("utf8").trim()}`);
    return {
      exitCode: r.exitCode,
      timedOut: r.timedOut,
      stdout: r.stdout.subarray(0, this.opts.stdoutCap),
      stderr: r.stderr.subarray(0, this.opts.stderrCap),
      stdoutTruncated: r.stdout.length > this.opts.stdoutCap,
      stderrTruncated: r.stderr.length > this.opts.stderrCap,
      changes: parseChanges(changes.stdout.toString("utf8")),
      truncated: false,
      maskWrites: [],
      durationMs: performance.now() - started,
    };
  }

  private async uidOf(instance: string, user: string): Promise<{ user: number; group: number }> {
    const r = await this.client.exec(instance, ["/usr/bin/id", "-u", user], { timeoutS: 30 });
    const g = await this.client.exec(instance, ["/usr/bin/id", "-g", user], { timeoutS: 30 });
    const uid = Number(r.stdout.toString().trim());
    const gid = Number(g.stdout.toString().trim());
    if (r.exitCode !== 0 || !Number.isInteger(uid) || !Number.isInteger(gid)) throw new IncusError(`unknown user '${user}' in ${instance}`);
    return { user: uid, group: gid };
  }

  async fill(host: string, gaps: Gap[]): Promise<boolean> {
    const fillable = gaps.filter((g) => g.kind !== "command");
    if (fillable.length === 0) return false;
    const name = this.instance(host);
    await this.client.operate("PUT", `/1.0/instances/${name}`, { restore: this.opts.snapshot });
    const args = fillable.flatMap((g) => [g.kind, g.name]);
    const r = await this.client.exec(name, ["/bin/sh", "-c", FILL_SCRIPT, "fill", ...args], {
      timeoutS: 900,
      env: { PATH: "/usr/sbin:/usr/bin:/sbin:/bin" },
    });
    if (r.exitCode !== 0) return false;
    await takeBaseline(this.client, name, this.opts.snapshot, true);
    return true;
  }
}
