// The breaker's persisted state: armed or disarmed (by which rule, why,
// since when), whether the trip notification was delivered, and the record
// of trips and rearms. Every change is written to a temp file, fsynced,
// renamed over state.json and the directory fsynced before the change is
// acted on, so a crash or restart never re-arms it. A state file that cannot
// be read is treated as disarmed (fail closed) until a person re-arms.
import {
  chownSync,
  closeSync,
  constants,
  lchownSync,
  rmSync,
  fchownSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  writeSync,
  chmodSync,
} from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import type { Account } from "../shared/privilege.js";

export const STATE_FILE = "state.json";
const MAX_EVENTS = 200;

const EventShape = z.object({
  at: z.number().int(),
  kind: z.enum(["trip", "rearm"]),
  rule: z.string(),
  reason: z.string(),
  by: z.string(),
});
export type BreakerEventRecord = z.infer<typeof EventShape>;

const FileShape = z.object({
  version: z.literal(1),
  armed: z.boolean(),
  rule: z.string(),
  reason: z.string(),
  since: z.number().int(),
  notified: z.boolean(),
  events: z.array(EventShape).max(MAX_EVENTS),
});
export type BreakerStateRecord = z.infer<typeof FileShape>;

/**
 * The breaker's own state dir, created before the privilege drop: owned by
 * the breaker's user, mode 0700 (and its state file, if any, too).
 */
export function prepareStateDir(stateDir: string, owner: Account | undefined): string {
  const dir = join(stateDir, "breaker");
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  if (owner) {
    chownSync(dir, owner.uid, owner.gid);
    // lchown: the breaker's user owns this dir and may have put a link here; root never chowns what it points at.
    const file = join(dir, STATE_FILE);
    if (existsSync(file)) lchownSync(file, owner.uid, owner.gid);
  }
  return dir;
}

function nowS(): number {
  return Math.floor(Date.now() / 1000);
}

/** The record in `file`; missing → armed; unreadable → disarmed, with the problem. */
function readRecord(file: string): { record: BreakerStateRecord; problem?: string } {
  if (!existsSync(file)) return { record: { version: 1, armed: true, rule: "", reason: "", since: nowS(), notified: true, events: [] } };
  let problem: string;
  try {
    // Read as root before the drop: a link the breaker's user left here is not followed (ELOOP: disarmed).
    const fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW);
    let text: string;
    try {
      text = readFileSync(fd, "utf8");
    } finally {
      closeSync(fd);
    }
    const parsed = FileShape.safeParse(JSON.parse(text));
    if (parsed.success) return { record: parsed.data };
    problem = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
  } catch (err) {
    problem = (err as Error).message;
  }
  const reason = `the breaker's state file could not be read (${problem.slice(0, 200)}); a person must re-arm`;
  return { record: { version: 1, armed: false, rule: "state-unreadable", reason, since: nowS(), notified: false, events: [] }, problem };
}

export class BreakerState {
  private record: BreakerStateRecord;
  /** Why the file could not be read, when it could not. */
  readonly loadProblem: string | undefined;

  /**
   * `owner`: when constructed as root before the drop, the user every file
   * written is handed to (the breaker's own), so it can replace them later.
   */
  constructor(
    private readonly dir: string,
    private readonly owner?: Account,
  ) {
    const { record, problem } = readRecord(join(dir, STATE_FILE));
    this.record = record;
    this.loadProblem = problem;
    if (problem !== undefined) this.push({ at: record.since, kind: "trip", rule: record.rule, reason: record.reason, by: "breaker" });
    if (problem !== undefined || !existsSync(join(dir, STATE_FILE))) this.persist();
  }

  get armed(): boolean {
    return this.record.armed;
  }

  view(): Readonly<BreakerStateRecord> {
    return { ...this.record, events: [...this.record.events] };
  }

  /** Disarms (persisted before returning). False when it was already disarmed. */
  trip(rule: string, reason: string, by: string): boolean {
    if (!this.record.armed) return false;
    const at = nowS();
    this.record = { ...this.record, armed: false, rule, reason, since: at, notified: false };
    this.push({ at, kind: "trip", rule, reason, by });
    this.persist();
    return true;
  }

  /** Re-arms (persisted before returning); recorded even when already armed. */
  rearm(reason: string, by: string): void {
    const at = nowS();
    this.record = { ...this.record, armed: true, rule: "", reason: "", since: at, notified: true };
    this.push({ at, kind: "rearm", rule: "", reason, by });
    this.persist();
  }

  markNotified(): void {
    if (this.record.notified || this.record.armed) return;
    this.record = { ...this.record, notified: true };
    this.persist();
  }

  private push(event: BreakerEventRecord): void {
    this.record.events.push(event);
    if (this.record.events.length > MAX_EVENTS) this.record.events.splice(0, this.record.events.length - MAX_EVENTS);
  }

  private persist(): void {
    const file = join(this.dir, STATE_FILE);
    const tmp = `${file}.tmp-${process.pid}`;
    // Possibly as root (the first write, before the drop), in a dir the breaker's user owns: a leftover
    // or planted name is removed, never followed, and the new file is made here (O_EXCL | O_NOFOLLOW).
    rmSync(tmp, { force: true });
    const fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
    try {
      writeSync(fd, `${JSON.stringify(this.record, null, 2)}\n`);
      if (this.owner && process.getuid?.() === 0) fchownSync(fd, this.owner.uid, this.owner.gid);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
    const dirFd = openSync(this.dir, "r");
    try {
      fsyncSync(dirFd);
    } finally {
      closeSync(dirFd);
    }
  }

  /** The state file's owner and mode, for the health detail and tests. */
  fileStat(): { uid: number; mode: number } {
    const st = statSync(join(this.dir, STATE_FILE));
    return { uid: st.uid, mode: st.mode & 0o777 };
  }
}
