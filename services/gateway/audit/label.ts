// The gold label (human_verdict): one person's approve or reject of one
// audited request, on both of its rows, with who and when; the training
// signal follows the label. `agent-sudo audit label` and the operator
// console's label form both call this, so they are the same operation.
import type pg from "pg";
import { labelledSignal } from "./training-signal.js";

export type Verdict = "approve" | "reject";

export const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Labels every row of `requestId`; the number of rows changed (0: not in the database, or still in the spool). */
export async function labelRequest(db: Pick<pg.Client, "query">, requestId: string, verdict: Verdict, by: string): Promise<number> {
  if (!REQUEST_ID.test(requestId)) return 0;
  const name = by.trim();
  if (!name || name.length > 255) throw new Error("a label needs who gives it (1–255 characters)");
  const r = await db.query(
    "UPDATE command_audit SET human_verdict = $2, human_verdict_by = $3, human_verdict_at = now(), training_signal = $4 WHERE request_id = $1",
    [requestId, verdict, name, labelledSignal(verdict)],
  );
  return r.rowCount ?? 0;
}
