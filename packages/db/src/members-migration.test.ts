import { readFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { migrationsFolder } from "./migrate";
import { createEmptyDatabase } from "./testing";

/** Runs one shipped migration file statement by statement, as drizzle's migrator splits it. */
async function apply(client: pg.Client, file: string): Promise<void> {
  for (const statement of readFileSync(join(migrationsFolder, file), "utf8").split("--> statement-breakpoint"))
    if (statement.trim()) await client.query(statement);
}

describe("migration 0004 (members and roles) on a database with tenants", () => {
  it("makes every existing user an OWNER and gives every key its tenant's earliest user", async () => {
    const empty = await createEmptyDatabase();
    const client = new pg.Client({ connectionString: empty.url });
    await client.connect();
    try {
      for (const file of ["0000_init.sql", "0001_audit_append_only.sql", "0002_seed_native_assets.sql", "0003_event_outbox_notify.sql"])
        await apply(client, file);
      // Rows as the service wrote them before 0004: text roles (signup wrote ADMIN), keys without a creator.
      const tenant = (
        await client.query<{ id: string }>("insert into tenants (id, name) values (gen_random_uuid(), 'Old Org') returning id")
      ).rows[0]!.id;
      const user = async (email: string, createdAt: string) =>
        (
          await client.query<{ id: string }>(
            "insert into users (id, tenant_id, email, password_hash, role, created_at) values (gen_random_uuid(), $1, $2, 'x', 'ADMIN', $3) returning id",
            [tenant, email, createdAt],
          )
        ).rows[0]!.id;
      const second = await user("second@old.test", "2026-02-01T00:00:00Z");
      const first = await user("first@old.test", "2026-01-01T00:00:00Z");
      await client.query(
        "insert into api_keys (id, tenant_id, key_id, secret_hash, label) values (gen_random_uuid(), $1, 'qc_old_a', 'h', 'a')",
        [tenant],
      );
      await client.query(
        "insert into api_keys (id, tenant_id, key_id, secret_hash, label, created_by_user_id) values (gen_random_uuid(), $1, 'qc_old_b', 'h', 'b', $2)",
        [tenant, second],
      );
      const emptyTenant = (
        await client.query<{ id: string }>("insert into tenants (id, name) values (gen_random_uuid(), 'No Members') returning id")
      ).rows[0]!.id;
      await client.query(
        "insert into api_keys (id, tenant_id, key_id, secret_hash, label) values (gen_random_uuid(), $1, 'qc_old_c', 'h', 'c')",
        [emptyTenant],
      );

      await apply(client, "0004_members_and_roles.sql");

      const roles = await client.query<{ email: string; role: string }>("select email, role::text as role from users order by email");
      expect(roles.rows).toEqual([
        { email: "first@old.test", role: "OWNER" },
        { email: "second@old.test", role: "OWNER" },
      ]);
      const keys = await client.query<{ key_id: string; created_by_user_id: string | null }>(
        "select key_id, created_by_user_id from api_keys order by key_id",
      );
      expect(keys.rows).toEqual([
        { key_id: "qc_old_a", created_by_user_id: first },
        { key_id: "qc_old_b", created_by_user_id: second },
        { key_id: "qc_old_c", created_by_user_id: null },
      ]);
      await expect(
        client.query(
          "insert into api_keys (id, tenant_id, key_id, secret_hash, label, created_by_user_id) values (gen_random_uuid(), $1, 'qc_x', 'h', 'x', $1)",
          [tenant],
        ),
      ).rejects.toMatchObject({ code: "23503" });
      await expect(
        client.query(
          "insert into users (id, tenant_id, email, password_hash, role) values (gen_random_uuid(), $1, 'x@old.test', 'x', 'SUPERUSER')",
          [tenant],
        ),
      ).rejects.toMatchObject({ code: "22P02" });
    } finally {
      await client.end();
      await empty.drop();
    }
  });
});
