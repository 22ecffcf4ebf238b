// A git configuration file's settings as git reads them: a `[section
// "subsection"]` header (which may carry a setting after it), `name = value`
// lines, `#`/`;` comments, backslash continuations, quoted values. For the
// hook's checks of the files git will obey (git-steered.ts, git-drivers.ts).
import { joined, unquote } from "./runs-later-content.js";

export interface GitConfigEntry {
  /** The section's name, lower-cased, without its subsection (`diff` of `[diff "sops"]`, `includeif`). */
  section: string;
  /** The key, lower-cased. */
  name: string;
  value: string;
}

export function gitConfigEntries(text: string): GitConfigEntry[] {
  const out: GitConfigEntry[] = [];
  let section = "";
  for (const line of joined(text)) {
    let entry = line.trim();
    if (/^[#;]/.test(entry)) continue;
    const header = /^\[([^\]]*)\](.*)$/.exec(entry);
    if (header) {
      section = (header[1] ?? "").trim().split(/[\s.]/)[0]?.toLowerCase() ?? "";
      entry = (header[2] ?? "").trim();
    }
    const kv = /^([A-Za-z][A-Za-z0-9-]*)\s*=\s*(.*)$/.exec(entry);
    if (kv) out.push({ section, name: (kv[1] as string).toLowerCase(), value: unquote((kv[2] as string).replace(/\s[#;].*$/, "")) });
  }
  return out;
}
