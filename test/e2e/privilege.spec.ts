// Started as root, every service but the executor runs under its own
// non-root uid, and every socket has the owner and mode of the deployment
// table (0600, owned by the gateway's user: only the gateway may connect).
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lookupUser } from "../../services/shared/privilege.js";
import { startStack, type Stack } from "../support/stack.js";

const root = process.getuid?.() === 0;

function uidsOf(pid: number): { real: number; effective: number; saved: number } {
  const line =
    readFileSync(`/proc/${pid}/status`, "utf8")
      .split("\n")
      .find((l) => l.startsWith("Uid:")) ?? "";
  const [real, effective, saved] = line.split(/\s+/).slice(1, 4).map(Number);
  return { real: real ?? -1, effective: effective ?? -1, saved: saved ?? -1 };
}

const EXPECTED_USER: Record<string, string> = {
  gateway: "agent-sudo-gw",
  classifier: "agent-sudo-cls",
  concurrence: "agent-sudo-con",
  sandbox: "agent-sudo-sbx",
  breaker: "agent-sudo-brk",
};

describe.skipIf(!root)("privilege separation when started as root", () => {
  let stack: Stack;
  beforeAll(async () => {
    // The supervisor creates the service users when they are missing.
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("runs each unprivileged service under its own uid, for good", () => {
    const pids = stack.pids();
    const seen = new Set<number>();
    for (const [service, user] of Object.entries(EXPECTED_USER)) {
      const account = lookupUser(user);
      expect(account, `${user} exists`).toBeDefined();
      const ids = uidsOf(pids[service] as number);
      expect(ids, service).toEqual({ real: account?.uid, effective: account?.uid, saved: account?.uid });
      expect(ids.real).not.toBe(0);
      seen.add(ids.real);
    }
    expect(seen.size).toBe(5);
    expect(uidsOf(pids.executor as number).effective).toBe(0);
  });

  it("gives every service socket mode 0600, owned by the gateway's user", () => {
    const gw = lookupUser("agent-sudo-gw");
    for (const service of ["executor", "classifier", "concurrence", "sandbox", "breaker"]) {
      const st = statSync(join(stack.home, "run", `${service}.sock`));
      expect(st.isSocket()).toBe(true);
      expect(st.mode & 0o777, service).toBe(0o600);
      expect(st.uid, service).toBe(gw?.uid);
    }
  });

  it("keeps private keys 0600 and the tokens file 0600", () => {
    for (const signer of ["classifier", "concurrence", "sandbox", "breaker"]) {
      expect(statSync(join(stack.home, "keys", `${signer}.key`)).mode & 0o777).toBe(0o600);
      expect(statSync(join(stack.home, "keys", `${signer}.pub`)).mode & 0o777).toBe(0o644);
    }
    expect(statSync(join(stack.home, "tokens.json")).mode & 0o777).toBe(0o600);
    expect(statSync(join(stack.home, "state", "executor")).mode & 0o777).toBe(0o700);
  });
});
