// `agent-sudo rollback UNDO_ID` — a person's way to undo a command: asks the
// executor (over its socket, so as root) to restore what the undo record
// captured. Prints what was restored, removed and what failed.
import { credentials, Metadata } from "@grpc/grpc-js";
import { randomUUID } from "node:crypto";
import { ExecutorServiceClient, type RollbackResponse } from "../proto/gen/agent_sudo/v1/executor_pb.js";
import { loadConfig, socketPath } from "../services/shared/config.js";

export async function rollbackCommand(argv: string[]): Promise<number> {
  const undoId = argv[0];
  if (!undoId || argv.length !== 1 || !/^[0-9a-f-]{36}$/.test(undoId)) {
    process.stderr.write("usage: agent-sudo rollback UNDO_ID   (the undo_id an /exec answer carried; as root)\n");
    return 2;
  }
  const config = loadConfig();
  const client = new ExecutorServiceClient(`unix://${socketPath(config, "executor")}`, credentials.createInsecure());
  try {
    const res = await new Promise<RollbackResponse>((resolve, reject) =>
      client.rollback({ requestId: randomUUID(), undoId }, new Metadata(), { deadline: new Date(Date.now() + 60_000) }, (err, r) => (err ? reject(err) : resolve(r))),
    );
    for (const p of res.restored) process.stdout.write(`restored ${p}\n`);
    for (const p of res.removed) process.stdout.write(`removed  ${p}\n`);
    for (const p of res.failed) process.stdout.write(`FAILED   ${p}\n`);
    return res.failed.length === 0 ? 0 : 1;
  } catch (err) {
    const e = err as { code?: number; details?: string; message: string };
    process.stderr.write(`agent-sudo rollback: ${e.details ?? e.message}${e.code === 14 ? " (is the stack running, and are you root?)" : ""}\n`);
    return 1;
  } finally {
    client.close();
  }
}
