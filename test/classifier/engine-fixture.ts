// Shared fixture for the classifier suites: the real engine over the real
// policy files, and the labelled corpus. Nothing here is mocked.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { HostId } from "../../services/shared/config.js";
import type { TierNumber } from "../../services/shared/tier.js";
import { loadEngine } from "../../services/classifier/engine/index.js";
import { repoRoot } from "../support/stack.js";
import { buildHostFixture, FIXTURE_STATE, NO_GIT, REPO } from "./host-fixture.js";
import type { Engine, Source, Verdict } from "../../services/classifier/verdict.js";

export const policiesDir = join(repoRoot, "policies");
export const corpusDir = join(repoRoot, "test", "corpus");

export type Expect = "allow" | "route" | "refuse";

export interface Case {
  command: string;
  expect: Expect;
  family: string;
  source?: Source;
  host?: HostId;
  cwd?: string;
  /** Optional explicit bounds, checked in addition to `expect`. */
  minTier?: TierNumber;
  maxTier?: TierNumber;
  file: string;
  line: number;
}

export function band(tier: TierNumber): Expect {
  return tier <= 1 ? "allow" : tier <= 3 ? "route" : "refuse";
}

/** A case about the fixture repository (the hook's git-backed "reversible"). */
export function inRepo(c: Pick<Case, "command" | "cwd">): boolean {
  return (c.cwd ?? "").startsWith(REPO) || c.command.includes(REPO);
}

export function loadCorpus(): Case[] {
  const out: Case[] = [];
  for (const file of readdirSync(corpusDir)
    .filter((f) => f.endsWith(".jsonl"))
    .sort()) {
    readFileSync(join(corpusDir, file), "utf8")
      .split("\n")
      .forEach((line, i) => {
        if (line.trim() === "") return;
        const c = { ...(JSON.parse(line) as Omit<Case, "file" | "line">), file, line: i + 1 };
        // Without git there is no fixture repository: its cases are left out (corpus.spec says so in a skipped test).
        if (NO_GIT && inRepo(c)) return;
        out.push(c);
      });
  }
  return out;
}

let engine: Promise<Engine> | null = null;

/** The real engine over the real policies, with the host fixture built and its state dir as the broker's. */
export function getEngine(): Promise<Engine> {
  if (engine === null) {
    buildHostFixture();
    engine = loadEngine(policiesDir, { stateDir: FIXTURE_STATE });
  }
  return engine;
}

export function judge(e: Engine, c: Pick<Case, "command" | "source" | "host" | "cwd">): Verdict {
  return e.classify({ command: c.command, source: c.source ?? "claude", host: c.host ?? "primary", cwd: c.cwd ?? "" });
}
