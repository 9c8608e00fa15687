CREATE TYPE "public"."address_book_entry_status" AS ENUM('PENDING', 'REMOVED');--> statement-breakpoint
CREATE TABLE "address_book_entries" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"network_code" "network_code" NOT NULL,
	"address" text NOT NULL,
	"label" text NOT NULL,
	"asset_ids" uuid[],
	"status" "address_book_entry_status" DEFAULT 'PENDING' NOT NULL,
	"activates_at" timestamp (3) with time zone NOT NULL,
	"activation_announced_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"created_by" text NOT NULL,
	"removed_at" timestamp (3) with time zone,
	"removed_by" text,
	CONSTRAINT "address_book_entries_address_canonical" CHECK ("address_book_entries"."address" ~ '^0x[0-9a-f]{40}$'),
	CONSTRAINT "address_book_entries_label_length" CHECK (char_length("address_book_entries"."label") between 1 and 100),
	CONSTRAINT "address_book_entries_asset_ids_not_empty" CHECK ("address_book_entries"."asset_ids" is null or cardinality("address_book_entries"."asset_ids") > 0),
	CONSTRAINT "address_book_entries_removed" CHECK (("address_book_entries"."status" = 'REMOVED') = ("address_book_entries"."removed_at" is not null) and ("address_book_entries"."removed_at" is null) = ("address_book_entries"."removed_by" is null))
);
--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "destination_label" text;--> statement-breakpoint
ALTER TABLE "address_book_entries" ADD CONSTRAINT "address_book_entries_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "address_book_entries_tenant_idx" ON "address_book_entries" USING btree ("tenant_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "address_book_entries_listed_unique" ON "address_book_entries" USING btree ("tenant_id","network_code","address") WHERE "address_book_entries"."removed_at" is null;