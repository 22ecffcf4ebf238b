// Child process for crash-replay.spec.ts: appends intent+outcome pairs from
// 20 concurrent writers with the shipper running, printing "ack <id> <phase>"
// for each append the spool acknowledged, until it is SIGKILLed.
import { startShipper } from "../../services/gateway/audit/shipper.js";
import { openSpool } from "../../services/gateway/audit/spool.js";
import { makeRecord } from "./records.js";

const spool = await openSpool({ dir: process.env.SPOOL_DIR ?? "" });
startShipper({ spool, databaseUrl: process.env.DATABASE_URL ?? "", batchSize: 100 });
let next = 0;
process.stdout.write("ready\n");
await Promise.all(
  Array.from({ length: 20 }, async () => {
    for (;;) {
      const i = next++;
      await spool.append(makeRecord(i, "intent", "crash"));
      process.stdout.write(`ack crash-${i} intent\n`);
      await spool.append(makeRecord(i, "outcome", "crash"));
      process.stdout.write(`ack crash-${i} outcome\n`);
    }
  }),
);
