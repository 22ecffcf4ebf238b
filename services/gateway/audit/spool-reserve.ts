// The spool's reserve: a file (`reserve`) of set-aside bytes in the spool's
// directory, so that when the file system fills up, the records that must
// not be lost — refusals (nothing ran, but the attempt is on the record) and
// outcomes of commands that already ran — can still be written: the reserve
// is deleted and they go into the room it held. While it is not held, intents
// (the records that let a command run) are refused, so no new command starts
// whose outcome might find no room. It is taken again as soon as there is
// room (after shipped segments are freed, or before the next intent).
//
// The bytes are random, not zeros: a compressing file system (btrfs, ZFS)
// would store zeros in no space at all. The size is the configured one, but
// at most an eighth of the file system, so a small dedicated spool disk still
// leaves room for records (README "Audit").
//
// How it fails: taking it never throws (held stays false and the reason is
// kept for /health); releasing it never throws either (false: nothing to
// release). One attempt to take it per second at most, so a full disk does
// not turn every intent into a megabyte of writes.
import { randomBytes } from "node:crypto";
import { promises as fsp } from "node:fs";
import { join } from "node:path";
import type { Logger } from "../../shared/log.js";
import { fsyncDir } from "./spool-files.js";

const CHUNK = 64 * 1024;
const RETRY_MS = 1000;

export interface ReserveStats {
  bytes: number;
  held: boolean;
  /** Why it could not be taken, the last time it could not. */
  last_error?: string;
  /** When it was last released for records (ISO time). */
  released_at?: string;
}

export function isNoSpace(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return code === "ENOSPC" || code === "EDQUOT";
}

export class SpoolReserve {
  private held = false;
  private lastError: string | undefined;
  private releasedAt: string | undefined;
  private lastAttempt = 0;
  private taking: Promise<boolean> | undefined;

  private constructor(
    private readonly dir: string,
    readonly bytes: number,
    private readonly log: Logger | undefined,
  ) {}

  private get path(): string {
    return join(this.dir, "reserve");
  }

  /** Uses a reserve file already there, or tries to make one. `bytes` 0: no reserve (always "held"). */
  static async open(dir: string, wanted: number, log?: Logger): Promise<SpoolReserve> {
    let bytes = wanted;
    if (bytes > 0) {
      const fs = await fsp.statfs(dir).catch(() => undefined);
      if (fs) bytes = Math.min(bytes, Math.floor((fs.blocks * fs.bsize) / 8));
    }
    const r = new SpoolReserve(dir, bytes, log);
    if (bytes === 0) {
      r.held = true;
      await fsp.rm(r.path, { force: true });
      return r;
    }
    const st = await fsp.stat(r.path).catch(() => undefined);
    if (st?.isFile() && st.size === bytes) r.held = true;
    else await r.take(true);
    return r;
  }

  isHeld(): boolean {
    return this.held;
  }

  stats(): ReserveStats {
    return {
      bytes: this.bytes,
      held: this.held,
      ...(this.lastError !== undefined ? { last_error: this.lastError } : {}),
      ...(this.releasedAt !== undefined ? { released_at: this.releasedAt } : {}),
    };
  }

  /** Sets the reserve aside (written, fsynced, renamed into place). Resolves whether it is held. */
  take(force = false): Promise<boolean> {
    if (this.held) return Promise.resolve(true);
    if (!force && Date.now() - this.lastAttempt < RETRY_MS) return Promise.resolve(false);
    this.taking ??= this.write().finally(() => {
      this.taking = undefined;
    });
    return this.taking;
  }

  private async write(): Promise<boolean> {
    this.lastAttempt = Date.now();
    const tmp = join(this.dir, "reserve.tmp");
    try {
      const fh = await fsp.open(tmp, "w", 0o600);
      try {
        for (let done = 0; done < this.bytes; done += CHUNK) await fh.write(randomBytes(Math.min(CHUNK, this.bytes - done)));
        await fh.datasync();
      } finally {
        await fh.close();
      }
      await fsp.rename(tmp, this.path);
      await fsyncDir(this.dir);
      this.held = true;
      if (this.lastError !== undefined) this.log?.info({ bytes: this.bytes }, "audit spool reserve set aside again: intents are accepted");
      this.lastError = undefined;
      return true;
    } catch (err) {
      await fsp.rm(tmp, { force: true }).catch(() => undefined);
      const e = err as NodeJS.ErrnoException;
      const first = this.lastError === undefined;
      this.lastError = `${e.code ?? ""} ${e.message}`.trim();
      if (first)
        this.log?.error(
          { bytes: this.bytes, err: this.lastError },
          "audit spool reserve cannot be set aside: intents are refused until it can",
        );
      return false;
    }
  }

  /** Gives the reserve's room to records. Resolves whether anything was released. */
  async release(): Promise<boolean> {
    if (!this.held || this.bytes === 0) return false;
    try {
      await fsp.rm(this.path, { force: true });
      await fsyncDir(this.dir);
    } catch (err) {
      this.log?.error({ err: (err as Error).message }, "audit spool reserve could not be released");
      return false;
    }
    this.held = false;
    this.releasedAt = new Date().toISOString();
    this.lastError = "released for refusals and outcomes: the file system is full";
    this.log?.error(
      { bytes: this.bytes },
      "audit spool full: reserve released for refusals and outcomes; intents are refused until there is room again",
    );
    return true;
  }
}
