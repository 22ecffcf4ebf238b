-- command_audit: one row per (request_id, phase). Intent rows are written
-- before the executor is asked; outcome rows after. The shipper inserts with
-- ON CONFLICT (request_id, phase) DO NOTHING, so a replayed spool is harmless.
-- decision_type is text (the closed vocabulary lives in record.ts) so a new
-- decision type needs no migration.
CREATE TABLE command_audit (
  id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  request_id       text        NOT NULL,
  phase            text        NOT NULL CHECK (phase IN ('intent', 'outcome')),
  ts               timestamptz NOT NULL,
  shipped_at       timestamptz NOT NULL DEFAULT now(),
  host             text        NOT NULL,
  caller           text        NOT NULL,
  source           text        NOT NULL CHECK (source IN ('http', 'hook', 'cli')),
  command          text        NOT NULL,
  cwd              text,
  run_as           text,
  assigned_tier    smallint    CHECK (assigned_tier BETWEEN 0 AND 4),
  decision_type    text        NOT NULL,
  matched_rule     text,
  evidence         jsonb       NOT NULL DEFAULT '{}'::jsonb,
  exit_code        integer,
  rollback_taken   boolean,
  verify_passed    boolean,
  duration_ms      bigint      CHECK (duration_ms >= 0),
  policy_digest    text,
  training_signal  text,
  human_verdict    text        CHECK (human_verdict IN ('approve', 'reject')),
  human_verdict_by text,
  human_verdict_at timestamptz,
  CONSTRAINT command_audit_request_phase UNIQUE (request_id, phase),
  CONSTRAINT command_audit_verdict_complete CHECK (
    (human_verdict IS NULL) = (human_verdict_by IS NULL) AND (human_verdict IS NULL) = (human_verdict_at IS NULL)
  )
);

CREATE INDEX command_audit_ts ON command_audit (ts);
