// What the benchmarks measure with: percentiles (the nearest-rank value at p
// (0–100) of the samples, sorted on a copy; median = pct(xs, 50)) and the
// baseline every overhead is taken against, a command run bare with `bash -c`.
import { spawn } from "node:child_process";
import { Agent, request } from "node:http";

export function pct(xs: readonly number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
}

export function median(xs: readonly number[]): number {
  return pct(xs, 50);
}

/** Milliseconds from spawning `bash -c command` to its exit (its output read and dropped); a failing command rejects. */
export function bare(command: string): Promise<number> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn("/bin/bash", ["-c", command], { stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.resume();
    child.stderr.resume();
    child.once("error", reject);
    child.once("close", (code) => (code === 0 ? resolve(performance.now() - t0) : reject(new Error(`bare ${command}: exit ${code}`))));
  });
}

/**
 * A `POST /exec` client for the benchmarks. AGENT_SUDO_BENCH_CLIENT=http: one
 * kept-alive node:http connection (what a caller's own client costs is not
 * the broker's: fetch/undici takes ~2.4 ms of CPU per request on these VMs);
 * anything else: the stack's fetch, as every earlier figure was measured.
 */
export function execClient(stack: {
  url: string;
  token: string;
  exec(body: unknown): Promise<{ status: number; body: Record<string, unknown> }>;
}) {
  if (process.env.AGENT_SUDO_BENCH_CLIENT !== "http") return { name: "fetch", exec: (body: unknown) => stack.exec(body) };
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const target = new URL("/exec", stack.url);
  const exec = (body: unknown) =>
    new Promise<{ status: number; body: Record<string, unknown> }>((resolve, reject) => {
      const data = Buffer.from(JSON.stringify(body));
      const req = request(
        target,
        {
          method: "POST",
          agent,
          headers: { authorization: `Bearer ${stack.token}`, "content-type": "application/json", "content-length": data.length },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString("utf8")) }));
          res.on("error", reject);
        },
      );
      req.on("error", reject);
      req.end(data);
    });
  return { name: "node:http keep-alive", exec };
}
