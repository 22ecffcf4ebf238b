// Danger vetoes: the policy files' regexes that force tier 4. They are tested
// against each normalised simple command (so `echo "rm -rf /"` is data, not a
// match) and against the segments of opaque code: inline interpreter code,
// unparseable input, code piped into an interpreter.
import type { Veto } from "./policy.js";

export function vetoHit(vetoes: readonly Veto[], text: string): Veto | null {
  for (const v of vetoes) if (v.regex.test(text)) return v;
  return null;
}

/** Vetoes for a normalised simple command: `code-` vetoes are for opaque code only (echo's text is data). */
export function commandVeto(vetoes: readonly Veto[], text: string): Veto | null {
  for (const v of vetoes) if (!v.id.startsWith("code-") && v.regex.test(text)) return v;
  return null;
}

const WRAPPER = /^(?:(?:sudo|exec|nohup|command|builtin|time|env|nice|doas)\s+(?:-\S+\s+)*)+/;

/** Cut opaque text at shell separators and quotes into command-like segments. */
export function segments(code: string): string[] {
  const out: string[] = [];
  for (const raw of code.split(/\$\(|[;&|\n(){}`'"]|\\n/)) {
    const seg = raw.replace(/\\(.)/g, "$1").replace(/\s+/g, " ").trim().replace(WRAPPER, "");
    if (seg !== "") out.push(seg);
  }
  return out;
}

/** A veto hit anywhere in opaque code, either as a whole or in one of its segments. */
export function scanCode(vetoes: readonly Veto[], code: string): Veto | null {
  const whole = code.replace(/\s+/g, " ").trim();
  for (const v of vetoes) if (v.regex.test(whole) && v.id.startsWith("code-")) return v;
  for (const seg of segments(code)) {
    const hit = vetoHit(vetoes, seg);
    if (hit) return hit;
  }
  return null;
}
