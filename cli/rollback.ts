// `agent-sudo rollback UNDO_ID` — a person's way to undo a command: signs a
// rollback grant for exactly that undo record with the operator key
// (keys/operator.key, root only: reading it is what makes this a person's
// act) and asks the executor (over its socket, so as root) to restore what
// the record captured. Prints what was restored, removed and what failed.
import { credentials, Metadata } from "@grpc/grpc-js";
import { randomUUID } from "node:crypto";
import { Role } from "../proto/gen/agent_sudo/v1/decision_pb.js";
import { ExecutorServiceClient, type RollbackResponse } from "../proto/gen/agent_sudo/v1/executor_pb.js";
import { rollbackDigest, signDecision } from "../services/shared/attestation.js";
import { loadConfig, socketPath } from "../services/shared/config.js";
import { loadPrivateKey } from "../services/shared/keys.js";

export async function rollbackCommand(argv: string[]): Promise<number> {
  const undoId = argv[0];
  if (!undoId || argv.length !== 1 || !/^[0-9a-f-]{36}$/.test(undoId)) {
    process.stderr.write("usage: agent-sudo rollback UNDO_ID   (the undo_id an /exec answer carried; as root)\n");
    return 2;
  }
  const config = loadConfig();
  let key;
  try {
    key = loadPrivateKey(config.keysDir, "operator");
  } catch (err) {
    process.stderr.write(`agent-sudo rollback: cannot read the operator key (${(err as Error).message}); run it as root on the host\n`);
    return 1;
  }
  const requestId = randomUUID();
  const grant = signDecision("operator", key, {
    role: Role.ROLE_OPERATOR,
    requestId,
    binding: { command: "", cwd: "", host: config.host_id, runAs: "", source: "sudo" },
    commandDigest: rollbackDigest(undoId, config.host_id),
    tier: 0,
    ttlS: 30,
    rule: "operator rollback",
  });
  const client = new ExecutorServiceClient(`unix://${socketPath(config, "executor")}`, credentials.createInsecure());
  try {
    const res = await new Promise<RollbackResponse>((resolve, reject) =>
      client.rollback({ requestId, undoId, grant }, new Metadata(), { deadline: new Date(Date.now() + 60_000) }, (err, r) =>
        err ? reject(err) : resolve(r),
      ),
    );
    for (const p of res.restored) process.stdout.write(`restored ${p}\n`);
    for (const p of res.removed) process.stdout.write(`removed  ${p}\n`);
    for (const p of res.failed) process.stdout.write(`FAILED   ${p}\n`);
    return res.failed.length === 0 ? 0 : 1;
  } catch (err) {
    const e = err as { code?: number; details?: string; message: string };
    const hint =
      e.code === 14
        ? " (is the stack running, and are you root?)"
        : (e.details ?? "").startsWith("ATTESTATION_MISMATCH")
          ? ` (the grant names host ${config.host_id}: set AGENT_SUDO_HOST_ID as the stack has it)`
          : "";
    process.stderr.write(`agent-sudo rollback: ${e.details ?? e.message}${hint}\n`);
    return 1;
  } finally {
    client.close();
  }
}
