// The audit record: one line in the spool, one row in command_audit.
//
// What it trusts: nothing. Every record is validated with zod before it is
// spooled (append) and again when it is read back for shipping, so a record
// the database would refuse is caught at the gateway, not in the shipper.
// How it fails: `parseAuditRecord` throws AuditRecordError naming the field.
// Intent and outcome are two records linked by request_id; (request_id,
// phase) is unique, which is what makes replaying the spool idempotent.
import { z } from "zod";

export const AUDIT_PHASES = ["intent", "outcome"] as const;
export type AuditPhase = (typeof AUDIT_PHASES)[number];

export const AUDIT_SOURCES = ["http", "hook", "cli"] as const;
export type AuditSource = (typeof AUDIT_SOURCES)[number];

/**
 * The closed vocabulary of decision types. `pending` is the intent record's
 * type: the gateway is about to ask the executor. Adding a type here needs no
 * migration (the column is text), but export consumers should be told.
 */
export const DECISION_TYPES = [
  "pending",
  "executed",
  "failed",
  "refused",
  "sandbox_failed",
  "routed",
  "allowed",
  "denied",
  "no_opinion",
  "outcome_unknown",
  "rolled_back",
  "verify_failed",
  "error",
  // The outcome the Claude Code client reported for a command the hook let it run (PostToolUse, PostToolUseFailure).
  "hook_outcome",
  // A hook decision whose answer reached the hook only after it had given up waiting (its time limit):
  // the client applied the hook's fail-closed deny instead. evidence.would_have_been says what it was.
  "late",
] as const;
export type DecisionType = (typeof DECISION_TYPES)[number];

/** The largest command the audit carries verbatim; the executor's cap is smaller. */
export const MAX_COMMAND_BYTES = 64 * 1024;
/** The largest serialized record; a bigger one is refused at append. */
export const MAX_RECORD_BYTES = 512 * 1024;

const text = (max: number) => z.string().max(max);
const optionalText = (max: number) => z.string().max(max).nullable().default(null);

export const AuditRecordSchema = z
  .object({
    request_id: z
      .string()
      .min(1)
      .max(128)
      .regex(/^[A-Za-z0-9._:-]+$/, "request_id: letters, digits, . _ : - only"),
    phase: z.enum(AUDIT_PHASES),
    ts: z.iso.datetime({ offset: true }),
    host: text(255).min(1),
    caller: text(255).min(1),
    source: z.enum(AUDIT_SOURCES),
    command: text(MAX_COMMAND_BYTES),
    cwd: optionalText(4096),
    run_as: optionalText(255),
    assigned_tier: z.number().int().min(0).max(4).nullable().default(null),
    decision_type: z.enum(DECISION_TYPES),
    matched_rule: optionalText(1024),
    /** verdict parts, sandbox report, attestation signers, undo id … */
    evidence: z.record(z.string(), z.json()).default({}),
    exit_code: z.number().int().min(-2147483648).max(2147483647).nullable().default(null),
    rollback_taken: z.boolean().nullable().default(null),
    verify_passed: z.boolean().nullable().default(null),
    duration_ms: z.number().int().min(0).nullable().default(null),
    policy_digest: optionalText(128),
    training_signal: optionalText(64),
  })
  .strict();

/** A validated record, every optional field present (null when unknown). */
export type AuditRecord = z.infer<typeof AuditRecordSchema>;
/** What a caller builds: optional fields may be left out. */
export type AuditRecordInput = z.input<typeof AuditRecordSchema>;

export class AuditRecordError extends Error {
  override readonly name = "AuditRecordError";
}

export function parseAuditRecord(value: unknown): AuditRecord {
  const parsed = AuditRecordSchema.safeParse(value);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ");
    throw new AuditRecordError(`invalid audit record: ${issues}`);
  }
  return parsed.data;
}
