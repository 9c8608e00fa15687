ALTER TABLE "usage_buckets" ADD COLUMN "shard" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "usage_buckets" DROP CONSTRAINT "usage_buckets_tenant_id_scope_scope_id_asset_id_hour_pk";--> statement-breakpoint
ALTER TABLE "usage_buckets" ADD CONSTRAINT "usage_buckets_tenant_id_scope_scope_id_asset_id_hour_shard_pk" PRIMARY KEY("tenant_id","scope","scope_id","asset_id","hour","shard");
