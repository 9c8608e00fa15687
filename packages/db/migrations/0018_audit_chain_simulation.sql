CREATE TABLE "audit_chain_heads" (
	"tenant_id" uuid PRIMARY KEY NOT NULL,
	"sequence" bigint DEFAULT 0 NOT NULL,
	"hash" text NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "audit_checkpoints" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"sequence" bigint NOT NULL,
	"hash" text NOT NULL,
	"signed_at" timestamp (3) with time zone NOT NULL,
	"key_id" text NOT NULL,
	"signature" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "audit_keys" (
	"id" uuid PRIMARY KEY NOT NULL,
	"key_id" text NOT NULL,
	"public_key" text NOT NULL,
	"secret_key_ciphertext" text NOT NULL,
	"status" text DEFAULT 'ACTIVE' NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"retired_at" timestamp (3) with time zone,
	CONSTRAINT "audit_keys_key_id_unique" UNIQUE("key_id")
);
--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "sequence" bigint;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "prev_hash" text;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "hash" text;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "simulation" jsonb;--> statement-breakpoint
CREATE UNIQUE INDEX "audit_checkpoints_tenant_sequence_idx" ON "audit_checkpoints" USING btree ("tenant_id","sequence");--> statement-breakpoint
CREATE UNIQUE INDEX "audit_keys_one_active_idx" ON "audit_keys" USING btree ("status") WHERE status = 'ACTIVE';--> statement-breakpoint
CREATE UNIQUE INDEX "audit_events_tenant_sequence_idx" ON "audit_events" USING btree ("tenant_id","sequence");--> statement-breakpoint
CREATE INDEX "audit_events_unsealed_idx" ON "audit_events" USING btree ("tenant_id","id") WHERE sequence is null and tenant_id is not null;--> statement-breakpoint
-- Sealing (CONTRACT §19): the append-only rule gains one exception. An UPDATE may fill the chain
-- columns (sequence, prev_hash, hash) of a tenant's unsealed row, once, and change nothing else;
-- every other UPDATE, every DELETE and TRUNCATE are still refused.
CREATE OR REPLACE FUNCTION audit_events_append_only() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    IF OLD.sequence IS NULL AND OLD.tenant_id IS NOT NULL
       AND NEW.sequence IS NOT NULL AND NEW.prev_hash IS NOT NULL AND NEW.hash IS NOT NULL
       AND (to_jsonb(NEW) - 'sequence' - 'prev_hash' - 'hash') = (to_jsonb(OLD) - 'sequence' - 'prev_hash' - 'hash') THEN
      RETURN NEW;
    END IF;
  END IF;
  RAISE EXCEPTION 'audit_events is append-only (% refused)', TG_OP
    USING ERRCODE = 'insufficient_privilege';
END;
$$;
--> statement-breakpoint
-- Signed checkpoints are as permanent as the rows they sign.
CREATE OR REPLACE FUNCTION audit_checkpoints_append_only() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_checkpoints is append-only (% refused)', TG_OP
    USING ERRCODE = 'insufficient_privilege';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER audit_checkpoints_no_update BEFORE UPDATE OR DELETE ON audit_checkpoints
  FOR EACH ROW EXECUTE FUNCTION audit_checkpoints_append_only();
--> statement-breakpoint
CREATE TRIGGER audit_checkpoints_no_truncate BEFORE TRUNCATE ON audit_checkpoints
  FOR EACH STATEMENT EXECUTE FUNCTION audit_checkpoints_append_only();
