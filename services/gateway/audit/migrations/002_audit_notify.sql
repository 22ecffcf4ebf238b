-- For external monitors (seed D10): every new command_audit row raises
--   NOTIFY agent_sudo_audit, '<id>'
-- A watchdog runs LISTEN agent_sudo_audit and reads the row by id. Rows
-- skipped by ON CONFLICT DO NOTHING (replays) fire nothing. Notifications are
-- delivered at commit and are not stored: a listener that was disconnected
-- catches up by reading ids greater than the last one it saw.
CREATE FUNCTION agent_sudo_audit_notify() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('agent_sudo_audit', NEW.id::text);
  RETURN NULL;
END;
$$;

CREATE TRIGGER command_audit_notify
  AFTER INSERT ON command_audit
  FOR EACH ROW EXECUTE FUNCTION agent_sudo_audit_notify();
