DROP INDEX "transactions_source_status_idx";--> statement-breakpoint
CREATE INDEX "transactions_source_status_idx" ON "transactions" USING btree ("source_wallet_id","network_code","status","id");