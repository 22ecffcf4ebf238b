// The JudgeEffects request's shape and the checks made before a manifest is
// judged: that it is for this host, decodes, belongs to this request and
// command (the /exec binding, sudo policy), and that every content given is
// the manifest's own (sha256 of the after state). Apart from main.ts so it
// can be tested without starting the service. Refuses with BAD_REQUEST.
import { createHash } from "node:crypto";
import { z } from "zod";
import { EntryKind, Manifest, type EffectsRequest } from "../../../proto/gen/agent_sudo/v1/manifest_pb.js";
import { bindingOf, commandDigest } from "../../shared/attestation.js";
import { CodedError } from "../../shared/errors.js";
import { command, cwd, envNames, requestId, runAs } from "../../shared/shapes.js";

export const MAX_MANIFEST_BYTES = 8 * 1024 * 1024;
export const MAX_CONTENTS = 4096;
export const MAX_CONTENT_BYTES = 64 * 1024;

const bytes = (max: number) => z.custom<Uint8Array>((v) => v instanceof Uint8Array && v.length <= max, `at most ${max} bytes`);

export const EffectsShape = z.object({
  requestId,
  command,
  cwd,
  host: z.string().min(1).max(64),
  runAs,
  envNames,
  manifest: bytes(MAX_MANIFEST_BYTES),
  contents: z
    .record(z.string().min(1).max(4096), bytes(MAX_CONTENT_BYTES))
    .refine((c) => Object.keys(c).length <= MAX_CONTENTS, `at most ${MAX_CONTENTS} contents`),
});

export interface CheckedEffects {
  manifest: Manifest;
  contents: Map<string, Buffer>;
}

/** Decode and check a JudgeEffects request; throws CodedError("BAD_REQUEST") naming the failed check. */
export function checkEffectsRequest(req: EffectsRequest, hostId: string): CheckedEffects {
  if (req.host !== hostId) throw new CodedError("BAD_REQUEST", "request for another host");
  let manifest: Manifest;
  try {
    manifest = Manifest.decode(req.manifest);
  } catch {
    throw new CodedError("BAD_REQUEST", "manifest does not decode");
  }
  if (manifest.requestId !== req.requestId) throw new CodedError("BAD_REQUEST", "manifest of another request");
  if (manifest.host !== req.host) throw new CodedError("BAD_REQUEST", "manifest of another host");
  if (!Buffer.from(manifest.commandDigest).equals(commandDigest(bindingOf(req, "sudo")))) {
    throw new CodedError("BAD_REQUEST", "manifest of another command");
  }
  const written = new Map<string, Buffer>();
  for (const c of manifest.changes) if (c.after?.kind === EntryKind.ENTRY_KIND_FILE) written.set(c.path, Buffer.from(c.after.sha256));
  const contents = new Map<string, Buffer>();
  // Own keys only: a decoded map key such as "__proto__" is not a path.
  for (const [path, value] of Object.entries(req.contents)) {
    const want = written.get(path);
    const buf = Buffer.from(value);
    if (!want || !createHash("sha256").update(buf).digest().equals(want))
      throw new CodedError("BAD_REQUEST", "content that is not the manifest's");
    contents.set(path, buf);
  }
  return { manifest, contents };
}
