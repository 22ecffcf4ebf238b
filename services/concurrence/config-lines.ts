// The lines of a configuration file as its reader sees them: a trailing
// backslash joins the next line, comments and blank lines are left out,
// and each line keeps the number it starts at (for reasons).
export interface ConfigLine {
  text: string;
  n: number;
}

export function configLines(text: string, comment: RegExp = /^[#;]/): ConfigLine[] {
  const out: ConfigLine[] = [];
  let pending: ConfigLine | undefined;
  text.split("\n").forEach((raw, i) => {
    const line = raw.replace(/\r$/, "");
    const continuing = pending !== undefined;
    const joined: ConfigLine = pending ? { text: `${pending.text} ${line.trim()}`, n: pending.n } : { text: line.trim(), n: i + 1 };
    pending = undefined;
    if (!continuing && comment.test(joined.text)) return;
    if (joined.text.endsWith("\\")) {
      pending = { text: joined.text.slice(0, -1).trimEnd(), n: joined.n };
      return;
    }
    if (joined.text) out.push(joined);
  });
  if (pending?.text) out.push(pending);
  return out;
}

/** systemd and udev specifiers (%i, %h, %k …) are only known when the line runs: make them run-time values for the judge. */
export function specifiersAsDynamic(text: string): string {
  return text.replace(/%%|%[A-Za-z]/g, (m) => (m === "%%" ? "%" : "${SPECIFIER}"));
}

/** The line number of a comment right after a line ending in a backslash: systemd skips it and joins what follows, a reader stopping there does not. */
export function commentInContinuation(text: string): number | undefined {
  const lines = text.split("\n").map((l) => l.replace(/\r$/, ""));
  const at = lines.findIndex((l, i) => i > 0 && /^\s*[#;]/.test(l) && /\\$/.test(lines[i - 1] ?? ""));
  return at < 0 ? undefined : at + 1;
}

/** A word starting with `#` in a command systemd or udev splits into words itself: an argument there, a comment to the judge's lexer. */
export const HASH_WORD = /(^|\s)#/;
