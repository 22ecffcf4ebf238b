// gRPC clients for the services the gateway drives, over their Unix
// sockets, as promises with deadlines. A service that is down fails fast
// with UNAVAILABLE; the gateway turns that into a 503 naming it.
import { credentials } from "@grpc/grpc-js";
import { call } from "../shared/unary.js";
import { BreakerServiceClient } from "../../proto/gen/agent_sudo/v1/breaker_pb.js";
import { ClassifierServiceClient } from "../../proto/gen/agent_sudo/v1/classifier_pb.js";
import { ConcurrenceServiceClient } from "../../proto/gen/agent_sudo/v1/concurrence_pb.js";
import { ExecutorServiceClient } from "../../proto/gen/agent_sudo/v1/executor_pb.js";
import { SandboxServiceClient } from "../../proto/gen/agent_sudo/v1/sandbox_pb.js";
import { type Config, type ServiceName, socketPath } from "../shared/config.js";

export { call } from "../shared/unary.js";

const MiB = 1024 * 1024;
/** A run's report and its commit carry the changed content (≤ 64 MiB); judges get ≤ 4 MiB of it. */
function options(sendBytes: number, receiveBytes = 40 * MiB) {
  return {
    "grpc.max_receive_message_length": receiveBytes,
    "grpc.max_send_message_length": sendBytes,
    // Reconnect quickly after a service restarts.
    "grpc.initial_reconnect_backoff_ms": 100,
    "grpc.max_reconnect_backoff_ms": 1000,
    // No channelz bookkeeping (grpc-js traces every call for it: CPU on every hop, read by nobody here).
    "grpc.enable_channelz": 0,
  };
}

export interface ServiceClients {
  executor: ExecutorServiceClient;
  classifier: ClassifierServiceClient;
  concurrence: ConcurrenceServiceClient;
  sandbox: SandboxServiceClient;
  breaker: BreakerServiceClient;
}

export function connectServices(config: Config): ServiceClients {
  const addr = (name: ServiceName) => `unix://${socketPath(config, name)}`;
  const insecure = credentials.createInsecure();
  return {
    executor: new ExecutorServiceClient(addr("executor"), insecure, options(80 * MiB)),
    classifier: new ClassifierServiceClient(addr("classifier"), insecure, options(16 * MiB)),
    concurrence: new ConcurrenceServiceClient(addr("concurrence"), insecure, options(16 * MiB)),
    sandbox: new SandboxServiceClient(addr("sandbox"), insecure, options(128 * 1024, 80 * MiB)),
    breaker: new BreakerServiceClient(addr("breaker"), insecure, options(128 * 1024)),
  };
}

export interface ServiceHealth {
  status: "up" | "down" | "refusing";
  detail: string;
}

export async function healthOf(clients: ServiceClients): Promise<Record<string, ServiceHealth>> {
  const entries = await Promise.all(
    (Object.keys(clients) as Array<keyof ServiceClients>).map(async (name) => {
      const client = clients[name];
      try {
        const res = await call(client, client.health, {}, 1000);
        // "refusing": running, but it will not serve (a classifier whose policy may not be trusted).
        return [name, { status: res.ok ? "up" : res.detail.startsWith("refusing: ") ? "refusing" : "down", detail: res.detail }] as const;
      } catch {
        return [name, { status: "down", detail: "" }] as const;
      }
    }),
  );
  return Object.fromEntries(entries);
}
