CREATE TYPE "public"."transaction_direction" AS ENUM('INBOUND', 'OUTBOUND');--> statement-breakpoint
ALTER TYPE "public"."transaction_type" ADD VALUE 'DEPOSIT';--> statement-breakpoint
CREATE TABLE "chain_follower_blocks" (
	"network_code" "network_code" NOT NULL,
	"block_number" bigint NOT NULL,
	"block_hash" text NOT NULL,
	"parent_hash" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "chain_follower_blocks_network_code_block_number_pk" PRIMARY KEY("network_code","block_number"),
	CONSTRAINT "chain_follower_blocks_hash_shape" CHECK ("chain_follower_blocks"."block_hash" ~ '^0x[0-9a-f]{64}$' and "chain_follower_blocks"."parent_hash" ~ '^0x[0-9a-f]{64}$')
);
--> statement-breakpoint
CREATE TABLE "chain_followers" (
	"network_code" "network_code" PRIMARY KEY NOT NULL,
	"holder" text,
	"lease_expires_at" timestamp (3) with time zone,
	"block_number" bigint,
	"block_hash" text,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "transactions_network_chain_tx_hash_unique";--> statement-breakpoint
ALTER TABLE "transactions" ALTER COLUMN "source_wallet_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "direction" "transaction_direction" DEFAULT 'OUTBOUND' NOT NULL;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "destination_wallet_id" uuid;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "log_index" integer;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "token_address" text;--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_destination_wallet_id_wallets_id_fk" FOREIGN KEY ("destination_wallet_id") REFERENCES "public"."wallets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "transactions_deposit_unique" ON "transactions" USING btree ("network_code","chain_tx_hash",coalesce("log_index", -1),"destination_wallet_id") WHERE "transactions"."direction" = 'INBOUND';--> statement-breakpoint
CREATE INDEX "transactions_destination_wallet_idx" ON "transactions" USING btree ("tenant_id","destination_wallet_id","id") WHERE "transactions"."destination_wallet_id" is not null;--> statement-breakpoint
CREATE INDEX "transactions_inbound_confirming_idx" ON "transactions" USING btree ("network_code","block_number") WHERE "transactions"."direction" = 'INBOUND' and "transactions"."status" = 'CONFIRMING';--> statement-breakpoint
CREATE UNIQUE INDEX "transactions_network_chain_tx_hash_unique" ON "transactions" USING btree ("network_code","chain_tx_hash") WHERE "transactions"."chain_tx_hash" is not null and "transactions"."direction" = 'OUTBOUND';--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_direction_shape" CHECK (("transactions"."direction" = 'INBOUND') = ("transactions"."type"::text = 'DEPOSIT') and ("transactions"."direction" = 'INBOUND') = ("transactions"."source_wallet_id" is null) and ("transactions"."direction" = 'INBOUND') = ("transactions"."destination_wallet_id" is not null) and ("transactions"."direction" = 'OUTBOUND' or "transactions"."chain_tx_hash" is not null));--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_token_address_canonical" CHECK ("transactions"."token_address" is null or "transactions"."token_address" ~ '^0x[0-9a-f]{40}$');