// The both-judges harness of the judged-diff specs: a diff built as a Manifest (with the changed files' content), judged
// in process by the real classifier engine (judgeEffects) and the real concurrence (judgeManifest), as the gateway
// asks them; nothing touches the real /etc. `rowSuites` adds a review's three suites over its rows: every attack row
// is refused by both judges (tier 4), every benign look-alike commits (≤ 3 in both), and the differential — over
// every row, no judge refuses what the other lets through.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { Change, EntryKind, EntryState, Manifest } from "../../proto/gen/agent_sudo/v1/manifest_pb.js";
import type { TierNumber } from "../../services/shared/tier.js";
import { judgeManifest } from "../../services/concurrence/manifest.js";
import type { HostKind } from "../../services/concurrence/types.js";
import { guardPaths } from "../../services/concurrence/verdict.js";
import { getEngine } from "../classifier/engine-fixture.js";
import { repoRoot } from "../support/stack.js";

const STATE = "/var/lib/agent-sudo";
export const sha256 = (b: Buffer) => createHash("sha256").update(b).digest();
export const state = (over: Partial<EntryState>) => EntryState.create({ kind: EntryKind.ENTRY_KIND_FILE, mode: 0o644, ...over });
export const absent = () => EntryState.create({ kind: EntryKind.ENTRY_KIND_ABSENT });
export const dir = (over: Partial<EntryState> = {}) => state({ kind: EntryKind.ENTRY_KIND_DIR, mode: 0o755, ...over });
export const link = (target: string) => state({ kind: EntryKind.ENTRY_KIND_SYMLINK, mode: 0o777, target });
export const file = (text: string | Buffer, over: Partial<EntryState> = {}) => {
  const b = Buffer.from(text);
  return state({ size: b.length, sha256: sha256(b), ...over });
};

export interface Step {
  path: string;
  before?: EntryState;
  after: EntryState;
  content?: string | Buffer;
}
export type Row = [name: string, steps: Step[]];
export const write = (path: string, text: string | Buffer, over: Partial<EntryState> = {}): Step => ({
  path,
  after: file(text, over),
  content: text,
});
export const w = (name: string, path: string, text: string | Buffer, over: Partial<EntryState> = {}): Row => [
  name,
  [write(path, text, over)],
];

export interface Where {
  host?: HostKind;
  cwd?: string;
  /** Where the judges read the host's own unit files (the vendor unit a diff's unit replaces); "/" unless a test's tree. */
  unitRoot?: string;
}

/** Both judges' whole verdicts on one diff (run as root; host server-01 and cwd /root unless told). */
export async function judgeVerdicts(steps: Step[], { host = "server-01", cwd = "/root", unitRoot }: Where = {}) {
  const engine = await getEngine();
  const contents = new Map<string, Buffer>();
  const changes = steps.map((s) => {
    if (s.content !== undefined) contents.set(s.path, Buffer.from(s.content));
    return Change.create({ path: s.path, before: s.before ?? absent(), after: s.after });
  });
  const manifest = Manifest.create({ requestId: "judged-diff", commandDigest: Buffer.alloc(32), host, changes });
  const config = { home: STATE, policiesDir: `${repoRoot}/policies`, repoRoot };
  const classifier = engine.judgeEffects({
    manifest,
    contents,
    host,
    runAs: "root",
    cwd,
    guarded: [repoRoot, STATE, config.policiesDir],
    unitRoot,
  });
  const concurrence = judgeManifest(manifest, contents, { host, cwd, runAs: "", guardPaths: guardPaths(config), depth: 0, unitRoot });
  return { classifier, concurrence };
}

/** Both judges' tiers on one diff, and their reasons together. */
export async function judgeBoth(steps: Step[], where: Where = {}) {
  const { classifier, concurrence } = await judgeVerdicts(steps, where);
  return {
    classifier: classifier.tier as TierNumber,
    concurrence: concurrence.tier as TierNumber,
    why: [...classifier.reasons, ...concurrence.reasons],
  };
}

type Groups = Array<[group: string, rows: Row[]]>;

/**
 * A review's suites over its rows (`label`: "review 37"). The primary's classifier never guesses: start-up file
 * content no rule of its policy matches is 4 there by design, so benign rows are compared on a server only; every
 * attack row on both host kinds.
 */
export function rowSuites(label: string, attacks: Groups, benign: Groups, where: Omit<Where, "host"> = {}): void {
  describe(`${label}: the judged diff refuses what runs later as root or weakens the host (both judges)`, () => {
    for (const [group, rows] of attacks)
      describe(group, () => {
        for (const [name, steps] of rows)
          it(`refuses: ${name}`, async () => {
            const r = await judgeBoth(steps, where);
            expect({ name, classifier: r.classifier, concurrence: r.concurrence }).toEqual({ name, classifier: 4, concurrence: 4 });
          });
      });
  });

  describe(`${label}: benign look-alikes still commit (≤ 3 in both judges)`, () => {
    for (const [group, rows] of benign)
      describe(group, () => {
        for (const [name, steps] of rows)
          it(`commits: ${name}`, async () => {
            const r = await judgeBoth(steps, where);
            expect(r.classifier, `${name}: ${r.why.join(" | ")}`).toBeLessThanOrEqual(3);
            expect(r.concurrence, `${name}: ${r.why.join(" | ")}`).toBeLessThanOrEqual(3);
          });
      });
  });

  describe(`${label}: differential — over every row, both judges give the same side of 4`, () => {
    it("no row refused by one judge and let through by the other", async () => {
      const split: string[] = [];
      const rows = [
        ...attacks.flatMap(([, r]) => r).flatMap((row) => (["primary", "server-01"] as HostKind[]).map((h) => [h, row] as const)),
        ...benign.flatMap(([, r]) => r).map((row) => ["server-01" as HostKind, row] as const),
      ];
      for (const [host, [name, steps]] of rows) {
        const r = await judgeBoth(steps, { ...where, host });
        if ((r.classifier === 4) !== (r.concurrence === 4)) split.push(`${host} ${name}: ${r.classifier}/${r.concurrence}`);
      }
      expect(split).toEqual([]);
    }, 120_000);
  });
}
