// Replay memory: every nonce the executor has accepted, kept until well
// past its decision's expiry, in an append-only file fsynced before the
// command runs. A restart reloads it, so a replay stays refused.
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from "node:fs";

const MARGIN_S = 300;

export class ReplayMemory {
  private readonly seen = new Map<string, number>();
  private fd: number;
  private lines = 0;
  private linesAtCompact = 0;

  constructor(private readonly path: string) {
    if (existsSync(path)) {
      const now = Math.floor(Date.now() / 1000);
      for (const line of readFileSync(path, "utf8").split("\n")) {
        const [nonce, expiry] = line.split(" ");
        if (!nonce || !expiry || !/^[0-9a-f]{32}$/.test(nonce)) continue; // torn last line
        const exp = Number(expiry);
        if (exp + MARGIN_S > now) this.seen.set(nonce, exp);
      }
    }
    this.fd = openSync(path, "a", 0o600);
    this.compact();
  }

  has(nonceHex: string): boolean {
    return this.seen.has(nonceHex);
  }

  /** Records nonces durably; returns only after fsync. */
  record(entries: ReadonlyArray<{ nonceHex: string; expiresAt: number }>): void {
    let text = "";
    for (const e of entries) {
      this.seen.set(e.nonceHex, e.expiresAt);
      text += `${e.nonceHex} ${e.expiresAt}\n`;
    }
    writeSync(this.fd, text);
    fsyncSync(this.fd);
    this.lines += entries.length;
    // Every 10,000 lines, drop what has expired (compact prunes `seen` too).
    if (this.lines - this.linesAtCompact >= 10_000) this.compact();
  }

  /** Rewrites the file with only the nonces still worth remembering. */
  private compact(): void {
    const now = Math.floor(Date.now() / 1000);
    for (const [nonce, exp] of this.seen) if (exp + MARGIN_S <= now) this.seen.delete(nonce);
    const tmp = `${this.path}.tmp`;
    const fd = openSync(tmp, "w", 0o600);
    let text = "";
    for (const [nonce, exp] of this.seen) text += `${nonce} ${exp}\n`;
    writeSync(fd, text);
    fsyncSync(fd);
    closeSync(fd);
    renameSync(tmp, this.path);
    closeSync(this.fd);
    this.fd = openSync(this.path, "a", 0o600);
    this.lines = this.seen.size;
    this.linesAtCompact = this.lines;
  }
}
