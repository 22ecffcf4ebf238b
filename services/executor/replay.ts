// Replay memory: every nonce the executor has accepted, kept in memory until
// well past its decision's expiry. Durability comes from the journal: each
// "execute" entry carries the nonces it consumed and is fsynced before the
// command runs, and a restart reloads the recent ones from the journal's
// tail — so a replay stays refused across restarts, with one fsync per
// command instead of two.
import { closeSync, existsSync, fstatSync, openSync, readSync } from "node:fs";

export const REPLAY_MARGIN_S = 300;

export interface NonceEntry {
  nonceHex: string;
  expiresAt: number;
}

export class ReplayMemory {
  private readonly seen = new Map<string, number>();
  private sincePrune = 0;

  constructor(initial: Iterable<NonceEntry> = []) {
    const now = Math.floor(Date.now() / 1000);
    for (const e of initial) if (e.expiresAt + REPLAY_MARGIN_S > now) this.seen.set(e.nonceHex, e.expiresAt);
  }

  has(nonceHex: string): boolean {
    return this.seen.has(nonceHex);
  }

  /** Remembers nonces in memory; the caller journals them before running anything. */
  record(entries: readonly NonceEntry[]): void {
    for (const e of entries) this.seen.set(e.nonceHex, e.expiresAt);
    this.sincePrune += entries.length;
    if (this.sincePrune >= 10_000) this.prune();
  }

  get size(): number {
    return this.seen.size;
  }

  prune(now = Math.floor(Date.now() / 1000)): void {
    for (const [nonce, exp] of this.seen) if (exp + REPLAY_MARGIN_S <= now) this.seen.delete(nonce);
    this.sincePrune = 0;
  }
}

interface JournalLine {
  ts?: string;
  entry?: { event?: string; nonces?: NonceEntry[] };
}

/**
 * The nonces of "execute" entries newer than `horizonS`, read backwards from
 * the end of the journal so start-up cost does not grow with its length.
 */
export function recentNonces(journalPath: string, horizonS = 2 * REPLAY_MARGIN_S + 300): NonceEntry[] {
  if (!existsSync(journalPath)) return [];
  const cutoff = Date.now() - horizonS * 1000;
  const fd = openSync(journalPath, "r");
  const out: NonceEntry[] = [];
  try {
    let end = fstatSync(fd).size;
    let carry = Buffer.alloc(0);
    const chunk = 1 << 20;
    while (end > 0) {
      const start = Math.max(0, end - chunk);
      const buf = Buffer.alloc(end - start);
      readSync(fd, buf, 0, buf.length, start);
      const text = Buffer.concat([buf, carry]);
      const lines = text.toString("utf8").split("\n");
      carry = start > 0 ? Buffer.from(lines.shift() ?? "", "utf8") : Buffer.alloc(0);
      for (let i = lines.length - 1; i >= 0; i--) {
        const line = lines[i] ?? "";
        let parsed: JournalLine;
        try {
          parsed = JSON.parse(line.slice(line.indexOf(" ") + 1)) as JournalLine;
        } catch {
          continue; // a torn or foreign line
        }
        if (parsed.ts && Date.parse(parsed.ts) < cutoff) return out;
        if (parsed.entry?.event === "execute" && Array.isArray(parsed.entry.nonces)) out.push(...parsed.entry.nonces);
      }
      end = start;
    }
    return out;
  } finally {
    closeSync(fd);
  }
}
