import pg from "pg";
import { describe, expect, it } from "vitest";
import { EVERY_ASSET } from "./schema/usage";
import { createEmptyDatabase } from "./testing";
import { applyMigrationFiles, migrationFilesBefore } from "./testing/migration-files";

const USAGE_BUCKETS = "0010_usage_buckets.sql";
const NATIVE_SANDBOX = "011620ab-6fee-5894-b105-6c22053cf11e";

describe("migration 0010 (usage buckets) on a deployment with transactions", () => {
  it("fills each hour's buckets with the transactions that have not ended without moving value, per scope and asset", async () => {
    const empty = await createEmptyDatabase();
    const client = new pg.Client({ connectionString: empty.url });
    await client.connect();
    try {
      const earlier = migrationFilesBefore(USAGE_BUCKETS);
      expect(earlier.at(-1)).toBe("0009_address_book.sql");
      await applyMigrationFiles(client, earlier);
      const one = async (text: string, values: unknown[] = []) => (await client.query<{ id: string }>(text, values)).rows[0]!.id;
      const tenant = await one("insert into tenants (id, name) values (gen_random_uuid(), 'Acme') returning id");
      const vault = await one(
        "insert into vaults (id, tenant_id, network_code, name) values (gen_random_uuid(), $1, 'QUANTUM_SANDBOX', 'Treasury') returning id",
        [tenant],
      );
      const wallet = async (address: string, placed: boolean) => {
        const id = await one(
          "insert into wallets (id, tenant_id, vault_id, type, address, public_key) values (gen_random_uuid(), $1, $2, 'REGISTERED', $3, '0xab') returning id",
          [tenant, vault, address],
        );
        if (placed)
          await client.query(
            "insert into wallet_network_links (id, tenant_id, wallet_id, network_code, vault_id) values (gen_random_uuid(), $1, $2, 'QUANTUM_SANDBOX', $3)",
            [tenant, id, vault],
          );
        return id;
      };
      const placed = await wallet(`0x${"1".repeat(40)}`, true);
      // A wallet without a placement on the network: no vault row for its transactions.
      const unplaced = await wallet(`0x${"2".repeat(40)}`, false);
      const transaction = (source: string, status: string, amount: string, createdAt: string, assetId: string | null = NATIVE_SANDBOX) =>
        client.query(
          `insert into transactions (id, tenant_id, type, network_code, chain_id, source_wallet_id, source_address, asset_id, amount, status,
             required_confirmations, template_id, constructor_args, created_at)
           values (gen_random_uuid(), $1, $2, 'QUANTUM_SANDBOX', 20804, $3, $4, $5, $6, $7, 1, $8, $9, $10)`,
          [
            tenant,
            assetId ? "TRANSFER" : "CONTRACT_DEPLOY",
            source,
            source === placed ? `0x${"1".repeat(40)}` : `0x${"2".repeat(40)}`,
            assetId,
            amount,
            status,
            assetId ? null : "erc20",
            assetId ? null : "{}",
            createdAt,
          ],
        );
      await transaction(placed, "COMPLETED", "100", "2026-11-25T10:00:00.000Z");
      await transaction(placed, "PENDING_SIGNATURE", "20", "2026-11-25T10:59:59.999Z");
      await transaction(placed, "SUBMITTED", "3", "2026-11-25T11:00:00.000Z");
      await transaction(unplaced, "QUEUED", "4000", "2026-11-25T11:30:00.000Z");
      // Ended without moving value: not counted.
      for (const status of ["BLOCKED", "REJECTED", "CANCELLED", "EXPIRED", "FAILED"])
        await transaction(placed, status, "50000", "2026-11-25T10:30:00.000Z");
      // A contract deployment: the tenant's every-asset count only.
      await transaction(placed, "CONFIRMING", "0", "2026-11-25T11:45:00.000Z", null);

      await applyMigrationFiles(client, [USAGE_BUCKETS]);

      const { rows } = await client.query<{ scope: string; scope_id: string; asset_id: string; hour: Date; count: number; amount: string }>(
        "select scope, scope_id, asset_id, hour, count, amount::text from usage_buckets order by scope, scope_id, asset_id, hour",
      );
      const ten = new Date("2026-11-25T10:00:00.000Z");
      const eleven = new Date("2026-11-25T11:00:00.000Z");
      const expected = [
        { scope: "TENANT", scope_id: tenant, asset_id: EVERY_ASSET, hour: ten, count: 2, amount: "0" },
        { scope: "TENANT", scope_id: tenant, asset_id: EVERY_ASSET, hour: eleven, count: 3, amount: "0" },
        { scope: "TENANT", scope_id: tenant, asset_id: NATIVE_SANDBOX, hour: ten, count: 2, amount: "120" },
        { scope: "TENANT", scope_id: tenant, asset_id: NATIVE_SANDBOX, hour: eleven, count: 2, amount: "4003" },
        { scope: "VAULT", scope_id: vault, asset_id: NATIVE_SANDBOX, hour: ten, count: 2, amount: "120" },
        { scope: "VAULT", scope_id: vault, asset_id: NATIVE_SANDBOX, hour: eleven, count: 1, amount: "3" },
        ...[
          { scope: "WALLET", scope_id: placed, asset_id: NATIVE_SANDBOX, hour: ten, count: 2, amount: "120" },
          { scope: "WALLET", scope_id: placed, asset_id: NATIVE_SANDBOX, hour: eleven, count: 1, amount: "3" },
          { scope: "WALLET", scope_id: unplaced, asset_id: NATIVE_SANDBOX, hour: eleven, count: 1, amount: "4000" },
        ].sort((a, b) => (a.scope_id < b.scope_id ? -1 : 1)),
      ];
      expect(rows).toEqual(expected);
    } finally {
      await client.end();
      await empty.drop();
    }
  });
});
