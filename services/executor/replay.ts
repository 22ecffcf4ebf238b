// Replay memory: every nonce the executor has accepted, kept in memory until
// well past its decision's expiry. Durability comes from the journal: each
// "execute" entry carries the nonces it consumed and is fsynced before the
// command runs, and a restart reloads the recent ones from the journal's
// tail — so a replay stays refused across restarts, with one fsync per
// command instead of two.
import { scanBack } from "./journal.js";

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

/**
 * The nonces consumed by entries newer than `horizonS` (execute, commit,
 * rollback), read backwards from the end of the journal so start-up cost
 * does not grow with its length.
 */
export function recentNonces(journalPath: string, horizonS = 2 * REPLAY_MARGIN_S + 300): NonceEntry[] {
  const cutoff = Date.now() - horizonS * 1000;
  const out: NonceEntry[] = [];
  scanBack(journalPath, (entry, ts) => {
    if (ts < cutoff) return false;
    if (Array.isArray(entry.nonces)) out.push(...(entry.nonces as NonceEntry[]));
    return true;
  });
  return out;
}
