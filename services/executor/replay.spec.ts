// Replay memory on a real file: survives reopen, compacts without forgetting.
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ReplayMemory } from "./replay.js";

const MARGIN_S = 300; // replay.ts keeps a nonce this long past its expiry

let dir: string;
let path: string;
beforeEach(() => {
  dir = mkdtempSync(join(existsSync("/dev/shm") ? "/dev/shm" : tmpdir(), "agent-sudo-replay-"));
  path = join(dir, "replay.log");
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const nowS = () => Math.floor(Date.now() / 1000);
const nonce = () => randomBytes(16).toString("hex");
const fileLines = () => readFileSync(path, "utf8").split("\n").filter(Boolean);

describe("ReplayMemory", () => {
  it("remembers what it recorded", () => {
    const m = new ReplayMemory(path);
    const a = nonce();
    const b = nonce();
    expect(m.has(a)).toBe(false);
    m.record([{ nonceHex: a, expiresAt: nowS() + 30 }]);
    expect(m.has(a)).toBe(true);
    expect(m.has(b)).toBe(false);
  });

  it("survives a reopen (a restart of the executor)", () => {
    const m = new ReplayMemory(path);
    const batch = Array.from({ length: 5 }, () => ({ nonceHex: nonce(), expiresAt: nowS() + 30 }));
    m.record(batch.slice(0, 2));
    m.record(batch.slice(2));
    const reopened = new ReplayMemory(path);
    for (const e of batch) expect(reopened.has(e.nonceHex)).toBe(true);
    expect(reopened.has(nonce())).toBe(false);
    // and a second generation still remembers
    const again = new ReplayMemory(path);
    for (const e of batch) expect(again.has(e.nonceHex)).toBe(true);
  });

  it("writes the file durably at record time (visible without close), mode 0600", () => {
    const m = new ReplayMemory(path);
    const a = nonce();
    m.record([{ nonceHex: a, expiresAt: nowS() + 30 }]);
    expect(readFileSync(path, "utf8")).toContain(a);
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it("compaction on reopen keeps live nonces and drops long-expired ones", () => {
    const now = nowS();
    const live = [nonce(), nonce(), nonce()];
    const recentlyExpired = nonce(); // expired, but inside the safety margin: kept
    const dead = Array.from({ length: 50 }, nonce);
    const text = [
      ...dead.map((n) => `${n} ${now - MARGIN_S - 10}`),
      `${live[0]} ${now + 30}`,
      `${recentlyExpired} ${now - 10}`,
      `${live[1]} ${now + 300}`,
      `${live[2]} ${now + 5}`,
    ].join("\n");
    writeFileSync(path, `${text}\n`, { mode: 0o600 });
    const m = new ReplayMemory(path);
    for (const n of live) expect(m.has(n)).toBe(true);
    expect(m.has(recentlyExpired)).toBe(true);
    for (const n of dead) expect(m.has(n)).toBe(false);
    const lines = fileLines();
    expect(lines).toHaveLength(4);
    for (const n of [...live, recentlyExpired]) expect(lines.some((l) => l.startsWith(`${n} `))).toBe(true);
    // the compacted file still carries the memory across another restart
    const reopened = new ReplayMemory(path);
    for (const n of [...live, recentlyExpired]) expect(reopened.has(n)).toBe(true);
  });

  it("ignores a torn last line and junk, keeping the good lines", () => {
    const now = nowS();
    const good = nonce();
    writeFileSync(path, `${good} ${now + 30}\nnot-a-nonce ${now + 30}\n${nonce().slice(0, 17)}`, { mode: 0o600 });
    const m = new ReplayMemory(path);
    expect(m.has(good)).toBe(true);
    expect(fileLines()).toEqual([`${good} ${now + 30}`]);
    const after = nonce();
    m.record([{ nonceHex: after, expiresAt: now + 30 }]);
    const reopened = new ReplayMemory(path);
    expect(reopened.has(good)).toBe(true);
    expect(reopened.has(after)).toBe(true);
  });

  it("keeps every live nonce through many records and a reopen", () => {
    const m = new ReplayMemory(path);
    const now = nowS();
    const all: string[] = [];
    for (let i = 0; i < 200; i++) {
      const batch = Array.from({ length: 4 }, () => ({ nonceHex: nonce(), expiresAt: now + 60 }));
      m.record(batch);
      all.push(...batch.map((b) => b.nonceHex));
    }
    for (const n of all) expect(m.has(n)).toBe(true);
    const reopened = new ReplayMemory(path);
    for (const n of all) expect(reopened.has(n)).toBe(true);
  });

  it("compacts while running once most of the file has expired (bounded growth)", () => {
    // A long-running executor records nonces that later expire. The file
    // (and the map) must not grow without bound between restarts: once the
    // log is mostly dead entries, record() is meant to compact it.
    const m = new ReplayMemory(path);
    const now = nowS();
    const live = nonce();
    m.record([{ nonceHex: live, expiresAt: now + 60 }]);
    for (let i = 0; i < 60; i++) {
      m.record(Array.from({ length: 500 }, () => ({ nonceHex: nonce(), expiresAt: now - MARGIN_S - 10 })));
    }
    expect(m.has(live)).toBe(true);
    expect(fileLines().length).toBeLessThan(30_000);
    expect(new ReplayMemory(path).has(live)).toBe(true);
  });
});
