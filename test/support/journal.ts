// Reads the executor's hash-chained journal (<home>/state/executor/journal.log,
// root-only) for tests: what the executor verified a quorum for and ran
// (`execute`, written and fsynced right before a tier-0/3/package command
// starts) or committed (`commit-begin` … `commit-end`, a tier-1–2 run's
// diff). Tier 0 runs read-only, so a recorder stand-in cannot log it; the
// journal is where "what ran" is observed instead.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

export interface JournalEntry {
  event?: string;
  request_id?: string;
  tier?: number;
  command?: string;
  cwd?: string;
  signers?: string[];
  undo_id?: string;
  [key: string]: unknown;
}

export interface JournalLine {
  seq: number;
  ts: string;
  entry: JournalEntry;
}

export function journalPath(home: string): string {
  return join(home, "state", "executor", "journal.log");
}

/** Every complete, parseable line of the journal, in order (a torn tail line is skipped). */
export function journalLines(home: string): JournalLine[] {
  const path = journalPath(home);
  if (!existsSync(path)) return [];
  const out: JournalLine[] = [];
  for (const line of readFileSync(path, "utf8").split("\n")) {
    const json = line.slice(65);
    if (!json) continue;
    try {
      const parsed = JSON.parse(json) as { seq: number; ts: string; entry?: JournalEntry };
      if (parsed.entry && typeof parsed.entry === "object") out.push({ seq: parsed.seq, ts: parsed.ts, entry: parsed.entry });
    } catch {
      // a torn tail line: the journal cuts it on its next open
    }
  }
  return out;
}

/** The journal's entries, optionally only those of one event. */
export function journalEntries(home: string, event?: string): JournalEntry[] {
  return journalLines(home)
    .map((l) => l.entry)
    .filter((e) => event === undefined || e.event === event);
}

/** Commands the executor started (tier 0, tier 3, package runs): `execute` entries, minus those whose envelope never started the command. */
export function executedCommands(home: string): string[] {
  const entries = journalEntries(home);
  const notRun = new Set(entries.filter((e) => e.event === "outcome" && e.not_run !== undefined).map((e) => e.request_id));
  return entries
    .filter((e) => e.event === "execute" && typeof e.command === "string" && !notRun.has(e.request_id))
    .map((e) => e.command as string);
}

/** Commands whose tier-1–2 diff the executor committed: `commit-begin` with a `commit-end` (not failed, not rolled back by a recovery). */
export function committedCommands(home: string): string[] {
  const entries = journalEntries(home);
  const ended = new Set(entries.filter((e) => e.event === "commit-end").map((e) => e.request_id));
  return entries
    .filter((e) => e.event === "commit-begin" && typeof e.command === "string" && ended.has(e.request_id))
    .map((e) => e.command as string);
}

/** Polls until `pred` holds for the journal's entries (the executor fsyncs before it runs). */
export async function waitForJournal(
  home: string,
  pred: (entries: JournalEntry[]) => boolean,
  timeoutMs = 20_000,
): Promise<JournalEntry[]> {
  const t0 = Date.now();
  for (;;) {
    const entries = journalEntries(home);
    if (pred(entries)) return entries;
    if (Date.now() - t0 > timeoutMs) throw new Error("the journal never showed the expected entry");
    await new Promise((r) => setTimeout(r, 5));
  }
}
