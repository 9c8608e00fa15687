ALTER TYPE "public"."address_book_entry_status" ADD VALUE 'AWAITING_APPROVAL';--> statement-breakpoint
CREATE TABLE "address_book_approvals" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"entry_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"decision" "approval_decision" NOT NULL,
	"group_ids" uuid[] NOT NULL,
	"key_id" uuid,
	"approval_hash" text NOT NULL,
	"signature" text,
	"reason" text,
	"decided_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "address_book_approvals_signed" CHECK (("address_book_approvals"."decision" = 'APPROVED') = ("address_book_approvals"."key_id" is not null and "address_book_approvals"."signature" is not null))
);
--> statement-breakpoint
CREATE TABLE "address_book_settings" (
	"tenant_id" uuid PRIMARY KEY NOT NULL,
	"approval_group_id" uuid,
	"approval_quorum" integer,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "address_book_settings_approval" CHECK (("address_book_settings"."approval_group_id" is null) = ("address_book_settings"."approval_quorum" is null) and ("address_book_settings"."approval_quorum" is null or "address_book_settings"."approval_quorum" >= 1))
);
--> statement-breakpoint
ALTER TABLE "address_book_entries" ALTER COLUMN "activates_at" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "address_book_entries" ADD COLUMN "created_by_user_id" uuid;--> statement-breakpoint
ALTER TABLE "address_book_entries" ADD COLUMN "removal_reason" text;--> statement-breakpoint
ALTER TABLE "address_book_entries" ADD COLUMN "approval_group_id" uuid;--> statement-breakpoint
ALTER TABLE "address_book_entries" ADD COLUMN "approval_quorum" integer;--> statement-breakpoint
ALTER TABLE "address_book_entries" ADD COLUMN "approval_deadline" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "address_book_entries" ADD COLUMN "approved_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "address_book_approvals" ADD CONSTRAINT "address_book_approvals_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "address_book_approvals" ADD CONSTRAINT "address_book_approvals_entry_id_address_book_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."address_book_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "address_book_approvals" ADD CONSTRAINT "address_book_approvals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "address_book_approvals" ADD CONSTRAINT "address_book_approvals_key_id_approval_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."approval_keys"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "address_book_settings" ADD CONSTRAINT "address_book_settings_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "address_book_settings" ADD CONSTRAINT "address_book_settings_approval_group_id_approver_groups_id_fk" FOREIGN KEY ("approval_group_id") REFERENCES "public"."approver_groups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "address_book_approvals_member_unique" ON "address_book_approvals" USING btree ("entry_id","user_id");--> statement-breakpoint
CREATE INDEX "address_book_approvals_tenant_entry_idx" ON "address_book_approvals" USING btree ("tenant_id","entry_id");--> statement-breakpoint
ALTER TABLE "address_book_entries" ADD CONSTRAINT "address_book_entries_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "address_book_entries" ADD CONSTRAINT "address_book_entries_activates_at" CHECK (("address_book_entries"."activates_at" is not null or "address_book_entries"."status"::text <> 'PENDING') and ("address_book_entries"."status"::text <> 'AWAITING_APPROVAL' or "address_book_entries"."activates_at" is null));--> statement-breakpoint
ALTER TABLE "address_book_entries" ADD CONSTRAINT "address_book_entries_approval" CHECK (("address_book_entries"."approval_group_id" is null) = ("address_book_entries"."approval_quorum" is null) and ("address_book_entries"."approval_group_id" is null) = ("address_book_entries"."approval_deadline" is null) and ("address_book_entries"."status"::text <> 'AWAITING_APPROVAL' or "address_book_entries"."approval_group_id" is not null) and ("address_book_entries"."approval_quorum" is null or "address_book_entries"."approval_quorum" >= 1));