-- Wakes the webhook dispatcher the moment events commit: every daemon LISTENs on this channel
-- (packages/db/src/queries/webhooks.ts OUTBOX_NOTIFY_CHANNEL). Once per statement, with no
-- payload: the dispatcher reads the outbox itself, and PostgreSQL folds identical notifications
-- of one transaction into one, delivered only on commit (a rolled-back event wakes nobody).
CREATE OR REPLACE FUNCTION event_outbox_notify() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('qc_event_outbox', '');
  RETURN NULL;
END;
$$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS event_outbox_notify ON event_outbox;
--> statement-breakpoint
CREATE TRIGGER event_outbox_notify AFTER INSERT ON event_outbox
  FOR EACH STATEMENT EXECUTE FUNCTION event_outbox_notify();
