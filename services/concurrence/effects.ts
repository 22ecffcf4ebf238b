// JudgeEffects: the concurrence's verdict over a transactional run's diff.
// Before judging anything it checks that the request is for this host, that
// the manifest decodes and binds this request (its id, its host, and the
// command digest every signer saw, derived with the sudo policy source as
// the executor derives it), and that every file content given is the one the
// manifest names; any mismatch is BAD_REQUEST, never a verdict. Then it
// judges the manifest (manifest.ts) and signs a tier that is not 4 under
// ROLE_CONCURRENCE_EFFECTS, bound to the manifest's digest.
import { createHash, type KeyObject } from "node:crypto";
import { z } from "zod";
import { Role } from "../../proto/gen/agent_sudo/v1/decision_pb.js";
import { type EffectsRequest, type EffectsVerdict, EntryKind, Manifest } from "../../proto/gen/agent_sudo/v1/manifest_pb.js";
import { bindingOf, commandDigest, manifestDigest, signDecision } from "../shared/attestation.js";
import type { Config } from "../shared/config.js";
import { envNamesProblem } from "../shared/env-names.js";
import { CodedError } from "../shared/errors.js";
import type { Logger } from "../shared/log.js";
import { command, cwd, envNames, requestId, runAs } from "../shared/shapes.js";
import { tierToEnum } from "../shared/tier.js";
import { judgeManifest, type ManifestVerdict } from "./manifest.js";
import { concurrenceContext } from "./verdict.js";

const MiB = 1024 * 1024;
const bytes = (max: number) => z.instanceof(Uint8Array).refine((b) => b.length <= max, `at most ${max} bytes`);

export const EffectsShape = z.object({
  requestId,
  command,
  cwd,
  host: z.string().min(1).max(64),
  runAs,
  envNames,
  manifest: bytes(8 * MiB),
  contents: z.record(z.string().min(1).max(4096), bytes(64 * 1024)).refine((c) => Object.keys(c).length <= 4096, "at most 4096 contents"),
});

export interface EffectsSigner {
  key: KeyObject;
  /** sha256 of the concurrence's own code: what it judged with. */
  digest: Buffer;
}

function decodeManifest(encoded: Uint8Array): Manifest {
  try {
    return Manifest.decode(encoded);
  } catch {
    throw new CodedError("BAD_REQUEST", "manifest does not decode");
  }
}

/** The content given, by path, each checked against the manifest's digest for that path. */
function checkedContents(req: EffectsRequest, manifest: Manifest): Map<string, Buffer> {
  const after = new Map(manifest.changes.map((c) => [c.path, c.after]));
  const out = new Map<string, Buffer>();
  for (const [path, value] of Object.entries(req.contents)) {
    const state = after.get(path);
    if (state?.kind !== EntryKind.ENTRY_KIND_FILE || !createHash("sha256").update(value).digest().equals(state.sha256)) {
      throw new CodedError("BAD_REQUEST", "a content given is not the manifest's file at that path");
    }
    out.set(path, Buffer.from(value));
  }
  return out;
}

export function judgeEffects(req: EffectsRequest, signer: EffectsSigner, config: Config, log: Logger): EffectsVerdict {
  if (req.host !== config.host_id) throw new CodedError("BAD_REQUEST", "request for another host");
  const manifest = decodeManifest(req.manifest);
  if (manifest.requestId !== req.requestId) throw new CodedError("BAD_REQUEST", "manifest is for another request");
  if (manifest.host !== req.host) throw new CodedError("BAD_REQUEST", "manifest is for another host");
  // /exec decisions are judged by the sudo policy, and the executor derives every digest with it.
  const binding = bindingOf(req, "sudo");
  if (!Buffer.from(manifest.commandDigest).equals(commandDigest(binding)))
    throw new CodedError("BAD_REQUEST", "manifest does not bind this command");
  const contents = checkedContents(req, manifest);
  const envProblem = envNamesProblem(req.envNames);
  const verdict: ManifestVerdict = envProblem
    ? { tier: 4, reasons: [`tier 4: secret variable: ${envProblem}`] }
    : judgeManifest(manifest, contents, concurrenceContext(config, req));
  log.info({ tier: verdict.tier, changes: manifest.changes.length, reason: verdict.reasons.at(-1) }, "concurrence judged effects");
  return {
    tier: tierToEnum(verdict.tier),
    reasons: verdict.reasons,
    attestation:
      verdict.tier === 4
        ? undefined
        : signDecision("concurrence", signer.key, {
            role: Role.ROLE_CONCURRENCE_EFFECTS,
            requestId: req.requestId,
            binding,
            tier: verdict.tier,
            policyDigest: signer.digest,
            ttlS: config.decision_ttl_s,
            rule: "concurrence:effects",
            manifestDigest: manifestDigest(req.manifest),
          }),
  };
}
