CREATE TYPE "public"."approval_decision" AS ENUM('APPROVED', 'REJECTED');--> statement-breakpoint
ALTER TYPE "public"."transaction_status" ADD VALUE 'AWAITING_APPROVAL' BEFORE 'QUEUED';--> statement-breakpoint
ALTER TYPE "public"."transaction_sub_status" ADD VALUE 'REJECTED_BY_APPROVER' BEFORE 'CANCELLED_BY_USER';--> statement-breakpoint
ALTER TYPE "public"."transaction_sub_status" ADD VALUE 'APPROVAL_TIMEOUT' BEFORE 'SIGNATURE_MISMATCH';--> statement-breakpoint
CREATE TABLE "approval_keys" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"public_key" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp (3) with time zone,
	CONSTRAINT "approval_keys_public_key_hex" CHECK (length("approval_keys"."public_key") = 5186 and "approval_keys"."public_key" ~ '^0x[0-9a-f]+$')
);
--> statement-breakpoint
CREATE TABLE "approver_group_members" (
	"group_id" uuid NOT NULL,
	"tenant_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "approver_group_members_group_id_user_id_pk" PRIMARY KEY("group_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "approver_groups" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "transaction_approvals" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"transaction_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"decision" "approval_decision" NOT NULL,
	"group_ids" uuid[] NOT NULL,
	"key_id" uuid,
	"approval_hash" text NOT NULL,
	"signature" text,
	"reason" text,
	"decided_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "transaction_approvals_signed" CHECK (("transaction_approvals"."decision" = 'APPROVED') = ("transaction_approvals"."key_id" is not null and "transaction_approvals"."signature" is not null))
);
--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "initiated_by_type" text;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "initiated_by_user_id" uuid;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "initiated_by_key_id" varchar(35);--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "approvals" jsonb;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "approval_deadline" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "approval_keys" ADD CONSTRAINT "approval_keys_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approval_keys" ADD CONSTRAINT "approval_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approver_group_members" ADD CONSTRAINT "approver_group_members_group_id_approver_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."approver_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approver_group_members" ADD CONSTRAINT "approver_group_members_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approver_group_members" ADD CONSTRAINT "approver_group_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approver_groups" ADD CONSTRAINT "approver_groups_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transaction_approvals" ADD CONSTRAINT "transaction_approvals_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transaction_approvals" ADD CONSTRAINT "transaction_approvals_transaction_id_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transaction_approvals" ADD CONSTRAINT "transaction_approvals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transaction_approvals" ADD CONSTRAINT "transaction_approvals_key_id_approval_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."approval_keys"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "approval_keys_user_idx" ON "approval_keys" USING btree ("tenant_id","user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "approval_keys_public_key_unique" ON "approval_keys" USING btree (sha256(decode(substr("public_key", 3), 'hex')));--> statement-breakpoint
CREATE INDEX "approver_group_members_user_idx" ON "approver_group_members" USING btree ("tenant_id","user_id");--> statement-breakpoint
CREATE INDEX "approver_groups_tenant_idx" ON "approver_groups" USING btree ("tenant_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "transaction_approvals_member_unique" ON "transaction_approvals" USING btree ("transaction_id","user_id");--> statement-breakpoint
CREATE INDEX "transaction_approvals_tenant_tx_idx" ON "transaction_approvals" USING btree ("tenant_id","transaction_id");--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_initiated_by_type_known" CHECK ("transactions"."initiated_by_type" is null or "transactions"."initiated_by_type" in ('USER', 'API_KEY'));--> statement-breakpoint
-- initiatedBy of the transactions created before these columns: the actor of each one's first status-history entry
-- (a dashboard user's id, or an API key's public id and the member who created the key).
UPDATE "transactions" AS t SET
	"initiated_by_type" = CASE h."actor_type" WHEN 'api_key' THEN 'API_KEY' ELSE 'USER' END,
	"initiated_by_user_id" = CASE h."actor_type" WHEN 'user' THEN h."actor_id"::uuid ELSE k."created_by_user_id" END,
	"initiated_by_key_id" = CASE h."actor_type" WHEN 'api_key' THEN h."actor_id" END
FROM "transaction_status_history" AS h
LEFT JOIN "api_keys" AS k ON h."actor_type" = 'api_key' AND k."key_id" = h."actor_id"
WHERE h."transaction_id" = t."id" AND h."from_status" IS NULL
	AND ((h."actor_type" = 'api_key' AND k."id" IS NOT NULL)
		OR (h."actor_type" = 'user' AND h."actor_id" ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'));
