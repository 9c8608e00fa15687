CREATE TABLE "usage_buckets" (
	"tenant_id" uuid NOT NULL,
	"scope" text NOT NULL,
	"scope_id" uuid NOT NULL,
	"asset_id" uuid NOT NULL,
	"hour" timestamp (3) with time zone NOT NULL,
	"count" integer NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	CONSTRAINT "usage_buckets_tenant_id_scope_scope_id_asset_id_hour_pk" PRIMARY KEY("tenant_id","scope","scope_id","asset_id","hour"),
	CONSTRAINT "usage_buckets_scope_known" CHECK ("usage_buckets"."scope" in ('TENANT', 'VAULT', 'WALLET')),
	CONSTRAINT "usage_buckets_hour_start" CHECK ("usage_buckets"."hour" = date_trunc('hour', "usage_buckets"."hour", 'UTC'))
);
--> statement-breakpoint
ALTER TABLE "usage_buckets" ADD CONSTRAINT "usage_buckets_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- The usage of the transactions already stored, as the create and the transitions keep it from
-- now on (packages/db/src/queries/usage.ts): every transaction that has not ended without moving
-- value counts once in its creation hour, for the tenant (every asset, and its asset), its source
-- wallet and the vault the wallet is placed in on its network; a row without an asset (a contract
-- deployment) only in the tenant's every-asset count.
INSERT INTO "usage_buckets" ("tenant_id", "scope", "scope_id", "asset_id", "hour", "count", "amount")
SELECT t."tenant_id", s."scope", s."scope_id", s."asset_id", date_trunc('hour', t."created_at", 'UTC'), count(*)::int, sum(s."amount")
FROM "transactions" t
LEFT JOIN "wallet_network_links" l
  ON l."tenant_id" = t."tenant_id" AND l."wallet_id" = t."source_wallet_id" AND l."network_code" = t."network_code"
CROSS JOIN LATERAL (VALUES
  ('TENANT', t."tenant_id", '00000000-0000-0000-0000-000000000000'::uuid, 0::numeric),
  ('TENANT', t."tenant_id", t."asset_id", t."amount"),
  ('VAULT', l."vault_id", t."asset_id", t."amount"),
  ('WALLET', t."source_wallet_id", t."asset_id", t."amount")
) AS s ("scope", "scope_id", "asset_id", "amount")
WHERE t."status" NOT IN ('BLOCKED', 'REJECTED', 'CANCELLED', 'EXPIRED', 'FAILED')
  AND s."scope_id" IS NOT NULL AND s."asset_id" IS NOT NULL
GROUP BY 1, 2, 3, 4, 5;
