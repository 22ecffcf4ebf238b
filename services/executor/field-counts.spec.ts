// The executor's RPCs count a request's repeated and map entries on the raw
// bytes (shared/skeleton.ts fieldCounts) before anything is decoded: an
// 80 MiB message of tiny env entries would otherwise be built into a map of
// millions of keys, as root and before any signature is looked at.
import { describe, expect, it } from "vitest";
import { CommitRequest, ExecuteRequest, ExecutorServiceService } from "../../proto/gen/agent_sudo/v1/executor_pb.js";
import { countedDefinition, fieldCountProblem } from "../shared/skeleton.js";

const EXECUTE = { 7: 8, 8: 4096, 9: 32 };
const env = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`K${i}_TOKEN`, "v"]));
const execute = (o: Partial<ExecuteRequest>) =>
  Buffer.from(
    ExecuteRequest.encode(
      ExecuteRequest.fromPartial({ requestId: "r", command: "echo hi", cwd: "/tmp", host: "h", timeoutS: 10, ...o }),
    ).finish(),
  );

describe("fieldCountProblem", () => {
  it("passes what an honest gateway sends, up to each limit", () => {
    const att = { signer: "classifier", decision: new Uint8Array(300), signature: new Uint8Array(64) };
    const full = execute({ attestations: Array(8).fill(att), undoPaths: Array(4096).fill("/etc/x"), env: env(32) });
    expect(fieldCountProblem(full, EXECUTE)).toBeUndefined();
    const commit = Buffer.from(
      CommitRequest.encode(
        CommitRequest.fromPartial({ requestId: "r", envNames: ["A_TOKEN"], blobs: { ["a".repeat(64)]: new Uint8Array(5) } }),
      ).finish(),
    );
    expect(fieldCountProblem(commit, { 6: 32, 7: 8, 9: 4096 })).toBeUndefined();
    expect(fieldCountProblem(new Uint8Array(0), {})).toBeUndefined();
  });

  it("refuses one entry too many of a counted field, a second copy of any other, and bytes that are no message", () => {
    expect(fieldCountProblem(execute({ env: env(33) }), EXECUTE)).toBe("field 9 more than 32 times");
    expect(fieldCountProblem(execute({ undoPaths: Array(4097).fill("/x") }), EXECUTE)).toBe("field 8 more than 4096 times");
    const twice = Buffer.concat([execute({}), execute({ command: "rm -rf /" })]);
    expect(fieldCountProblem(twice, EXECUTE)).toBe("field 1 more than 1 times");
    expect(fieldCountProblem(Buffer.from([0x0a, 0x05, 0x41]), EXECUTE)).toBe("truncated");
    expect(fieldCountProblem(Buffer.from([0x0b]), EXECUTE)).toBe("field 1: wire type 3");
    expect(fieldCountProblem(Buffer.from([0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]), EXECUTE)).toBe(
      "truncated",
    );
  });

  it("runs before the RPC's own decoder, which never sees a refused message", () => {
    let decoded = 0;
    const def = {
      ...ExecutorServiceService,
      execute: {
        ...ExecutorServiceService.execute,
        requestDeserialize: (b: Buffer) => {
          decoded++;
          return ExecutorServiceService.execute.requestDeserialize(b);
        },
      },
    };
    const counted = countedDefinition(def, { Execute: { fieldCounts: EXECUTE, handle: async () => ({}) } });
    const refused = counted.execute?.requestDeserialize(execute({ env: env(100_000) }));
    expect(decoded).toBe(0);
    expect(refused).not.toHaveProperty("env");
    expect(counted.execute?.requestDeserialize(execute({ env: env(2) }))).toMatchObject({ env: env(2) });
    expect(decoded).toBe(1);
    // An RPC without fieldCounts keeps its own decoder.
    expect(counted.commit).toBe(ExecutorServiceService.commit);
  });
});
