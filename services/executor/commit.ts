// Commits a transactional run's diff (tiers 1–2) to the host: exactly the
// manifest both judges saw, nothing else. Before anything is written the
// undo store records every path and proves the host still matches each
// `before` (undo.ts captureManifest: CONFLICT otherwise, nothing written);
// blobs are checked against the manifest's sha256; a directory the run
// deleted must hold nothing the run did not see. Then, deletions deepest
// first, creations and changes parents first, each through safe-fs.ts
// (regular files: temp + fsync + rename; owner before mode; symlinks made
// by us; never following a link we did not create). The journal brackets
// the writes (commit-begin, fsynced, before; commit-end after); a commit
// interrupted by a crash is rolled back from its undo record at the next
// start (main.ts).
import { createHash } from "node:crypto";
import { EntryKind, type Change, type Manifest } from "../../proto/gen/agent_sudo/v1/manifest_pb.js";
import { CodedError } from "../shared/errors.js";
import { applyOrder, type Dir, listAt, lstatAt, openDir, placeAt, removeAt, withParent } from "./safe-fs.js";

/** Paths no commit may write: kernel interfaces (the envelope's run never sees them either). */
const NEVER = /^\/(?:proc|sys|dev)(?:\/|$)/;

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");

const within = (path: string, dir: string): boolean => dir === "/" || path === dir || path.startsWith(`${dir}/`);

/**
 * No change lands in what every command is kept from — agent-sudo's state
 * dirs and the secret paths, as masked on this host now — nor deletes or
 * replaces a directory holding one. The mirror shows them empty and a write
 * into one refuses the run; this holds too where the mirror saw one by
 * another path (a mount or a hard link the masks missed, review 21).
 */
export function checkMasks(manifest: Manifest, masks: readonly string[]): void {
  for (const c of manifest.changes) {
    const hit = masks.find(
      (m) =>
        within(c.path, m) ||
        (within(m, c.path) && c.before?.kind === EntryKind.ENTRY_KIND_DIR && c.after?.kind !== EntryKind.ENTRY_KIND_DIR),
    );
    if (hit)
      throw new CodedError(
        "REFUSED",
        `manifest: ${c.path} changes ${hit}, which no command may touch (agent-sudo's state or a secret path)`,
      );
  }
}

/** Checks the manifest's shape and the blobs before anything is captured or written. */
export function checkManifest(manifest: Manifest, blobs: ReadonlyMap<string, Uint8Array>): void {
  const seen = new Set<string>();
  for (const c of manifest.changes) {
    if (!c.before || !c.after) throw new CodedError("BAD_REQUEST", `manifest: ${c.path} lacks a state`);
    if (c.path === "/" || NEVER.test(c.path)) throw new CodedError("REFUSED", `manifest: ${c.path} is never committed`);
    if (seen.has(c.path)) throw new CodedError("BAD_REQUEST", `manifest: ${c.path} twice`);
    seen.add(c.path);
    const kind = c.after.kind;
    if (kind === EntryKind.ENTRY_KIND_SPECIAL || kind === EntryKind.ENTRY_KIND_UNSPECIFIED)
      throw new CodedError("REFUSED", `manifest: ${c.path} is not a file, directory or symlink`);
    // A commit writes content, owner and mode; extended attributes (ACLs, file capabilities, labels) it cannot carry.
    if (kind !== EntryKind.ENTRY_KIND_ABSENT && c.after.xattrs.length > 0)
      throw new CodedError(
        "REFUSED",
        `manifest: ${c.path} has extended attributes (${c.after.xattrs.join(", ")}), which a commit cannot carry`,
      );
    if (kind === EntryKind.ENTRY_KIND_FILE) {
      const blob = blobs.get(hex(c.after.sha256));
      if (
        !blob ||
        blob.length !== Number(c.after.size) ||
        !createHash("sha256").update(blob).digest().equals(Buffer.from(c.after.sha256))
      ) {
        throw new CodedError("BAD_REQUEST", `manifest: content of ${c.path} missing or not what was signed`);
      }
    }
  }
  // A directory the run deleted (or replaced by a file or symlink) may hold only what the manifest deletes with it.
  for (const c of manifest.changes) {
    if (c.before?.kind !== EntryKind.ENTRY_KIND_DIR || c.after?.kind === EntryKind.ENTRY_KIND_DIR) continue;
    let dir: Dir;
    try {
      dir = openDir(c.path);
    } catch {
      continue; // the capture reports what is wrong with it
    }
    try {
      const extra = listAt(dir).filter((n) => !seen.has(`${c.path}/${n}`));
      if (extra.length > 0) throw new CodedError("CONFLICT", `${c.path} holds ${extra.slice(0, 5).join(", ")} created since the run`);
    } finally {
      dir.close();
    }
  }
}

function applyOne(c: Change, blobs: ReadonlyMap<string, Uint8Array>): void {
  const after = c.after;
  if (!after) return;
  withParent(c.path, (dir, name) => {
    if (after.kind === EntryKind.ENTRY_KIND_ABSENT) {
      if (lstatAt(dir, name)) removeAt(dir, name);
      return;
    }
    const { mode, uid, gid } = after;
    // The same bytes as before (a mode or owner change): only those are set.
    const same = c.before?.kind === after.kind && Buffer.from(after.sha256).equals(Buffer.from(c.before?.sha256 ?? []));
    const content = () => {
      const blob = blobs.get(hex(after.sha256));
      if (!blob) throw new CodedError("BAD_REQUEST", `content of ${c.path} missing`);
      return Buffer.from(blob);
    };
    placeAt(
      dir,
      name,
      after.kind === EntryKind.ENTRY_KIND_DIR
        ? { kind: "dir", mode, uid, gid }
        : after.kind === EntryKind.ENTRY_KIND_SYMLINK
          ? { kind: "symlink", target: after.target, uid, gid }
          : { kind: "file", mode, uid, gid, content: same ? undefined : content },
    );
  });
}

/**
 * Writes the manifest's `after` states. Throws on the first failure (the
 * caller rolls back from the undo record); returns how many paths it wrote.
 */
export function applyManifest(manifest: Manifest, blobs: ReadonlyMap<string, Uint8Array>): number {
  let applied = 0;
  for (const c of applyOrder(manifest.changes, (c) => c.after?.kind === EntryKind.ENTRY_KIND_ABSENT)) {
    try {
      applyOne(c, blobs);
    } catch (err) {
      if (err instanceof CodedError) throw err;
      throw new CodedError("CONFLICT", `${c.path}: ${(err as Error).message}`);
    }
    applied++;
  }
  return applied;
}
