// Proposing a rule: the pattern's shape is checked with the classifier's own
// parser (rule-shape.ts) before the proposal store (services/shared/
// proposals.ts) records it. Used by `rules learn` and the sandbox loop; the
// store alone never checks a shape.
import { ProposalError, storeProposal, type ProposalInput, type ProposeResult } from "../shared/proposals.js";
import { checkShape } from "./rule-shape.js";

/** Append a proposal, or merge its evidence into the same shape's; refuses a bad shape, a rejected or an activated one. */
export function propose(policiesDir: string, input: ProposalInput, now: Date = new Date()): ProposeResult {
  const refused = checkShape(input.pattern);
  if (refused) throw new ProposalError(`pattern ${JSON.stringify(input.pattern)} refused: ${refused}`);
  return storeProposal(policiesDir, input, now);
}
