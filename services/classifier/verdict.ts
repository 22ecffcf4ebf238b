// The classifier engine's boundary. The service (main.ts) and the CLI call an
// Engine; the engine behind it can be swapped without touching either.
import type { Manifest } from "../../proto/gen/agent_sudo/v1/manifest_pb.js";
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
  /** Tier 2, every part a plain command decided by a rule flagged `package`: the package path, not a committed diff. */
  packageRun: boolean;
  /**
   * Tier 3, every tier-3 part a plain command decided by an active
   * `live-service` rule of the sudo policy, and no other part changes
   * anything: the only kind of tier-3 command that runs on the host.
   */
  liveAction: boolean;
  /** Tier 3 with a live action beside parts that change files: why it must be sent as two requests ("" otherwise). */
  liveMixed: string;
  /** The verify commands of the rules that decided the parts, in order, unique. */
  verify: string[];
  /** Their redeploy webhooks, in order, unique. */
  redeploy: string[];
}

/** A transactional run's diff to judge (the JudgeEffects RPC; always the sudo policy). */
export interface EffectsInput {
  manifest: Manifest;
  /** Content of changed regular files by path; one whose sha256 is not the manifest's counts as not given. */
  contents: ReadonlyMap<string, Buffer>;
  host: HostId;
  runAs: string;
  /** The command's resolved working directory ("" when not known). */
  cwd: string;
  /** agent-sudo's own trees (its code as it runs, its state, its policies): any change there is tier 4. */
  guarded?: readonly string[];
  /** The command that ran: a secret it reads makes what it wrote for others to read a quorum's decision. */
  command?: string;
  /** Where the host's own unit files are read (the unit a diff's unit replaces or extends): "/" unless a test's tree. */
  unitRoot?: string;
}

export interface EffectsJudgement {
  /** 0 for an empty manifest: the caller takes the maximum with the command's predicted tier. */
  tier: TierNumber;
  /** One line per change that set or raised the tier, worst first, at most ~50. */
  reasons: string[];
}

/** An active rule as it applies to one host. */
export interface ActiveRule {
  id: string;
  patterns: string[];
  tier: TierNumber;
  baseTier: TierNumber;
  hostOverride: boolean;
  verbClass: string;
  rationale: string;
  network: boolean;
  package: boolean;
}

export interface Engine {
  classify(input: ClassifyInput): Verdict;
  /** The active rules of a policy, in their order, with the host's tier. */
  activeRules(source: Source, host: HostId): ActiveRule[];
  /** Judge what a run did: each change by the path rules of a literal write, files that run later by their content. */
  judgeEffects(input: EffectsInput): EffectsJudgement;
  /** sha256 of the loaded policy files' bytes. */
  readonly policyDigest: Buffer;
}
