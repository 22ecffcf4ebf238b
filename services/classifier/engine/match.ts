// Rule matching: picomatch globs (bash semantics, `*` crosses `/` and spaces,
// like fnmatch without FNM_PATHNAME) over the normalised simple command.
// Ordered, first active match wins; proposed rules never decide. Rules are
// indexed by their literal first word so a lookup tests only the candidates.
import picomatch from "picomatch";
import type { HostId } from "../../shared/config.js";
import type { TierNumber } from "../../shared/tier.js";
import type { Rule } from "./policy.js";

interface CompiledPattern {
  order: number;
  rule: Rule;
  re: RegExp;
  /** The pattern has a bare `*` (not an extglob `*(…)`): it leaves words open, so options are checked. */
  open: boolean;
}

export interface CompiledRules {
  /** Patterns whose first word is literal, by that word, in policy order. */
  byWord: Map<string, CompiledPattern[]>;
  /** Patterns whose first word is a glob, tested for every command. */
  wild: CompiledPattern[];
}

export interface RuleHit {
  rule: Rule;
  tier: TierNumber;
  /** The matching pattern leaves words open (a bare `*`): its options are checked against the tool's table. */
  open: boolean;
}

/**
 * A bare `*` matches any words, options included; `*(…)` is an extglob that
 * enumerates them — unless it repeats a character class holding a space
 * (`*([a-z -])` spans words, options too).
 */
export function openPattern(pattern: string): boolean {
  return /\*(?!\()/.test(pattern) || /\[[^\]]* [^\]]*\]/.test(pattern);
}

const OPTIONS: picomatch.PicomatchOptions = { bash: true, dot: true, nonegate: true, strictSlashes: true };

// picomatch never lets a glob match a `..` path segment (`cat *` misses
// `cat ../x/y`), but rules match command lines, not paths: `..` is spelled
// as one character in both, and the effect analysis judges where it leads.
const DOTDOT = /\.\./g;
const DOTDOT_STANDIN = "\u2025";

/** A pattern ending in " *" also matches the command with no further words. */
function compilePattern(raw: string): RegExp {
  const pattern = raw.replace(DOTDOT, DOTDOT_STANDIN);
  const full = picomatch.makeRe(pattern, OPTIONS);
  if (!pattern.endsWith(" *")) return full;
  const bare = picomatch.makeRe(pattern.slice(0, -2), OPTIONS);
  return new RegExp(`(?:${full.source})|(?:${bare.source})`, full.flags);
}

/** The literal first words a pattern can start with, or null when it starts with a glob. */
function firstWords(pattern: string): string[] | null {
  const head = pattern.split(" ")[0] ?? "";
  const alt = /^@\(([A-Za-z0-9_.+|-]+)\)$/.exec(head);
  if (alt) return (alt[1] as string).split("|");
  return /[*?[\]{}()!+@\\]/.test(head) ? null : [head];
}

export function compileRules(rules: readonly Rule[]): CompiledRules {
  const out: CompiledRules = { byWord: new Map(), wild: [] };
  let order = 0;
  for (const rule of rules) {
    for (const pattern of rule.patterns) {
      const c: CompiledPattern = { order: order++, rule, re: compilePattern(pattern), open: openPattern(pattern) };
      const words = firstWords(pattern);
      if (words === null) out.wild.push(c);
      else for (const w of words) out.byWord.set(w, [...(out.byWord.get(w) ?? []), c]);
    }
  }
  return out;
}

export function tierFor(rule: Rule, host: HostId): TierNumber {
  return rule.hosts[host] ?? rule.tier;
}

/** First active rule matching `text`; the first proposed rule seen is reported, never used. */
export function firstMatch(rules: CompiledRules, command: string, host: HostId): { hit: RuleHit | null; proposed: Rule | null } {
  const text = command.replace(DOTDOT, DOTDOT_STANDIN);
  const word = text.slice(0, (text.indexOf(" ") + 1 || text.length + 1) - 1);
  const a = rules.byWord.get(word) ?? [];
  const b = rules.wild;
  let proposed: Rule | null = null;
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const ai = a[i];
    const bj = b[j];
    const c = (ai && (!bj || ai.order < bj.order) ? (i++, ai) : (j++, bj)) as CompiledPattern;
    if (!c.re.test(text)) continue;
    if (c.rule.state !== "active") {
      proposed ??= c.rule;
      continue;
    }
    return { hit: { rule: c.rule, tier: tierFor(c.rule, host), open: c.open }, proposed };
  }
  return { hit: null, proposed };
}
