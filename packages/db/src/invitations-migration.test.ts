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

describe("migration 0005 (invitations, removal) on a database with tenants", () => {
  it("keeps every key with a creator, drops those without one, and then requires a creator", async () => {
    const empty = await createEmptyDatabase();
    const client = new pg.Client({ connectionString: empty.url });
    await client.connect();
    try {
      for (const file of [
        "0000_init.sql",
        "0001_audit_append_only.sql",
        "0002_seed_native_assets.sql",
        "0003_event_outbox_notify.sql",
        "0004_members_and_roles.sql",
      ])
        await apply(client, file);
      const tenant = (await client.query<{ id: string }>("insert into tenants (id, name) values (gen_random_uuid(), 'Org') returning id"))
        .rows[0]!.id;
      const user = (
        await client.query<{ id: string }>(
          "insert into users (id, tenant_id, email, password_hash, role) values (gen_random_uuid(), $1, 'owner@org.test', 'x', 'OWNER') returning id",
          [tenant],
        )
      ).rows[0]!.id;
      await client.query(
        "insert into api_keys (id, tenant_id, key_id, secret_hash, label, created_by_user_id) values (gen_random_uuid(), $1, 'qc_kept', 'h', 'a', $2)",
        [tenant, user],
      );
      // A tool's key in a tenant without members: 0004 could give it no creator, and no role allowed it anything since.
      const bare = (await client.query<{ id: string }>("insert into tenants (id, name) values (gen_random_uuid(), 'Bench') returning id"))
        .rows[0]!.id;
      await client.query(
        "insert into api_keys (id, tenant_id, key_id, secret_hash, label) values (gen_random_uuid(), $1, 'qc_tool', 'h', 'b')",
        [bare],
      );
      await client.query(
        "insert into audit_events (id, tenant_id, actor_type, actor_id, action) values (gen_random_uuid(), $1, 'user', $2, 'old')",
        [tenant, user],
      );

      await apply(client, "0005_members_invitations.sql");

      expect((await client.query("select key_id, created_by_user_id from api_keys order by key_id")).rows).toEqual([
        { key_id: "qc_kept", created_by_user_id: user },
      ]);
      await expect(
        client.query("insert into api_keys (id, tenant_id, key_id, secret_hash, label) values (gen_random_uuid(), $1, 'qc_x', 'h', 'x')", [
          tenant,
        ]),
      ).rejects.toMatchObject({ code: "23502" });
      // Old audit rows name no member; the column is there for new ones.
      expect((await client.query("select action, actor_user_id from audit_events")).rows).toEqual([{ action: "old", actor_user_id: null }]);
      await client.query("update users set status = 'REMOVED' where id = $1", [user]);
      await client.query(
        "insert into invitations (id, tenant_id, email, role, token_hash, expires_at) values (gen_random_uuid(), $1, 'new@org.test', 'VIEWER', 'h', now())",
        [tenant],
      );
      expect((await client.query("select status::text as status from invitations")).rows).toEqual([{ status: "PENDING" }]);
    } finally {
      await client.end();
      await empty.drop();
    }
  });
});
