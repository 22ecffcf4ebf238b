// The concurrence's vocabulary: what it knows about a request while judging,
// and what it finds. Tiers as in the architecture: 0 read-only, 1 local
// reversible change, 2 configuration or package change, 3 live service,
// 4 refuse.
import type { TierNumber } from "../shared/tier.js";

export type HostKind = "primary" | "server-01";

export interface JudgeContext {
  host: HostKind;
  /** The working directory; undefined once a `cd` went somewhere only known at run time. */
  cwd: string | undefined;
  runAs: string;
  /** agent-sudo's own state dir, config and policies: never touched by what it runs. */
  guardPaths: readonly string[];
  /** Nesting depth of bash -c / $( ) / eval being judged. */
  depth: number;
  /**
   * Set when the text is a file's content that runs later, outside every
   * envelope (later.ts): a program named by its path, or a script given to a
   * shell, interpreter or `source` (its absolute path, undefined when only
   * known at run time), run as `runAs`, is checked here first.
   */
  laterProgram?: (path: string | undefined, runAs: string) => Finding | undefined;
  /** Where the host's own unit files are read (the unit a diff's unit replaces or extends): "/" unless a test's tree. */
  unitRoot?: string;
}

export interface Finding {
  tier: TierNumber;
  reason: string;
}

export function finding(tier: TierNumber, reason: string): Finding {
  return { tier, reason };
}

/** The more dangerous of two findings (the first wins a tie). */
export function worst(a: Finding, b: Finding): Finding {
  return b.tier > a.tier ? b : a;
}

/** A command line that a file of a diff will run later (a cron job, an ExecStart=, a hook script). */
export interface LaterCommand {
  text: string;
  /** Where in the file it is ("cron line 3", "ExecStart= (line 7)"): prefixes the reason. */
  where: string;
  /** Who runs it, when the file says ("" for root); otherwise the file's own. */
  runAs?: string;
  /** Where it runs, when the file says; otherwise the file's own. */
  cwd?: string;
}

/** What a file's format says it will run, and what the format itself already decides. */
export interface Extracted {
  commands: LaterCommand[];
  findings: Finding[];
}

export function extracted(commands: LaterCommand[] = [], findings: Finding[] = []): Extracted {
  return { commands, findings };
}
