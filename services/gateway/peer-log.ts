// Connection trouble (aborted requests, read timeouts, refused or evicted
// connections) logged once per peer per interval, at info, without stack
// traces: a flood of 41,000 aborted connections used to write 15 MB of error
// stack traces. The first event of a peer in an interval is logged with what
// happened; later ones in the same interval are counted and the count goes
// out with the peer's next line. Past `maxPeers` tracked peers, the rest
// share one entry ("*"), so memory stays bounded whatever the flood.
import type { Logger } from "../shared/log.js";

interface Entry {
  until: number;
  suppressed: number;
}

export class PeerLog {
  private readonly peers = new Map<string, Entry>();

  constructor(
    private readonly log: Logger,
    private readonly intervalMs = 60_000,
    private readonly maxPeers = 4096,
  ) {}

  note(peer: string, what: string, fields: Record<string, unknown> = {}): void {
    const now = Date.now();
    let key = peer;
    if (!this.peers.has(key) && this.peers.size >= this.maxPeers) {
      for (const [k, e] of this.peers) if (e.until <= now) this.peers.delete(k);
      if (this.peers.size >= this.maxPeers) key = "*";
    }
    const e = this.peers.get(key);
    if (e && e.until > now) {
      e.suppressed++;
      return;
    }
    this.peers.set(key, { until: now + this.intervalMs, suppressed: 0 });
    this.log.info(
      { peer: key, ...fields, ...(e?.suppressed ? { suppressed_since_last: e.suppressed } : {}) },
      `${what} (logged once per peer per ${Math.round(this.intervalMs / 1000)} s)`,
    );
  }
}

/** An error that only says the client went away or was too slow: no stack trace, no error level. */
export function isConnectionTrouble(err: unknown, aborted: boolean): boolean {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return (
    aborted ||
    code === "ECONNRESET" ||
    code === "EPIPE" ||
    code === "ERR_STREAM_PREMATURE_CLOSE" ||
    code === "ERR_HTTP_REQUEST_TIMEOUT" ||
    code === "ECONNABORTED"
  );
}
