// A stand-in ntfy server for tests: an HTTP server on 127.0.0.1 only that
// records every POST (headers and body) and answers with the statuses it is
// told to (default 200). Never anything but loopback.
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

export interface NtfySink {
  url: string;
  received: Received[];
  /** Statuses for the next requests, in order; afterwards 200. */
  failNext(...statuses: number[]): void;
  /** Requests answered so far, failures included. */
  hits(): number;
  waitFor(pred: (r: Received) => boolean, timeoutMs?: number): Promise<Received>;
  close(): Promise<void>;
}

export async function startNtfySink(topic = "agent-sudo-test"): Promise<NtfySink> {
  const received: Received[] = [];
  const scripted: number[] = [];
  let hits = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      hits++;
      const status = scripted.shift() ?? 200;
      if (status === 200 && req.method === "POST") {
        received.push({ path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), at: Date.now() });
      }
      res.writeHead(status, { "content-type": "application/json" });
      res.end(status === 200 ? '{"id":"x"}' : '{"error":"scripted"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const addr = server.address();
  const port = typeof addr === "object" && addr ? addr.port : 0;
  return {
    url: `http://127.0.0.1:${port}/${topic}`,
    received,
    failNext: (...s) => scripted.push(...s),
    hits: () => hits,
    async waitFor(pred, timeoutMs = 10_000) {
      const t0 = Date.now();
      for (;;) {
        const hit = received.find(pred);
        if (hit) return hit;
        if (Date.now() - t0 > timeoutMs) throw new Error(`no matching ntfy message in ${timeoutMs} ms (got ${received.length})`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
