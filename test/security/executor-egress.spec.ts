// Commands the executor runs reach no network unless the classifier's signed
// decision says `network`: tier 0 has its own network namespace (the
// envelope's), tier 3 runs in the executor's, which has none under
// `agent-sudo start` as root (as PrivateNetwork=yes under systemd). A
// correctly signed command that connects out fails; the flag in any other
// signer's decision grants nothing; the Unix socket between gateway and
// executor keeps working.
import { credentials } from "@grpc/grpc-js";
import { randomUUID } from "node:crypto";
import { createSocket, type Socket } from "node:dgram";
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
  let udp: Socket;
  let udpPort = 0;
  let datagrams = 0;
  beforeAll(async () => {
    udp = createSocket("udp4");
    udp.on("message", () => datagrams++);
    await new Promise<void>((r) => udp.bind(0, "127.0.0.1", () => r()));
    udpPort = udp.address().port;
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
    udp?.close();
    await stack?.stop();
  });

  /**
   * A correctly signed Execute: tier 0 (classifier) or tier 3 (classifier,
   * concurrence, breaker lease). `network` is the flag in the classifier's
   * decision; `othersNetwork` puts it in the concurrence's and the lease.
   */
  function executeSigned(command: string, o: { tier?: 0 | 3; network?: boolean; othersNetwork?: boolean } = {}): Promise<ExecuteResponse> {
    const client = new ExecutorServiceClient(`unix://${join(stack.home, "run", "executor.sock")}`, credentials.createInsecure());
    const requestId = randomUUID();
    const binding = { command, cwd: "/tmp", host: "primary", runAs: "", source: "sudo" as const };
    const keys = join(stack.home, "keys");
    const tier = o.tier ?? 0;
    const attestations = [
      signDecision("classifier", loadPrivateKey(keys, "classifier"), {
        role: Role.ROLE_CLASSIFIER,
        requestId,
        binding,
        tier,
        ttlS: 30,
        network: o.network ?? false,
        liveAction: tier === 3,
        ...(tier ? { touchedDigest: touchedDigest([]) } : {}),
      }),
    ];
    if (tier === 3) {
      // The flag counts only in the classifier's decision: a concurrence or a lease that carries it grants nothing.
      attestations.push(
        signDecision("concurrence", loadPrivateKey(keys, "concurrence"), {
          role: Role.ROLE_CONCURRENCE,
          requestId,
          binding,
          tier,
          ttlS: 30,
          network: o.othersNetwork ?? false,
        }),
      );
      attestations.push(
        signDecision("breaker", loadPrivateKey(keys, "breaker"), {
          role: Role.ROLE_BREAKER,
          requestId,
          binding,
          tier,
          ttlS: 10,
          network: o.othersNetwork ?? false,
        }),
      );
    }
    return new Promise((resolve, reject) =>
      client.execute({ requestId, ...binding, timeoutS: 10, attestations, undoPaths: [], env: {} }, (err, res) => {
        client.close();
        if (err) reject(err);
        else resolve(res);
      }),
    );
  }
  const connect = () => `exec 3<>/dev/tcp/127.0.0.1/${port} && echo connected`;

  it.each([0, 3] as const)("tier %i cannot open a TCP connection to the host's loopback", async (tier) => {
    const before = connections;
    const res = await executeSigned(connect(), { tier });
    expect(res.exitCode).not.toBe(0);
    expect(Buffer.from(res.stdout).toString()).not.toContain("connected");
    expect(connections).toBe(before);
  });

  const sendUdp = () => `echo x > /dev/udp/127.0.0.1/${udpPort}`;
  const settle = () => new Promise((r) => setTimeout(r, 200));

  it.each([0, 3] as const)("tier %i sees no network interface but a loopback, and no UDP datagram reaches the host", async (tier) => {
    const res = await executeSigned("cat /proc/net/dev", { tier });
    expect(res.exitCode).toBe(0);
    const ifaces = Buffer.from(res.stdout)
      .toString()
      .split("\n")
      .slice(2)
      .filter(Boolean)
      .map((l) => l.trim().split(":")[0]);
    expect(ifaces).toEqual(["lo"]);
    // Tier 0's own loopback may take the datagram; the host's never sees it.
    const before = datagrams;
    await executeSigned(sendUdp(), { tier });
    await settle();
    expect(datagrams).toBe(before);
  });

  it.each([0, 3] as const)(
    "a tier-%i classifier decision that grants network (a rule flagged `network`) reaches the host's loopback",
    async (tier) => {
      const before = connections;
      const res = await executeSigned(connect(), { tier, network: true });
      expect(Buffer.from(res.stdout).toString()).toContain("connected");
      expect(connections).toBe(before + 1);
      // The control for the UDP test above: with the flag a datagram arrives.
      const sent = datagrams;
      expect((await executeSigned(sendUdp(), { tier, network: true })).exitCode).toBe(0);
      for (let i = 0; i < 20 && datagrams === sent; i++) await settle();
      expect(datagrams).toBe(sent + 1);
    },
  );

  it("the network flag in any other signer's decision grants nothing", async () => {
    const before = connections;
    const res = await executeSigned(connect(), { tier: 3, othersNetwork: true });
    expect(res.exitCode).not.toBe(0);
    expect(Buffer.from(res.stdout).toString()).not.toContain("connected");
    expect(connections).toBe(before);
    const sent = datagrams;
    await executeSigned(sendUdp(), { tier: 3, othersNetwork: true });
    await settle();
    expect(datagrams).toBe(sent);
  });

  it("still answers through the gateway over its Unix socket", async () => {
    const res = await stack.exec({ command: "echo through-the-socket" });
    expect(res.status).toBe(200);
    expect(res.body.output).toBe("through-the-socket\n");
  });
});
