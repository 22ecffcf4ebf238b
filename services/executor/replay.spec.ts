// Replay memory: in memory while running, reloaded from the journal's tail
// after a restart (the journal entry is what is fsynced before a command).
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openJournal } from "./journal.js";
import { recentNonces, REPLAY_MARGIN_S, ReplayMemory } from "./replay.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "agent-sudo-replay-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const nowS = () => Math.floor(Date.now() / 1000);
const nonce = () => randomBytes(16).toString("hex");

describe("ReplayMemory", () => {
  it("remembers what it recorded, and nothing else", () => {
    const m = new ReplayMemory();
    const a = nonce();
    m.record([{ nonceHex: a, expiresAt: nowS() + 30 }]);
    expect(m.has(a)).toBe(true);
    expect(m.has(nonce())).toBe(false);
  });

  it("forgets nonces only well past their expiry", () => {
    const m = new ReplayMemory();
    const old = nonce();
    const live = nonce();
    m.record([
      { nonceHex: old, expiresAt: nowS() - REPLAY_MARGIN_S - 1 },
      { nonceHex: live, expiresAt: nowS() - 10 },
    ]);
    m.prune();
    expect(m.has(old)).toBe(false);
    expect(m.has(live)).toBe(true);
  });

  it("stays bounded: pruning runs as records arrive", () => {
    const m = new ReplayMemory();
    const expired = nowS() - REPLAY_MARGIN_S - 1;
    for (let i = 0; i < 30_000; i++) m.record([{ nonceHex: nonce(), expiresAt: expired }]);
    expect(m.size).toBeLessThan(10_001);
  });
});

describe("recentNonces (the journal as the replay memory's durable copy)", () => {
  it("reloads the nonces of recent execute entries after a restart", () => {
    const path = join(dir, "journal.log");
    const j = openJournal(path);
    const consumed = [
      { nonceHex: nonce(), expiresAt: nowS() + 30 },
      { nonceHex: nonce(), expiresAt: nowS() + 30 },
    ];
    j.append({ event: "execute", request_id: "r1", nonces: consumed.slice(0, 1) });
    j.append({ event: "outcome", request_id: "r1", exit_code: 0 });
    j.append({ event: "refused", request_id: "r2", code: "ATTESTATION_REPLAYED" });
    j.append({ event: "execute", request_id: "r3", nonces: consumed.slice(1) });
    j.close();
    const reloaded = new ReplayMemory(recentNonces(path));
    for (const c of consumed) expect(reloaded.has(c.nonceHex)).toBe(true);
    expect(reloaded.size).toBe(2);
  });

  it("reads far back through a long journal, in chunks", () => {
    const path = join(dir, "journal.log");
    const j = openJournal(path);
    const first = { nonceHex: nonce(), expiresAt: nowS() + 30 };
    j.append({ event: "execute", request_id: "first", nonces: [first] });
    for (let i = 0; i < 8000; i++) j.append({ event: "outcome", request_id: `r${i}`, pad: "x".repeat(200) });
    j.close();
    expect(recentNonces(path).map((n) => n.nonceHex)).toContain(first.nonceHex);
  });

  it("returns nothing for a missing journal", () => {
    expect(recentNonces(join(dir, "none.log"))).toEqual([]);
  });
});
