// The executor has no network: under `agent-sudo start` as root it runs in
// its own network namespace (as PrivateNetwork=yes does under systemd). A
// correctly signed tier-0 command that connects out fails; the Unix socket
// between gateway and executor keeps working.
import { credentials } from "@grpc/grpc-js";
import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Role } from "../../proto/gen/agent_sudo/v1/decision_pb.js";
import { type ExecuteResponse, ExecutorServiceClient } from "../../proto/gen/agent_sudo/v1/executor_pb.js";
import { signDecision, touchedDigest } from "../../services/shared/attestation.js";
import { loadPrivateKey } from "../../services/shared/keys.js";
import { startStack, type Stack } from "../support/stack.js";

const root = process.getuid?.() === 0;

describe.skipIf(!root)("executor egress", () => {
  let stack: Stack;
  let listener: Server;
  let port = 0;
  let connections = 0;
  beforeAll(async () => {
    stack = await startStack();
    listener = createServer((sock) => {
      connections++;
      sock.destroy();
    });
    await new Promise<void>((r) => listener.listen(0, "127.0.0.1", () => r()));
    const addr = listener.address();
    port = typeof addr === "object" && addr ? addr.port : 0;
  });
  afterAll(async () => {
    listener?.close();
    await stack?.stop();
  });

  function executeSigned(command: string, grant: { network?: boolean; leaseNetwork?: boolean } = {}): Promise<ExecuteResponse> {
    const client = new ExecutorServiceClient(`unix://${join(stack.home, "run", "executor.sock")}`, credentials.createInsecure());
    const requestId = randomUUID();
    const binding = { command, cwd: "/tmp", host: "primary", runAs: "" };
    const keys = join(stack.home, "keys");
    const tier = grant.leaseNetwork ? 1 : 0;
    const attestations = [signDecision("classifier", loadPrivateKey(keys, "classifier"), { role: Role.ROLE_CLASSIFIER, requestId, binding, tier, ttlS: 30, network: grant.network ?? false, ...(tier ? { touchedDigest: touchedDigest([]) } : {}) })];
    // The flag counts only in the classifier's decision: a lease that carries it grants nothing.
    if (grant.leaseNetwork) attestations.push(signDecision("breaker", loadPrivateKey(keys, "breaker"), { role: Role.ROLE_BREAKER, requestId, binding, tier, ttlS: 10, network: true }));
    return new Promise((resolve, reject) =>
      client.execute({ requestId, ...binding, timeoutS: 10, attestations, undoPaths: [], env: {} }, (err, res) => {
        client.close();
        if (err) reject(err);
        else resolve(res);
      }),
    );
  }

  it("cannot open a TCP connection to the host's loopback", async () => {
    const res = await executeSigned(`exec 3<>/dev/tcp/127.0.0.1/${port} && echo connected`);
    expect(res.exitCode).not.toBe(0);
    expect(Buffer.from(res.stdout).toString()).not.toContain("connected");
    expect(connections).toBe(0);
  });

  it("sees no network interface but a down loopback", async () => {
    const res = await executeSigned("cat /proc/net/dev");
    const ifaces = Buffer.from(res.stdout).toString().split("\n").slice(2).filter(Boolean).map((l) => l.trim().split(":")[0]);
    expect(ifaces).toEqual(["lo"]);
    const udp = await executeSigned(`echo x > /dev/udp/127.0.0.1/${port} && echo sent`);
    expect(Buffer.from(udp.stdout).toString()).not.toContain("sent");
  });

  it("a classifier decision that grants network (a rule flagged `network`) reaches the host's loopback", async () => {
    const before = connections;
    const res = await executeSigned(`exec 3<>/dev/tcp/127.0.0.1/${port} && echo connected`, { network: true });
    expect(Buffer.from(res.stdout).toString()).toContain("connected");
    expect(connections).toBe(before + 1);
  });

  it("the network flag in any other signer's decision grants nothing", async () => {
    const before = connections;
    const res = await executeSigned(`exec 3<>/dev/tcp/127.0.0.1/${port} && echo connected`, { leaseNetwork: true });
    expect(Buffer.from(res.stdout).toString()).not.toContain("connected");
    expect(connections).toBe(before);
  });

  it("still answers through the gateway over its Unix socket", async () => {
    const res = await stack.exec({ command: "echo through-the-socket" });
    expect(res.status).toBe(200);
    expect(res.body.output).toBe("through-the-socket\n");
  });
});
