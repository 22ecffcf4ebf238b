// What a program's options run: the options whose value is a command
// (pullOptions), and the collector of the code, argv and floor they imply
// (Runs). Shared by the tool families that name commands in options.
import type { TierNumber } from "../../../shared/tier.js";
import type { Word } from "../types.js";
import { unwrap } from "../unwrap.js";
import type { Unwrap } from "../unwrap.js";

/** A word as a single-quoted shell word, for code that is parsed again. */
export const shQuote = (text: string): string => `'${text.replace(/'/g, "'\\''")}'`;

/** How a program names an option whose value is a command it runs. */
export interface CodeOption {
  /** Long names; unambiguous-looking abbreviations (4+ characters) count too, as getopt_long and git accept them. */
  longs: readonly string[];
  /** Short letters, alone (`-x V`), glued (`-xV`) or ending a cluster (`-yx V`). */
  shorts?: string;
  /** The value is optional and only given glued (`-Ocmd`, `--open-files-in-pager=cmd`). */
  optional?: boolean;
  /** Real long options that are prefixes of a code option (`--checkpoint` before `--checkpoint-action`). */
  not?: readonly string[];
}

/** The values of code-bearing options, and the arguments without them (up to a `--`). */
export function pullOptions(args: readonly Word[], spec: CodeOption): { values: Word[]; rest: Word[] } {
  const values: Word[] = [];
  const rest: Word[] = [];
  for (let i = 0; i < args.length; i++) {
    const w = args[i] as Word;
    const t = w.text;
    if (t === "--") {
      rest.push(...args.slice(i));
      break;
    }
    if (t.startsWith("--")) {
      const eq = t.indexOf("=");
      const name = eq < 0 ? t : t.slice(0, eq);
      const hit = name.length >= 4 && !(spec.not ?? []).includes(name) && spec.longs.some((l) => l.startsWith(name));
      if (hit && eq >= 0) {
        values.push({ ...w, text: t.slice(eq + 1) });
        continue;
      }
      if (hit && !spec.optional) {
        if (args[i + 1]) values.push(args[++i] as Word);
        continue;
      }
    } else if (spec.shorts && /^-[^-]/.test(t)) {
      const k = [...t.slice(1)].findIndex((c) => spec.shorts?.includes(c));
      if (k >= 0) {
        const glued = t.slice(k + 2);
        if (glued !== "") values.push({ ...w, text: glued });
        else if (!spec.optional && args[i + 1]) values.push(args[++i] as Word);
        if (k > 0) rest.push({ ...w, text: t.slice(0, k + 1) });
        continue;
      }
    }
    rest.push(w);
  }
  return { values, rest };
}

/** Collects what a program's options run: shell code, opaque code, argv, the floor and why. */
export class Runs {
  code: string[] = [];
  opaque: string[] = [];
  inner: Word[][] = [];
  floor: TierNumber = 0;
  why = "";

  /** A command line from an option: judged as shell code when literal, opaque when computed. */
  add(w: { text: string; dynamic: boolean }, floor: TierNumber, why: string, append = ""): void {
    if (w.dynamic) this.opaque.push(w.text);
    else this.code.push(append ? `${w.text} ${append}` : w.text);
    this.raise(w.dynamic ? 2 : floor, why);
  }

  raise(floor: TierNumber, why: string): void {
    if (floor >= this.floor) {
      this.floor = floor;
      this.why = why;
    }
    if (!this.why) this.why = why;
  }

  get found(): boolean {
    return this.code.length + this.opaque.length + this.inner.length > 0 || this.why !== "";
  }

  result(rule: string, rest: Word[][] = []): Unwrap | null {
    if (!this.found) return null;
    return unwrap(rule, this.floor, this.why, { code: this.code, opaque: this.opaque, inner: [...this.inner, ...rest] });
  }
}
