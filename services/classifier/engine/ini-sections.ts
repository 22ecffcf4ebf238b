// The sections of an ini-style file (smb.conf, rsyncd.conf, my.cnf, gdm's and sddm's configuration) as the settings
// judges read them: keys folded to lower case with spaces and dashes as underscores (Samba ignores case and spaces,
// MySQL takes `-` and `_` alike), values unquoted, a later key of a section over an earlier one.
import { unquote } from "./runs-later-content.js";

export interface Section {
  /** The header's name as written (`global`, `mysqld`, `Seat:*`); "" for the keys before any header. */
  name: string;
  keys: Map<string, string>;
}

export const foldKey = (key: string): string =>
  key
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, "_");

/** The file's sections in order; `#` and `;` start comments, a key without `=` is a flag (`skip-grant-tables`). */
export function iniSections(text: string): Section[] {
  const out: Section[] = [{ name: "", keys: new Map() }];
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line === "" || /^[#;]/.test(line)) continue;
    const header = /^\[([^\]]*)\]/.exec(line);
    if (header) {
      out.push({ name: (header[1] as string).trim(), keys: new Map() });
      continue;
    }
    const eq = line.indexOf("=");
    const key = foldKey(eq < 0 ? line : line.slice(0, eq));
    const value = eq < 0 ? "" : unquote(line.slice(eq + 1).replace(/\s+[#;].*$/, ""));
    (out[out.length - 1] as Section).keys.set(key, value);
  }
  return out;
}

export const YES = /^(?:yes|true|on|1)$/i;
