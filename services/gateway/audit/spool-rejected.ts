// Which requests lost a record on the way to PostgreSQL: lines of the spool
// that were damaged (bad checksum, bad shape) or that PostgreSQL refused.
// The reconciler asks, so that an intent whose outcome was recorded and then
// lost is not closed as "the gateway stopped in between" — it says the
// outcome record was damaged, and that the command may have run.
//
// Sources: rejected.log as it was at open (its last 4 MiB), the damaged lines
// the open scan found (not yet in rejected.log: they go there when read),
// and every line rejected since. A damaged line may no longer name its
// request (the damage can hit the id itself): those are counted apart.
// What it trusts: nothing in the lines; the id is taken only when it has the
// shape of a request id. Never throws.
import { promises as fsp } from "node:fs";
import { join } from "node:path";

const REQUEST_ID = /"request_id":"([A-Za-z0-9._:-]{1,128})"/;
const PHASE = /"phase":"(intent|outcome)"/;
const TAIL_BYTES = 4 * 1024 * 1024;

export interface RejectedRecord {
  phase?: string;
  reason: string;
}

export interface RejectedRecordsView {
  /** The rejected record(s) of a request, if any. */
  forRequest(requestId: string): RejectedRecord[];
  /** Rejected lines that name no request. */
  unattributed(): number;
}

export class RejectedRecords implements RejectedRecordsView {
  private readonly byRequest = new Map<string, RejectedRecord[]>();
  private readonly seen = new Set<string>();
  private readonly anonymous = new Set<string>();

  /** Notes one rejected line; the same (raw, reason) twice counts once. */
  note(raw: string, reason: string): void {
    const key = `${reason}\u0000${raw}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    const id = REQUEST_ID.exec(raw)?.[1];
    if (id === undefined) {
      this.anonymous.add(key);
      return;
    }
    const phase = PHASE.exec(raw)?.[1];
    this.byRequest.set(id, [...(this.byRequest.get(id) ?? []), { ...(phase ? { phase } : {}), reason }]);
  }

  forRequest(requestId: string): RejectedRecord[] {
    return this.byRequest.get(requestId) ?? [];
  }

  unattributed(): number {
    return this.anonymous.size;
  }

  /** What rejected.log already holds (its last 4 MiB). */
  async load(dir: string): Promise<this> {
    let text: string;
    try {
      const fh = await fsp.open(join(dir, "rejected.log"), "r");
      try {
        const size = (await fh.stat()).size;
        const start = Math.max(0, size - TAIL_BYTES);
        const buf = Buffer.alloc(size - start);
        await fh.read(buf, 0, buf.length, start);
        text = buf.toString("utf8");
        if (start > 0) text = text.slice(text.indexOf("\n") + 1);
      } finally {
        await fh.close();
      }
    } catch {
      return this;
    }
    for (const line of text.split("\n")) {
      if (!line) continue;
      try {
        const e = JSON.parse(line) as { raw?: unknown; reason?: unknown };
        if (typeof e.raw === "string" && typeof e.reason === "string") this.note(e.raw, e.reason);
      } catch {
        // a torn line of rejected.log itself: nothing to attribute
      }
    }
    return this;
  }
}
