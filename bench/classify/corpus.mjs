// The labelled corpus (test/corpus/*.jsonl) as classifier inputs, in file order: what the classify benchmarks time.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

export function corpusInputs(repo) {
  const corpusDir = join(repo, "test", "corpus");
  return readdirSync(corpusDir)
    .filter((f) => f.endsWith(".jsonl"))
    .sort()
    .flatMap((f) =>
      readFileSync(join(corpusDir, f), "utf8")
        .split("\n")
        .filter((l) => l.trim())
        .map((l) => JSON.parse(l)),
    )
    .map((c) => ({
      command: c.command,
      cwd: c.cwd ?? "/home/dev/project",
      host: c.host ?? "primary",
      source: c.source ?? "claude",
    }));
}
