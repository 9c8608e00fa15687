import { schema, sql } from "@qc/db";
import { useTestDatabase } from "@qc/db/testing";
import {
  TRANSACTION_STATUSES,
  TRANSACTION_SUB_STATUSES,
  TRANSACTION_TYPES,
  VAULT_STATUSES,
  WALLET_STATUSES,
  WALLET_TYPES,
} from "@qc/domain";
import { describe, expect, it } from "vitest";

// One vocabulary (docs/decisions/foundation.md): each PostgreSQL enum holds @qc/domain's words, in
// its order, both in the drizzle schema and in the database the migrations build.
const MIRRORS = [
  [schema.transactionStatus, TRANSACTION_STATUSES],
  [schema.transactionSubStatus, TRANSACTION_SUB_STATUSES],
  [schema.transactionType, TRANSACTION_TYPES],
  [schema.vaultStatus, VAULT_STATUSES],
  [schema.walletStatus, WALLET_STATUSES],
  [schema.walletType, WALLET_TYPES],
] as const;

describe("the PostgreSQL enums and @qc/domain", () => {
  const t = useTestDatabase();

  it.each(MIRRORS.map(([pgEnum, words]) => [pgEnum.enumName, pgEnum, words] as const))(
    "%s holds the domain's words",
    async (name, pgEnum, words) => {
      expect([...pgEnum.enumValues]).toEqual([...words]);
      const result = await t.db.execute<{ label: string }>(
        sql`select e.enumlabel as label from pg_enum e join pg_type ty on ty.oid = e.enumtypid where ty.typname = ${name} order by e.enumsortorder`,
      );
      expect(result.rows.map((row) => row.label)).toEqual([...words]);
    },
  );
});
