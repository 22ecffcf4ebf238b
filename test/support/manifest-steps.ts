// Manifests for the judged-diff specs of both judges (each judge's own rules
// stay apart; only the way a test spells a diff is shared): an entry's state
// with the defaults a run's manifest has, and a diff built from steps — files
// written with their content, links made, each new.
import { createHash } from "node:crypto";
import { EntryKind, type EntryState, Manifest } from "../../proto/gen/agent_sudo/v1/manifest_pb.js";

export const sha = (b: Buffer): Buffer => createHash("sha256").update(b).digest();

/** A root-owned 0644 file with no content unless `s` says otherwise. */
export const entryState = (s: Partial<EntryState>): EntryState => ({
  kind: EntryKind.ENTRY_KIND_FILE,
  mode: 0o644,
  uid: 0,
  gid: 0,
  size: 0,
  sha256: Buffer.alloc(0),
  target: "",
  xattrs: [],
  ...s,
});

/** One new entry of a diff: a file with `content` (and `mode`), or a link to `link`. */
export interface Step {
  path: string;
  content?: string;
  link?: string;
  mode?: number;
}

/** The diff of `steps` on server-01, with the content of every file written. */
export function stepsManifest(steps: readonly Step[], requestId: string): { manifest: Manifest; contents: Map<string, Buffer> } {
  const contents = new Map<string, Buffer>();
  const changes = steps.map((s) => {
    const before = entryState({ kind: EntryKind.ENTRY_KIND_ABSENT, mode: 0 });
    if (s.link !== undefined)
      return { path: s.path, before, after: entryState({ kind: EntryKind.ENTRY_KIND_SYMLINK, mode: 0o777, target: s.link }) };
    const b = Buffer.from(s.content ?? "");
    contents.set(s.path, b);
    return { path: s.path, before, after: entryState({ mode: s.mode ?? 0o644, size: b.length, sha256: sha(b) }) };
  });
  return { manifest: Manifest.fromPartial({ requestId, commandDigest: Buffer.alloc(32), host: "server-01", changes }), contents };
}
