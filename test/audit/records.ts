// Audit records for tests.
import type { AuditPhase, AuditRecordInput } from "../../services/gateway/audit/record.js";

export function makeRecord(i: number, phase: AuditPhase = "intent", prefix = "req"): AuditRecordInput {
  const base: AuditRecordInput = {
    request_id: `${prefix}-${i}`,
    phase,
    ts: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(),
    host: "primary",
    caller: "test-agent",
    source: "http",
    command: `systemctl restart app-${i}`,
    cwd: "/srv",
    assigned_tier: 3,
    decision_type: phase === "intent" ? "pending" : "executed",
    matched_rule: "systemctl restart app-*",
    evidence: { signers: ["classifier", "concurrence"], n: i },
    policy_digest: "sha256:abc",
  };
  return phase === "outcome"
    ? { ...base, exit_code: 0, rollback_taken: false, verify_passed: true, duration_ms: 12, training_signal: "positive" }
    : base;
}
