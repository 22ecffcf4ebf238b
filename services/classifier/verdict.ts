// The classifier engine's boundary. The service (main.ts) and the CLI call an
// Engine; the engine behind it can be swapped without touching either.
import type { HostId } from "../shared/config.js";
import type { TierNumber } from "../shared/tier.js";

export type Source = "sudo" | "claude";

export interface ClassifyInput {
  command: string;
  /** Absolute working directory of the caller (the hook's cwd); "" if unknown. */
  cwd: string;
  host: HostId;
  source: Source;
  /** Extra project roots that count as the workspace besides cwd. */
  workspaceRoots?: readonly string[];
}

export interface PartVerdict {
  /** The simple command (normalised) this part judged. */
  text: string;
  tier: TierNumber;
  rule: string;
  reason: string;
  /**
   * A plain simple command: fixed words, no wrapper, interpreter or delegate,
   * no redirection, no assignment but a few neutral ones. Only such parts
   * can be granted network (a part's rule may win a tie against code it runs).
   */
  plain?: boolean;
}

export interface Verdict {
  tier: TierNumber;
  /** Id of the rule (or heuristic / veto name) that set the tier. */
  rule: string;
  reason: string;
  /** True when an explicit active rule decided, not a heuristic or default. */
  explicit: boolean;
  parts: PartVerdict[];
  /** What the matched rules' attrs grant (policies/README.md "Rule attributes"). */
  attrs?: VerdictAttrs;
}

export interface VerdictAttrs {
  /** Every part was decided by an active rule flagged `network`. */
  network: boolean;
  /** The verify commands of the rules that decided the parts, in order, unique. */
  verify: string[];
  /** Their redeploy webhooks, in order, unique. */
  redeploy: string[];
}

export interface Engine {
  classify(input: ClassifyInput): Verdict;
  /** sha256 of the loaded policy files' bytes. */
  readonly policyDigest: Buffer;
}
