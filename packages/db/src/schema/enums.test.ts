import {
  ACCOUNT_TYPES,
  APPROVAL_DECISIONS,
  ASSET_KINDS,
  KYC_STATUSES,
  MEMBER_ROLES,
  STORED_ADDRESS_BOOK_ENTRY_STATUSES,
  STORED_API_KEY_STATUSES,
  STORED_INVITATION_STATUSES,
  TENANT_STATUSES,
  TRANSACTION_STATUSES,
  TRANSACTION_SUB_STATUSES,
  TRANSACTION_TYPES,
  TRANSACTION_DIRECTIONS,
  USER_STATUSES,
  VAULT_STATUSES,
  WALLET_STATUSES,
  WALLET_TYPES,
  WEBHOOK_DELIVERY_STATUSES,
  WEBHOOK_ENDPOINT_STATUSES,
} from "@qc/domain";
import { sql } from "drizzle-orm";
import { isPgEnum, type PgEnum } from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";
import { useTestDatabase } from "../testing";
import * as schema from "./index";

const pgEnums: PgEnum<[string, ...string[]]>[] = Object.values(schema as Record<string, unknown>).filter((value) => isPgEnum(value));

/**
 * The tuple of @qc/domain each enum of the schema is built from, by its PostgreSQL name; every
 * enum but `network_code`, whose codes are @qc/chain's (packages/core/src/assets/native-assets.test.ts).
 */
const DOMAIN: Record<string, readonly string[]> = {
  transaction_status: TRANSACTION_STATUSES,
  transaction_sub_status: TRANSACTION_SUB_STATUSES,
  transaction_type: TRANSACTION_TYPES,
  transaction_direction: TRANSACTION_DIRECTIONS,
  vault_status: VAULT_STATUSES,
  wallet_status: WALLET_STATUSES,
  wallet_type: WALLET_TYPES,
  asset_kind: ASSET_KINDS,
  tenant_status: TENANT_STATUSES,
  account_type: ACCOUNT_TYPES,
  user_status: USER_STATUSES,
  kyc_status: KYC_STATUSES,
  member_role: MEMBER_ROLES,
  api_key_status: STORED_API_KEY_STATUSES,
  invitation_status: STORED_INVITATION_STATUSES,
  webhook_endpoint_status: WEBHOOK_ENDPOINT_STATUSES,
  webhook_delivery_status: WEBHOOK_DELIVERY_STATUSES,
  approval_decision: APPROVAL_DECISIONS,
  address_book_entry_status: STORED_ADDRESS_BOOK_ENTRY_STATUSES,
};

describe("the PostgreSQL enums", () => {
  const t = useTestDatabase();

  it("are @qc/domain's tuples, value for value and in order", () => {
    expect(Object.fromEntries(pgEnums.filter((e) => e.enumName !== "network_code").map((e) => [e.enumName, e.enumValues]))).toEqual(DOMAIN);
  });

  it("in the migrated database are the schema's, so no value was added without a migration", async () => {
    const { rows } = await t.db.execute<{ name: string; labels: string[] }>(
      sql`select t.typname as name, array_agg(e.enumlabel order by e.enumsortorder)::text[] as labels
          from pg_type t join pg_enum e on e.enumtypid = t.oid join pg_namespace n on n.oid = t.typnamespace
          where n.nspname = 'public' group by t.typname`,
    );
    expect(Object.fromEntries(rows.map((row) => [row.name, row.labels]))).toEqual(
      Object.fromEntries(pgEnums.map((e) => [e.enumName, e.enumValues])),
    );
  });
});
