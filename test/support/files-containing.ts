// Where a secret landed: every regular file under a directory (a stack's
// state dir: the audit spool, PostgreSQL's files, the logs, the journal) whose
// bytes contain a needle. Files of 256 MiB or more are passed over.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

/** Every regular file under `dir` that contains `needle` (bytes). */
export function filesContaining(dir: string, needle: string): string[] {
  const hits: string[] = [];
  const bytes = Buffer.from(needle);
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      const st = statSync(p, { throwIfNoEntry: false });
      if (!st) continue;
      if (st.isDirectory()) walk(p);
      else if (st.isFile() && st.size < 256 * 1024 * 1024 && readFileSync(p).includes(bytes)) hits.push(p);
    }
  };
  walk(dir);
  return hits;
}
