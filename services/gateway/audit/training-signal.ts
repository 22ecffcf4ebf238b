// The audit's training_signal (seed CA D8): how a record should weigh when
// the audit is used as training data. Written with the outcome, and replaced
// by the person's verdict when one is given (`agent-sudo audit label`):
//   positive  the command executed, exited 0, nothing was rolled back and no
//             verify failed — or a person approved the decision
//   negative  a verify failed or a rollback was taken — or a person rejected
//             the decision (the classifier got it wrong)
//   neutral   everything else: refusals, errors, non-zero exits not yet judged
export type TrainingSignal = "positive" | "negative" | "neutral";

export function trainingSignal(o: {
  decision: string;
  exitCode?: number;
  rollbackTaken?: boolean;
  verifyPassed?: boolean;
}): TrainingSignal {
  if (o.verifyPassed === false || o.rollbackTaken === true || o.decision === "verify_failed") return "negative";
  if (o.decision === "executed" && o.exitCode === 0) return "positive";
  return "neutral";
}

/** The signal a person's verdict sets. */
export function labelledSignal(verdict: "approve" | "reject"): TrainingSignal {
  return verdict === "approve" ? "positive" : "negative";
}
