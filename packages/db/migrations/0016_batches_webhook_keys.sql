ALTER TABLE "webhook_endpoints" ADD COLUMN "signature_schemes" text[] DEFAULT '{v1}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "signing_key_ciphertext" text;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "public_key" text;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "previous_signing_key_ciphertext" text;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "batch_id" uuid;--> statement-breakpoint
CREATE INDEX "transactions_tenant_batch_idx" ON "transactions" USING btree ("tenant_id","batch_id","id") WHERE "transactions"."batch_id" is not null;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_signature_schemes" CHECK (cardinality("webhook_endpoints"."signature_schemes") between 1 and 2 and "webhook_endpoints"."signature_schemes" <@ array['v1', 'v1a']::text[]);--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_key_pair" CHECK (("webhook_endpoints"."signing_key_ciphertext" is null) = ("webhook_endpoints"."public_key" is null) and (not 'v1a' = any("webhook_endpoints"."signature_schemes") or "webhook_endpoints"."signing_key_ciphertext" is not null));--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_previous_key_during_rotation" CHECK ("webhook_endpoints"."previous_signing_key_ciphertext" is null or "webhook_endpoints"."previous_secret_expires_at" is not null);