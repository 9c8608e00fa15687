ALTER TYPE "public"."transaction_sub_status" ADD VALUE 'CANCELLED_ON_CHAIN' BEFORE 'SIGNING_TIMEOUT';--> statement-breakpoint
ALTER TYPE "public"."transaction_sub_status" ADD VALUE 'REPLACED';--> statement-breakpoint
ALTER TYPE "public"."transaction_type" ADD VALUE 'NONCE_FILL';--> statement-breakpoint
ALTER TYPE "public"."transaction_type" ADD VALUE 'REPLACEMENT';--> statement-breakpoint
ALTER TYPE "public"."transaction_type" ADD VALUE 'CANCELLATION';--> statement-breakpoint
ALTER TABLE "transactions" DROP CONSTRAINT "transactions_deploy_shape";--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "replaces_transaction_id" uuid;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "replaced_by_transaction_id" uuid;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "stuck" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_replaces_transaction_id_transactions_id_fk" FOREIGN KEY ("replaces_transaction_id") REFERENCES "public"."transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_replaced_by_transaction_id_transactions_id_fk" FOREIGN KEY ("replaced_by_transaction_id") REFERENCES "public"."transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "transactions_source_nonce_idx" ON "transactions" USING btree ("source_wallet_id","network_code","nonce") WHERE "transactions"."nonce" is not null;--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_replaces_shape" CHECK (("transactions"."type"::text in ('REPLACEMENT', 'CANCELLATION')) = ("transactions"."replaces_transaction_id" is not null));--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_deploy_shape" CHECK (("transactions"."type"::text <> 'CONTRACT_DEPLOY' or ("transactions"."template_id" is not null and "transactions"."constructor_args" is not null)) and ("transactions"."type"::text in ('CONTRACT_DEPLOY', 'REPLACEMENT') or ("transactions"."template_id" is null and "transactions"."constructor_args" is null)));