// Shadow diff between two running HTTP endpoints on loopback. Both are
// STAND-INS: a tiny "old bridge" and a tiny "new gateway" that answer
// POST /exec with canned results; nothing executes.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readCommands, shadowCommand } from "../../cli/shadow.js";
import { closedPort } from "./vault-stand-in.js";

interface Canned {
  status?: number;
  exit_code: number;
  output: string;
}

interface ExecStandIn {
  url: string;
  seen: { command: string; auth: string | undefined }[];
  answers: Map<string, Canned>;
  close(): Promise<void>;
}

async function startExecStandIn(name: string, token: string, extra: Record<string, unknown> = {}): Promise<ExecStandIn> {
  const answers = new Map<string, Canned>();
  const seen: ExecStandIn["seen"] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (req.method !== "POST" || req.url !== "/exec") return void res.writeHead(404).end();
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { command: string };
      seen.push({ command: body.command, auth: req.headers.authorization });
      if (req.headers.authorization !== `Bearer ${token}`)
        return void res.writeHead(401, { "content-type": "application/json" }).end('{"error":"unauthorized"}');
      const a = answers.get(body.command) ?? { exit_code: 127, output: "" };
      if (a.status === 403)
        return void res.writeHead(403, { "content-type": "application/json" }).end(JSON.stringify({ error: "refused", served_by: name }));
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ exit_code: a.exit_code, output: a.output, served_by: name, ...extra }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    answers,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const same: [string, Canned][] = [
  ["uptime -p", { exit_code: 0, output: "up 3 days\n" }],
  ["df -h /", { exit_code: 0, output: "Filesystem Size\n/dev/sda1 100G\n" }],
  ["systemctl is-active nginx", { exit_code: 3, output: "inactive\n" }],
];

let dir: string;
let oldBridge: ExecStandIn;
let newGateway: ExecStandIn;

async function run(args: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await shadowCommand(args, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out, err };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "shadow-"));
  oldBridge = await startExecStandIn("stand-in old bridge", "tok-old-0123456789");
  // The new gateway adds fields the old bridge never had; they are not compared.
  newGateway = await startExecStandIn("stand-in new gateway", "tok-new-0123456789", { tier: 0, stderr: "", request_id: "r" });
  for (const [c, a] of same) {
    oldBridge.answers.set(c, a);
    newGateway.answers.set(c, a);
  }
  writeFileSync(join(dir, "old.token"), "tok-old-0123456789\n");
  writeFileSync(join(dir, "new.token"), "tok-new-0123456789\n");
  writeFileSync(join(dir, "commands.txt"), `# known-safe\n${same.map(([c]) => c).join("\n")}\n\n`);
});
afterAll(async () => {
  await oldBridge.close();
  await newGateway.close();
  rmSync(dir, { recursive: true, force: true });
});

const tokens = () => ["--old-token-file", join(dir, "old.token"), "--new-token-file", join(dir, "new.token")];

describe("shadow diff against a stand-in old bridge and a stand-in new gateway on 127.0.0.1", () => {
  it("identical answers → exit 0, no table, each command sent once to each with its own Bearer token", async () => {
    oldBridge.seen.length = 0;
    newGateway.seen.length = 0;
    const { code, out, err } = await run(["--old", oldBridge.url, "--new", `${newGateway.url}/`, ...tokens(), join(dir, "commands.txt")]);
    expect(code).toBe(0);
    expect(out).toEqual([]);
    expect(err.join("\n")).toContain("3 commands, 0 differ");
    expect(oldBridge.seen.map((s) => s.command)).toEqual(same.map(([c]) => c));
    expect(newGateway.seen.map((s) => s.command)).toEqual(same.map(([c]) => c));
    expect(oldBridge.seen.every((s) => s.auth === "Bearer tok-old-0123456789")).toBe(true);
    expect(newGateway.seen.every((s) => s.auth === "Bearer tok-new-0123456789")).toBe(true);
  });

  it("an injected difference in output and exit code, and a refusal, are reported in the table → exit 1", async () => {
    const file = join(dir, "commands-diff.txt");
    writeFileSync(file, "uptime -p\nfree -m\nls /root\n");
    oldBridge.answers.set("free -m", { exit_code: 0, output: "Mem: 31Gi\n" });
    newGateway.answers.set("free -m", { exit_code: 1, output: "Mem: 30Gi\n" });
    oldBridge.answers.set("ls /root", { exit_code: 0, output: "a\n" });
    newGateway.answers.set("ls /root", { status: 403, exit_code: 0, output: "" });
    const { code, out, err } = await run(["--old", oldBridge.url, "--new", newGateway.url, ...tokens(), file]);
    expect(code).toBe(1);
    const table = out.join("\n");
    expect(out[0]).toMatch(/^line\s+command\s+field\s+old\s+new$/);
    expect(table).toMatch(/2\s+free -m\s+exit_code\s+0\s+1/);
    expect(table).toMatch(/2\s+free -m\s+output\s+Mem: 31Gi\\n\s+Mem: 30Gi\\n/);
    expect(table).toMatch(/3\s+ls \/root\s+status\s+200\s+403/);
    expect(table).not.toMatch(/uptime/);
    expect(err.join("\n")).toContain("3 commands, 2 differ");
  });

  it("--json prints one object per differing command", async () => {
    const file = join(dir, "commands-json.txt");
    writeFileSync(file, "free -m\n");
    const { code, out } = await run(["--old", oldBridge.url, "--new", newGateway.url, ...tokens(), "--json", file]);
    expect(code).toBe(1);
    expect(out).toHaveLength(1);
    expect(JSON.parse(out[0]!)).toMatchObject({ line: 1, command: "free -m", differs: ["exit_code", "output"] });
  });

  it("one --token-file for both: the endpoint that rejects it shows as a status difference", async () => {
    const { code, out } = await run([
      "--old",
      oldBridge.url,
      "--new",
      newGateway.url,
      "--token-file",
      join(dir, "old.token"),
      join(dir, "commands.txt"),
    ]);
    expect(code).toBe(1);
    expect(out.join("\n")).toMatch(/uptime -p\s+status\s+200\s+401/);
  });

  it("an endpoint that is down → reported as an error row, exit 1", async () => {
    const port = await closedPort();
    const { code, out } = await run(["--old", oldBridge.url, "--new", `http://127.0.0.1:${port}`, ...tokens(), join(dir, "commands.txt")]);
    expect(code).toBe(1);
    expect(out.join("\n")).toMatch(/error\s+answered\s+ECONNREFUSED/);
  });

  it("usage errors exit 2 and never print a token", async () => {
    const r1 = await run(["--old", oldBridge.url, join(dir, "commands.txt")]);
    expect(r1.code).toBe(2);
    const r2 = await run(["--old", "ftp://x", "--new", newGateway.url, "--token-file", join(dir, "old.token"), join(dir, "commands.txt")]);
    expect(r2.code).toBe(2);
    expect([...r1.err, ...r2.err].join("\n")).not.toContain("tok-old");
  });

  it("reads one command per line, skipping blanks and comments", () => {
    expect(readCommands("a\n\n  # c\nb c\r\n")).toEqual([
      [1, "a"],
      [4, "b c"],
    ]);
  });
});
