// Rule matching: picomatch globs (bash semantics, `*` crosses `/` and spaces,
// like fnmatch without FNM_PATHNAME) over the normalised simple command.
// Ordered, first active match wins; proposed rules never decide.
import picomatch from "picomatch";
import type { HostId } from "../../shared/config.js";
import type { TierNumber } from "../../shared/tier.js";
import type { Rule } from "./policy.js";

export interface CompiledRule {
  rule: Rule;
  test: (text: string) => boolean;
}

export interface RuleHit {
  rule: Rule;
  tier: TierNumber;
}

const OPTIONS: picomatch.PicomatchOptions = { bash: true, dot: true, nonegate: true, strictSlashes: true };

/** A pattern ending in " *" also matches the command with no further words. */
function compilePattern(pattern: string): (text: string) => boolean {
  const full = picomatch(pattern, OPTIONS);
  if (!pattern.endsWith(" *")) return full;
  const bare = picomatch(pattern.slice(0, -2), OPTIONS);
  return (text) => full(text) || bare(text);
}

export function compileRules(rules: readonly Rule[]): CompiledRule[] {
  return rules.map((rule) => {
    const tests = rule.patterns.map(compilePattern);
    return { rule, test: (text: string) => tests.some((t) => t(text)) };
  });
}

export function tierFor(rule: Rule, host: HostId): TierNumber {
  return rule.hosts[host] ?? rule.tier;
}

/** First active rule matching `text`; the first proposed rule seen is reported, never used. */
export function firstMatch(rules: readonly CompiledRule[], text: string, host: HostId): { hit: RuleHit | null; proposed: Rule | null } {
  let proposed: Rule | null = null;
  for (const c of rules) {
    if (!c.test(text)) continue;
    if (c.rule.state !== "active") {
      proposed ??= c.rule;
      continue;
    }
    return { hit: { rule: c.rule, tier: tierFor(c.rule, host) }, proposed };
  }
  return { hit: null, proposed };
}
