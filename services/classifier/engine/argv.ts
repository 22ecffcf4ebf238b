// Reading a program's argument vector: options apart from operands,
// abbreviated long options spelled out, every value of a repeated option.
import type { Word } from "./types.js";

export interface Args {
  positional: Word[];
  flags: string[];
  values: Map<string, Word>;
}

/** Split options from operands; `valueOpts` lists options that consume the next word. */
export function splitArgs(args: readonly Word[], valueOpts: ReadonlySet<string> = new Set()): Args {
  const out: Args = { positional: [], flags: [], values: new Map() };
  let opts = true;
  for (let i = 0; i < args.length; i++) {
    const w = args[i] as Word;
    const t = w.text;
    if (opts && t === "--") {
      opts = false;
    } else if (opts && t.length > 1 && t.startsWith("-") && !w.dynamic) {
      const eq = t.indexOf("=");
      if (t.startsWith("--") && eq > 0) {
        out.flags.push(t.slice(0, eq));
        out.values.set(t.slice(0, eq), { ...w, text: t.slice(eq + 1) });
      } else {
        out.flags.push(t);
        const next = args[i + 1];
        if (valueOpts.has(t) && next) {
          out.values.set(t, next);
          i++;
        }
      }
    } else out.positional.push(w);
  }
  return out;
}

/**
 * GNU getopt_long accepts any unambiguous prefix of a long option (`--rec` for
 * `--recursive`, `--no-pres` for `--no-preserve-root`): spell them out in full
 * so later checks see the real option. `longs` lists the program's long options.
 */
export function expandLong(args: readonly Word[], longs: readonly string[]): Word[] {
  const out: Word[] = [];
  for (let i = 0; i < args.length; i++) {
    const w = args[i] as Word;
    if (w.text === "--") {
      out.push(...args.slice(i));
      break;
    }
    if (!w.text.startsWith("--") || w.dynamic) {
      out.push(w);
      continue;
    }
    const eq = w.text.indexOf("=");
    const name = eq < 0 ? w.text : w.text.slice(0, eq);
    const hits = longs.filter((l) => l.startsWith(name));
    const full = longs.includes(name) ? name : hits.length === 1 ? (hits[0] as string) : name;
    out.push({ ...w, text: full + (eq < 0 ? "" : w.text.slice(eq)) });
  }
  return out;
}

/**
 * Every value of an option that may be repeated: `-e V`, `-eV`, `-neV` (after
 * flag letters in `bundle`), `--long V`, `--long=V`. splitArgs keeps only the last.
 */
export function allValues(args: readonly Word[], shorts: string, longs: readonly string[], bundle = ""): Word[] {
  const out: Word[] = [];
  const short = shorts ? new RegExp(`^-${bundle ? `[${bundle}]*` : ""}[${shorts}](.*)$`, "s") : null;
  for (let i = 0; i < args.length; i++) {
    const w = args[i] as Word;
    const t = w.text;
    if (t === "--") break;
    if (t.startsWith("--")) {
      const eq = t.indexOf("=");
      const name = eq < 0 ? t : t.slice(0, eq);
      if (!longs.includes(name)) continue;
      if (eq >= 0) out.push({ ...w, text: t.slice(eq + 1) });
      else if (args[i + 1]) out.push(args[++i] as Word);
      continue;
    }
    const m = short?.exec(t);
    if (!m) continue;
    if (m[1]) out.push({ ...w, text: m[1] });
    else if (args[i + 1]) out.push(args[++i] as Word);
  }
  return out;
}

export const hasShort = (flags: string[], letters: RegExp): boolean => flags.some((f) => !f.startsWith("--") && letters.test(f.slice(1)));
