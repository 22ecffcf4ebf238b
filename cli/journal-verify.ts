// `agent-sudo audit verify-journal`: checks the executor journal's hash
// chain (its format: services/executor/journal.ts). Read-only; the executor
// itself never verifies the whole chain, it only refuses to continue a last
// line it cannot parse.
import { readFileSync } from "node:fs";
import { GENESIS, LINE, sha256 } from "../services/executor/journal.js";

export type JournalVerdict = { ok: true; entries: number } | { ok: false; brokenAt: number; reason: string };

export function verifyJournal(path: string): JournalVerdict {
  const lines = readFileSync(path, "utf8").split("\n");
  const torn = lines.pop();
  let prev = GENESIS;
  for (const [i, line] of lines.entries()) {
    const n = i + 1;
    const m = LINE.exec(line);
    if (!m) return { ok: false, brokenAt: n, reason: "malformed line" };
    const [, h, json = ""] = m;
    if (sha256(json) !== h) return { ok: false, brokenAt: n, reason: "hash mismatch: the entry was altered" };
    let body: { seq?: unknown; prev?: unknown };
    try {
      body = JSON.parse(json) as typeof body;
    } catch {
      return { ok: false, brokenAt: n, reason: "entry is not JSON" };
    }
    if (body.prev !== prev)
      return {
        ok: false,
        brokenAt: n,
        reason: `chain broken: prev does not match entry ${n - 1} (entry ${n - 1} rewritten, or entries removed or inserted)`,
      };
    if (body.seq !== n) return { ok: false, brokenAt: n, reason: `sequence ${String(body.seq)} where ${n} was expected` };
    prev = h ?? "";
  }
  if (torn) return { ok: false, brokenAt: lines.length + 1, reason: "torn last line (no newline): a crash during append" };
  return { ok: true, entries: lines.length };
}
