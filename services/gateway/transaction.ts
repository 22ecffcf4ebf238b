// Tiers 1–2 are transactional (ARCHITECTURE "Envelopes"): the command runs
// once, in the sandbox's copy-on-write mirror of the host; both judges rate
// its diff; only a diff neither judged tier 4 is committed, by the executor,
// under a lease for the worst tier either judge gave (tier 3 → the tier-3
// quorum over the manifest). The run's stdout, stderr and exit code are the
// answer. Nothing reaches the host that both classifiers have not seen.
import type { Attestation } from "../../proto/gen/agent_sudo/v1/decision_pb.js";
import { EntryKind, Manifest, type EffectsRequest, type EffectsVerdict } from "../../proto/gen/agent_sudo/v1/manifest_pb.js";
import type { RunReport } from "../../proto/gen/agent_sudo/v1/sandbox_pb.js";
import { tierFromEnum, type TierNumber } from "../shared/tier.js";
import { call, type ServiceClients } from "./clients.js";
import { failedCall } from "./refusal.js";

/** Content the judges get to read (files whose content runs later are small). */
const MAX_JUDGED_FILE = 64 * 1024;
const MAX_JUDGED_TOTAL = 4 * 1024 * 1024;

export interface Judged {
  tier: TierNumber;
  attestations: Attestation[];
  evidence: Record<string, unknown>;
}

/** The changed files' content by path, for the judges (each ≤ 64 KiB, 4 MiB in all). */
export function judgedContents(manifest: Manifest, blobs: Record<string, Uint8Array>): Record<string, Buffer> {
  const out: Record<string, Buffer> = {};
  let total = 0;
  for (const c of manifest.changes) {
    if (c.after?.kind !== EntryKind.ENTRY_KIND_FILE) continue;
    const blob = blobs[Buffer.from(c.after.sha256).toString("hex")];
    if (!blob || blob.length > MAX_JUDGED_FILE || total + blob.length > MAX_JUDGED_TOTAL) continue;
    out[c.path] = Buffer.from(blob);
    total += blob.length;
  }
  return out;
}

/** A short list of what the run changed, for the audit and the answer. */
export function changeSummary(manifest: Manifest): string[] {
  const kind = (k: EntryKind | undefined) => (k === EntryKind.ENTRY_KIND_ABSENT ? "absent" : k === EntryKind.ENTRY_KIND_DIR ? "dir" : k === EntryKind.ENTRY_KIND_SYMLINK ? "symlink" : "file");
  return manifest.changes.map((c) => {
    const was = kind(c.before?.kind);
    const now = kind(c.after?.kind);
    const verb = was === "absent" ? "created" : now === "absent" ? "deleted" : "changed";
    return `${verb} ${c.path}`;
  });
}

/** Runs the command in the mirror; refuses when the run cannot be committed. */
export async function runInMirror(clients: ServiceClients, req: { requestId: string; command: string; cwd: string; host: string; runAs: string; envNames: string[]; timeoutS: number; classifier: Attestation | undefined; env: Record<string, string> }, tier: TierNumber): Promise<RunReport> {
  const { sandbox } = clients;
  return call(sandbox, sandbox.run, req, (req.timeoutS + 15) * 1000).catch((e: unknown) => {
    throw failedCall("sandbox", e, req.requestId, tier);
  });
}

/** Both judges over one manifest; the worst tier stands. A judge that is down refuses (503). */
export async function judgeRun(clients: ServiceClients, req: EffectsRequest, predicted: TierNumber): Promise<Judged & { why: string }> {
  const ask = (name: "classifier" | "concurrence"): Promise<EffectsVerdict> => {
    const c = clients[name];
    return call(c, c.judgeEffects, req, 10_000).catch((e: unknown) => {
      throw failedCall(name, e, req.requestId, predicted);
    });
  };
  const [mine, second] = await Promise.all([ask("classifier"), ask("concurrence")]);
  const t1 = tierFromEnum(mine.tier);
  const t2 = tierFromEnum(second.tier);
  const attestations = [mine.attestation, second.attestation].filter((a): a is Attestation => a !== undefined);
  // A judge signs nothing for tier 4: a missing verdict is a refusal.
  const tier = (attestations.length < 2 ? 4 : Math.max(predicted, t1, t2)) as TierNumber;
  const evidence = { classifier: { tier: t1, reasons: mine.reasons.slice(0, 50) }, concurrence: { tier: t2, reasons: second.reasons.slice(0, 50) } };
  const why = [t1 === 4 ? `classifier: ${mine.reasons.slice(0, 3).join("; ")}` : "", t2 === 4 ? `concurrence: ${second.reasons.slice(0, 3).join("; ")}` : ""].filter(Boolean).join(" | ");
  return { tier, attestations, evidence, why };
}
