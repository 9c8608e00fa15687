import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { createDatabase } from "./client";
import { migrationsFolder } from "./migrate";
import { findRequireOperatorPasskey, updateRequireOperatorPasskey } from "./queries";
import { createEmptyDatabase } from "./testing";

const OPERATOR_PASSKEYS = "0007_operator_passkeys.sql";

/** Runs shipped migration files statement by statement, as drizzle's migrator splits them. */
async function applyFiles(client: pg.Client, files: string[]): Promise<void> {
  for (const file of files)
    for (const statement of readFileSync(join(migrationsFolder, file), "utf8").split("--> statement-breakpoint"))
      if (statement.trim()) await client.query(statement);
}

describe("migration 0007 (operators' passkeys) on a deployment with operators", () => {
  it("leaves operators and their sessions as they were, requires no passkey, and holds one settings row at most", async () => {
    const empty = await createEmptyDatabase();
    const client = new pg.Client({ connectionString: empty.url });
    await client.connect();
    const database = createDatabase({ url: empty.url, applicationName: "qc-operator-passkeys-migration-test" });
    try {
      const earlier = readdirSync(migrationsFolder)
        .filter((file) => file.endsWith(".sql") && file < OPERATOR_PASSKEYS)
        .sort();
      expect(earlier.at(-1)).toBe("0006_passkeys.sql");
      await applyFiles(client, earlier);
      // An operator made by the command line before 0007, logged in.
      const operator = (
        await client.query<{ id: string }>(
          "insert into operators (id, email, password_hash) values (gen_random_uuid(), 'ops@deploy.test', 'x') returning id",
        )
      ).rows[0]!.id;
      await client.query(
        "insert into operator_sessions (id, operator_id, token_hash, expires_at, last_seen_at) values (gen_random_uuid(), $1, 'h', now() + interval '1 hour', now())",
        [operator],
      );

      await applyFiles(client, [OPERATOR_PASSKEYS]);

      expect((await client.query("select email from operators")).rows).toEqual([{ email: "ops@deploy.test" }]);
      expect((await client.query("select count(*)::int as n from operator_sessions where revoked_at is null")).rows).toEqual([{ n: 1 }]);
      // No settings row yet: an upgraded deployment's console logins need no passkey until an operator requires one.
      expect((await client.query("select count(*)::int as n from operator_settings")).rows).toEqual([{ n: 0 }]);
      expect(await findRequireOperatorPasskey(database.db)).toBe(false);
      expect(await updateRequireOperatorPasskey(database.db, { value: true, updatedAt: new Date() })).toEqual({ before: false });
      expect(await findRequireOperatorPasskey(database.db)).toBe(true);
      // One row: a second is refused by the key, and any other id by the check.
      await expect(client.query("insert into operator_settings (id) values (true)")).rejects.toMatchObject({ code: "23505" });
      await expect(client.query("insert into operator_settings (id) values (false)")).rejects.toMatchObject({ code: "23514" });

      // The existing operator can own passkeys and challenges; nobody else can.
      const passkey =
        "insert into operator_passkeys (id, operator_id, credential_id, public_key, name) values (gen_random_uuid(), $1, $2, 'pk', 'key')";
      await client.query(passkey, [operator, "cred-1"]);
      expect((await client.query("select counter, transports, last_used_at from operator_passkeys")).rows).toEqual([
        { counter: "0", transports: [], last_used_at: null },
      ]);
      await expect(client.query(passkey, [operator, "cred-1"])).rejects.toMatchObject({ code: "23505" });
      await expect(client.query(passkey, ["00000000-0000-4000-8000-000000000000", "cred-2"])).rejects.toMatchObject({ code: "23503" });
      const challenge =
        "insert into operator_webauthn_challenges (id, operator_id, purpose, challenge, expires_at) values (gen_random_uuid(), $1, $2, 'c', now())";
      await client.query(challenge, [operator, "LOGIN"]);
      await client.query(challenge, [operator, "REGISTER"]);
      await expect(client.query(challenge, [operator, "RESET"])).rejects.toMatchObject({ code: "23514" });
    } finally {
      await database.close();
      await client.end();
      await empty.drop();
    }
  });
});
