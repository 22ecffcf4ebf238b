// A commit a crash cut short is rolled back at the executor's next start
// (services/executor/main.ts prepare): the journal holds a `commit-begin`
// with no end, the undo record what the paths were before. Played on a real
// stack's state dir, with the stack stopped between: the record is captured
// over scratch files, half the commit is written by hand (what a crash
// would leave), the begin is journaled, and the stack is started again on
// the same home. Every path is under a scratch dir, never a host file.
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EntryKind, EntryState, Manifest } from "../../proto/gen/agent_sudo/v1/manifest_pb.js";
import { verifyJournal } from "../../cli/journal-verify.js";
import { openJournal } from "../../services/executor/journal.js";
import { UndoStore } from "../../services/executor/undo.js";
import { journalLines, journalPath } from "../support/journal.js";
import { startStack } from "../support/stack.js";
import { entryState } from "../support/tree-state.js";

const root = process.getuid?.() === 0;

describe.skipIf(!root)("executor start: a commit interrupted by a crash", () => {
  let home: string;
  let scratch: string;
  beforeAll(() => {
    home = mkdtempSync(join(tmpdir(), "agent-sudo-test-recover-"));
    scratch = realpathSync(mkdtempSync(join(tmpdir(), "agent-sudo-recover-scratch-")));
  });
  afterAll(() => {
    rmSync(home, { recursive: true, force: true });
    rmSync(scratch, { recursive: true, force: true });
  });

  /** Journals a begun commit over `paths` (their state now is `before`), then lets `half` write part of it. */
  function crashMidCommit(requestId: string, paths: string[], half: () => void, keepRecord = true): string {
    const changes = paths.map((path) => ({
      path,
      before: entryState(path),
      after: EntryState.create({ kind: EntryKind.ENTRY_KIND_ABSENT }),
    }));
    const store = new UndoStore(join(home, "state", "executor", "undo"));
    const undoId = store.captureManifest(requestId, Manifest.create({ requestId, host: "primary", changes }));
    half();
    const journal = openJournal(journalPath(home));
    journal.append({ event: "commit-begin", request_id: requestId, tier: 1, undo_id: undoId, paths: paths.length });
    journal.close();
    if (!keepRecord) rmSync(join(home, "state", "executor", "undo", undoId), { recursive: true, force: true });
    return undoId;
  }

  it("puts back what it had written, journals it once, and serves", async () => {
    // A first start makes the state dir, the keys and the journal; stopped, its lock is released.
    const first = await startStack({ home });
    await first.stop();

    const kept = join(scratch, "kept.conf");
    const made = join(scratch, "made.conf");
    writeFileSync(kept, "before\n", { mode: 0o640 });
    const undoId = crashMidCommit("req-crash-1", [kept, made], () => {
      writeFileSync(kept, "half-written\n");
      writeFileSync(made, "created by the commit\n");
    });
    const gone = crashMidCommit("req-crash-2", [join(scratch, "other")], () => undefined, false);

    const second = await startStack({ home });
    try {
      expect(readFileSync(kept, "utf8")).toBe("before\n");
      expect(existsSync(made)).toBe(false);
      const recovered = journalLines(home).filter((l) => l.entry.event === "commit-recovered");
      // Newest first: undone in the reverse of the order they were begun.
      expect(recovered.map((l) => l.entry.undo_id)).toEqual([gone, undoId]);
      expect(recovered[0]?.entry).toMatchObject({ request_id: "req-crash-2", note: "no undo record left" });
      expect(recovered[1]?.entry).toMatchObject({ request_id: "req-crash-1", restored: [kept], removed: [made], failed: [] });
      const echo = await second.exec({ command: "echo still-serving" });
      expect(echo.status).toBe(200);
    } finally {
      await second.stop();
    }

    // A third start finds nothing to recover: the executor-start after the recovery bounds the scan.
    writeFileSync(kept, "changed later by someone else\n");
    const third = await startStack({ home });
    await third.stop();
    expect(readFileSync(kept, "utf8")).toBe("changed later by someone else\n");
    expect(journalLines(home).filter((l) => l.entry.event === "commit-recovered")).toHaveLength(2);
    expect(verifyJournal(journalPath(home))).toMatchObject({ ok: true });
  }, 300_000);
});
