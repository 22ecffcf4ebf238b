// Internal shapes shared by the engine's modules: words, redirections and the
// simple commands the parser extracts. Nothing here decides anything.
import type { TierNumber } from "../../shared/tier.js";
import type { HostId } from "../../shared/config.js";
import type { Source } from "../verdict.js";

/** One shell word after quote and backslash removal. */
export interface Word {
  /** Literal value; dynamic parts keep their source text (e.g. `$DIR`). */
  text: string;
  /** True when any part is an expansion or substitution (value unknown now). */
  dynamic: boolean;
  /** True when unquoted glob characters (* ? [ {) appear. */
  glob: boolean;
  /** True when a Unicode look-alike (dash, fullwidth, zero-width …) was seen. */
  confusable: boolean;
  /**
   * Holds an unquoted expansion or command substitution (`HEAD$(cat f)`): the
   * shell splits its value into words, so a later word may begin with a dash.
   */
  splits?: boolean;
  /** Computed at run time, but known never to begin with a dash (`find -print0 | xargs -0` items). */
  noDash?: boolean;
  /** An item xargs reads from its standard input (delegates.ts): the pipe decides what it is, not a variable. */
  stdinItem?: boolean;
  /** A stdinItem that is a path under one of these (`find ROOTS … -print0 | xargs -0 …`). */
  underRoots?: readonly string[];
  /**
   * A word computed from variables the command pins down ("$f" in `for f in
   * a src/*.ts`, `$f` after `f=README.md`): it becomes exactly one of these
   * words, or (unquoted, split) each of them; a glob value stands for its matches.
   */
  loopValues?: Word[];
  /**
   * What the variables this word expands were assigned from, as written
   * (`$(cat notes.md)` for `$X` after `X=$(cat notes.md)`; variables.ts
   * origins): a word sent to another system carries these too.
   */
  origins?: string[];
}

export interface Redirect {
  /** The operator as written: > >> < &> >| <> <<< etc. */
  op: string;
  target: Word;
}

/** Where a command's standard input comes from, when it matters (code fed to interpreters). */
export interface StdinSource {
  kind: "pipe" | "heredoc" | "herestring";
  /** Literal text when known (heredoc body, herestring, upstream echo/printf args). */
  text: string | null;
  /** Heredoc/herestring text containing expansions, or an upstream that is not literal. */
  dynamic: boolean;
  /** The upstream is `find … -print0`: NUL-separated paths, each beginning with a root that is not a dash. */
  nulPaths?: boolean;
  /** With nulPaths: the roots every path begins with (`.` when find names none). */
  roots?: readonly string[];
  /** What the variables the text expands were made of (Word.origins): `X=$(cat f); … <<< "$X"` carries `$(cat f)`. */
  origins?: string[];
}

export interface SimpleCommand {
  words: Word[];
  assigns: { name: string; value: Word }[];
  redirects: Redirect[];
  stdin: StdinSource | null;
  /** Source text of the command, for the verdict. */
  source: string;
  /** Offset just past the command in the parsed text (to attach a trailing heredoc). */
  end?: number;
  /** Set for a function definition (words empty): its name and whether its body calls itself. */
  fn?: { name: string; recursive: boolean; forks: boolean };
}

export type VerbClass = "read" | "workspace-write" | "reproducible" | "live-service" | "catastrophic";

/** Everything a part is judged against. */
export interface Context {
  host: HostId;
  source: Source;
  /** The policy in force for this part: sudo after a `sudo` prefix. */
  policy: Source;
  cwd: string;
  workspace: readonly string[];
  home: string | null;
  /** Nesting depth of re-parsed code (bash -c, eval …); bounded. */
  depth: number;
  /** True inside `ssh host '…'` or a container: workspace paths do not apply. */
  remote: boolean;
  /**
   * Code a command hands values (`X=$(cat f) sh -c '…$X'`, `env X=…`, `sh -c '…$1' _ "$(cat f)"`, an
   * exported variable): the texts those values come from, which every parameter expansion in the code may carry.
   */
  carried?: readonly string[];
  /**
   * Set when the code is a file's content that runs later, unattended and
   * outside every envelope (manifest-effects.ts): a script or sourced file it
   * runs (its resolved path, null when computed) is checked here, and a
   * finding returned replaces the run-script verdict.
   */
  laterScript?: (path: string | null) => Finding | null;
  /** Files an earlier command of the same line downloads (`curl -o x.sh URL && sh x.sh`): resolved paths. */
  downloaded?: ReadonlySet<string>;
  /**
   * Files in a shared scratch place (/tmp, /var/tmp, /dev/shm) that an earlier command of the same line writes
   * (`echo … > /tmp/x.js && node -r /tmp/x.js`): resolved paths. A scratch file not there yet counts as the
   * owner's only when one of these makes it (script-place.ts); anyone else may plant it first (review 38).
   */
  scratchMade?: ReadonlySet<string>;
  /** Where earlier `mv`s of the line put work git does not hold (moved-before.ts). */
  unheldMoved?: ReadonlySet<string>;
  /** Links earlier commands of the line made: each name (resolved) and where it leads (linked-before.ts). */
  linksMade?: ReadonlyMap<string, string>;
  /**
   * Files an earlier command of the same line writes with text the line itself spells out (`echo 'rm -rf ~' > x.sh
   * && sh x.sh`, `printf`, a heredoc, `echo … | tee x.sh`), or copies from such a file: resolved path → that text,
   * null when it expands something (composed.ts). Running one runs that text, not what is on disk now (review 40).
   */
  composed?: ReadonlyMap<string, string | null>;
}

export interface Finding {
  tier: TierNumber;
  rule: string;
  reason: string;
  text: string;
  explicit: boolean;
}
