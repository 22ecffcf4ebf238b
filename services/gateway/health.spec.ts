// GET /health answers anyone who reaches the port, without a token: what
// failed is said in fixed words, the cause (a database's error text names
// hosts, users, databases and paths) stays in the gateway's log.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { handler, IN_THE_LOG, type Routes } from "./http.js";
import { PeerLog } from "./peer-log.js";

const PG = 'connecting to the audit database: password authentication failed for user "audit_writer" (db-7.corp.internal:5432/agentsudo)';
const FS = "ENOSPC: no space left on device, open '/var/lib/agent-sudo/state/gateway/audit-spool/segment-000042.jsonl'";

let server: Server;
let url: string;

beforeAll(async () => {
  const log = pino({ level: "silent" });
  const routes = {
    log,
    peerLog: new PeerLog(log),
    clients: {},
    capabilities: () => ({}),
    auditHealth: () => ({
      trail: { writable: false, last_failure: { at: "2026-12-07T01:00:00Z", reason: FS }, unaudited_refusals: 0 },
      spool: { depth: 3, broken: `fdatasync failed: ${FS}`, reserve: { held: false, last_error: FS } },
      shipper: { depth: 3, state: "down", last_error: PG, shipped_total: 1 },
    }),
    policyHealth: () => ({
      signature: "unknown",
      enforce: true,
      error: `EACCES: permission denied, open '/etc/agent-sudo/keys/policy.pub'`,
    }),
  } as unknown as Routes;
  server = createServer(handler(routes, { kind: "tcp", hookOnTcp: false }));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/health`;
});

afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe("GET /health", () => {
  it("says what is failing, never the cause: no database, host, user or path text", async () => {
    const res = await fetch(url);
    const text = await res.text();
    for (const leak of [
      "audit_writer",
      "corp.internal",
      "5432",
      "agentsudo",
      "/var/lib",
      "/etc/agent-sudo",
      "ENOSPC",
      "EACCES",
      "password",
    ])
      expect(text, leak).not.toContain(leak);
    const body = JSON.parse(text);
    expect(res.status).toBe(503);
    expect(body.status).toBe("degraded");
    expect(body.audit.shipper).toEqual({ depth: 3, state: "down", last_error: IN_THE_LOG, shipped_total: 1 });
    expect(body.audit.trail).toEqual({ writable: false, last_failure: IN_THE_LOG, unaudited_refusals: 0 });
    expect(body.audit.spool).toEqual({ depth: 3, broken: IN_THE_LOG, reserve: { held: false, last_error: IN_THE_LOG } });
    expect(body.policy).toEqual({ signature: "unknown", enforce: true, error: IN_THE_LOG });
  });
});
