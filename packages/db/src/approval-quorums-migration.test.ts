import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { migrationsFolder } from "./migrate";
import { createEmptyDatabase } from "./testing";

const APPROVAL_QUORUMS = "0008_approval_quorums.sql";

/** Runs shipped migration files statement by statement, as drizzle's migrator splits them. */
async function applyFiles(client: pg.Client, files: string[]): Promise<void> {
  for (const file of files)
    for (const statement of readFileSync(join(migrationsFolder, file), "utf8").split("--> statement-breakpoint"))
      if (statement.trim()) await client.query(statement);
}

describe("migration 0008 (approval quorums) on a deployment with transactions", () => {
  it("fills initiatedBy from each transaction's first history entry: the user, or the API key and its member; nothing it cannot tell", async () => {
    const empty = await createEmptyDatabase();
    const client = new pg.Client({ connectionString: empty.url });
    await client.connect();
    try {
      const earlier = readdirSync(migrationsFolder)
        .filter((file) => file.endsWith(".sql") && file < APPROVAL_QUORUMS)
        .sort();
      expect(earlier.at(-1)).toBe("0007_operator_passkeys.sql");
      await applyFiles(client, earlier);
      const one = async (text: string, values: unknown[] = []) => (await client.query<{ id: string }>(text, values)).rows[0]!.id;
      const tenant = await one("insert into tenants (id, name) values (gen_random_uuid(), 'Acme') returning id");
      const user = await one(
        "insert into users (id, tenant_id, email, password_hash, role) values (gen_random_uuid(), $1, 'owner@acme.test', 'x', 'OWNER') returning id",
        [tenant],
      );
      await client.query(
        "insert into api_keys (id, tenant_id, key_id, secret_hash, label, created_by_user_id) values (gen_random_uuid(), $1, 'qc_0123456789abcdef0123456789abcdef', 'h', 'ci', $2)",
        [tenant, user],
      );
      const vault = await one(
        "insert into vaults (id, tenant_id, network_code, name) values (gen_random_uuid(), $1, 'QUANTUM_SANDBOX', 'Treasury') returning id",
        [tenant],
      );
      const wallet = await one(
        "insert into wallets (id, tenant_id, vault_id, type, address) values (gen_random_uuid(), $1, $2, 'WATCH_ONLY', $3) returning id",
        [tenant, vault, `0x${"1".repeat(40)}`],
      );
      const created = async (actorType: string, actorId: string | null) => {
        const id = await one(
          "insert into transactions (id, tenant_id, network_code, chain_id, source_wallet_id, source_address, amount, required_confirmations) values (gen_random_uuid(), $1, 'QUANTUM_SANDBOX', 20804, $2, $3, 1, 1) returning id",
          [tenant, wallet, `0x${"1".repeat(40)}`],
        );
        await client.query(
          "insert into transaction_status_history (id, tenant_id, transaction_id, from_status, to_status, actor_type, actor_id) values (gen_random_uuid(), $1, $2, null, 'SUBMITTED', $3, $4)",
          [tenant, id, actorType, actorId],
        );
        // A later entry by someone else must not be taken for the creator.
        await client.query(
          "insert into transaction_status_history (id, tenant_id, transaction_id, from_status, to_status, actor_type, actor_id) values (gen_random_uuid(), $1, $2, 'SUBMITTED', 'QUEUED', 'system', 'transfers.check')",
          [tenant, id],
        );
        return id;
      };
      const byUser = await created("user", user);
      const byKey = await created("api_key", "qc_0123456789abcdef0123456789abcdef");
      const byUnknownKey = await created("api_key", "qc_ffffffffffffffffffffffffffffffff");
      const bySystem = await created("system", "fixture");

      await applyFiles(client, [APPROVAL_QUORUMS]);

      const { rows } = await client.query<{ id: string; type: string | null; user_id: string | null; key_id: string | null }>(
        "select id, initiated_by_type as type, initiated_by_user_id as user_id, initiated_by_key_id as key_id from transactions",
      );
      const byId = Object.fromEntries(rows.map(({ id, ...rest }) => [id, rest]));
      expect(byId[byUser]).toEqual({ type: "USER", user_id: user, key_id: null });
      expect(byId[byKey]).toEqual({ type: "API_KEY", user_id: user, key_id: "qc_0123456789abcdef0123456789abcdef" });
      expect(byId[byUnknownKey]).toEqual({ type: null, user_id: null, key_id: null });
      expect(byId[bySystem]).toEqual({ type: null, user_id: null, key_id: null });
      // The new words are in the enums, in the domain's order.
      const { rows: statuses } = await client.query<{ labels: string[] }>(
        "select array_agg(enumlabel order by enumsortorder)::text[] as labels from pg_enum e join pg_type t on t.oid = e.enumtypid where t.typname = 'transaction_status'",
      );
      expect(statuses[0]!.labels.slice(0, 3)).toEqual(["SUBMITTED", "AWAITING_APPROVAL", "QUEUED"]);
      // An ML-DSA-87 public key (2,592 bytes) is enrolled once: the unique index holds its hash, not the 5,186 characters.
      const approvalKey = "insert into approval_keys (id, tenant_id, user_id, public_key) values (gen_random_uuid(), $1, $2, $3)";
      const publicKey = `0x${"ab".repeat(2592)}`;
      await client.query(approvalKey, [tenant, user, publicKey]);
      await expect(client.query(approvalKey, [tenant, user, publicKey])).rejects.toMatchObject({ code: "23505" });
      await expect(client.query(approvalKey, [tenant, user, "0xab"])).rejects.toMatchObject({ code: "23514" });
      await expect(client.query("update transactions set initiated_by_type = 'SYSTEM' where id = $1", [bySystem])).rejects.toMatchObject({
        code: "23514",
      });
    } finally {
      await client.end();
      await empty.drop();
    }
  });
});
