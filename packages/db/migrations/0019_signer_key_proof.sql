ALTER TABLE "signer_keys" ADD COLUMN "ownership_proof" text;--> statement-breakpoint
ALTER TABLE "wallets" ADD COLUMN "ownership_proof" text;