// Each daemon says what it trusts (Postfix's SECURITY sections): every
// service's entry file opens with a SECURITY header that names every RPC its
// .proto service declares — what it serves is never a surprise in the code.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../support/stack.js";

/** The RPC names of `service` in proto/agent_sudo/v1/*.proto. */
function rpcsOf(proto: string, service: string): string[] {
  const text = readFileSync(join(repoRoot, "proto", "agent_sudo", "v1", `${proto}.proto`), "utf8");
  const body = new RegExp(`service ${service} \\{([^}]*)\\}`).exec(text)?.[1] ?? "";
  return [...body.matchAll(/rpc (\w+)\(/g)].map((m) => m[1] ?? "");
}

const ENTRIES: Array<[string, string, string[]]> = [
  ["executor", "services/executor/main.ts", rpcsOf("executor", "ExecutorService")],
  ["classifier", "services/classifier/main.ts", rpcsOf("classifier", "ClassifierService")],
  ["concurrence", "services/concurrence/main.ts", rpcsOf("concurrence", "ConcurrenceService")],
  ["sandbox", "services/sandbox/main.ts", rpcsOf("sandbox", "SandboxService")],
  [
    "breaker",
    "services/breaker/main.ts",
    [
      ...rpcsOf("breaker", "BreakerService"),
      ...rpcsOf("breaker_admin", "BreakerAdminService"),
      ...rpcsOf("breaker_admin", "BreakerRearmService"),
    ],
  ],
];

describe("entry headers", () => {
  it.each(ENTRIES)("%s: a SECURITY header naming every RPC it serves", (_name, file, rpcs) => {
    const text = readFileSync(join(repoRoot, file), "utf8");
    const header = text.slice(0, text.search(/^import /m));
    expect(header).toMatch(/SECURITY/);
    expect(rpcs.length).toBeGreaterThan(1);
    for (const rpc of rpcs) expect(header, `${file} does not name ${rpc}`).toMatch(new RegExp(`\\b${rpc}\\b`));
  });
});
