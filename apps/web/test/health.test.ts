import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createDatabase, runMigrations } from "@qc/db";
import { startEmbeddedPostgres } from "@qc/db/embedded";
import { createEmptyDatabase, freePort, useTestDatabase } from "@qc/db/testing";
import { createChainClients } from "@qc/core";
import { startTestDevnet } from "@qc/devnet/testing";
import { chainReadinessProbe } from "../src/health";
import { call, startTestServer } from "./harness";

describe("/healthz and /readyz", () => {
  const t = useTestDatabase();

  it("are 200 on a migrated database, without authentication", async () => {
    const server = await startTestServer({ database: t });
    try {
      const health = await call(server, "/healthz");
      expect(health.status).toBe(200);
      expect(health.json()).toEqual({ status: "ok" });
      const ready = await call(server, "/readyz");
      expect(ready.status).toBe(200);
      expect(ready.json()).toMatchObject({ status: "ready", checks: { database: { status: "ok" }, migrations: { status: "ok" } } });
    } finally {
      await server.close();
    }
  });

  it("/readyz is 503 when migrations are not applied", async () => {
    const empty = await createEmptyDatabase();
    const database = createDatabase({ url: empty.url });
    const server = await startTestServer({ database, databaseUrl: empty.url });
    try {
      const ready = await call(server, "/readyz");
      expect(ready.status).toBe(503);
      expect(ready.json()).toMatchObject({
        status: "not_ready",
        checks: { database: { status: "ok" }, migrations: { status: "fail", error: "migrations pending", applied: 0 } },
      });
    } finally {
      await server.close();
      await database.close();
      await empty.drop();
    }
  });

  it("reports each network's chain RPC in checks: a live devnet and an unreachable endpoint", async () => {
    const devnet = await startTestDevnet();
    const networks = ["QUANTUM_SANDBOX", "QUANTUM_MAINNET"] as const;
    const chain = createChainClients({ QUANTUM_SANDBOX: [devnet.url], QUANTUM_MAINNET: ["http://127.0.0.1:1"] });
    const server = await startTestServer({ database: t, readinessProbes: [chainReadinessProbe(chain, [...networks])] });
    try {
      await devnet.mine(3);
      const ready = await call(server, "/readyz");
      expect(ready.status).toBe(200);
      expect(ready.json().checks.QUANTUM_SANDBOX).toMatchObject({ status: "ok", blockNumber: 3 });
      expect(ready.json().checks.QUANTUM_MAINNET).toEqual({ status: "fail", error: "RPC unreachable" });
    } finally {
      await server.close();
      await devnet.close();
    }
  });

  it("/readyz names a generic reason for a failing check, never the driver's or a probe's message", async () => {
    // A migrations table the status query cannot read: PostgreSQL's message names the column.
    const empty = await createEmptyDatabase();
    const database = createDatabase({ url: empty.url });
    await database.query("create schema drizzle; create table drizzle.__drizzle_migrations (id serial primary key)");
    const server = await startTestServer({
      database,
      databaseUrl: empty.url,
      readinessProbes: [async () => Promise.reject(new Error('password authentication failed for user "qc_admin" at db.internal:5432'))],
    });
    try {
      const ready = await call(server, "/readyz");
      expect(ready.status).toBe(503);
      expect(ready.json().checks).toMatchObject({
        database: { status: "ok" },
        migrations: { status: "fail", error: "unavailable" },
        probe: { status: "fail", error: "unavailable" },
      });
      expect(ready.text).not.toMatch(/created_at|column|qc_admin|db\.internal|password/);
    } finally {
      await server.close();
      await database.close();
      await empty.drop();
    }
  });

  it("reports extra probes (chain RPC) without letting them decide readiness", async () => {
    const server = await startTestServer({
      database: t,
      readinessProbes: [async () => ({ QUANTUM_SANDBOX: { status: "fail", error: "rpc unreachable" } })],
    });
    try {
      const ready = await call(server, "/readyz");
      expect(ready.status).toBe(200);
      expect(ready.json().checks.QUANTUM_SANDBOX).toEqual({ status: "fail", error: "rpc unreachable" });
    } finally {
      await server.close();
    }
  });

  describe("with the database stopped", () => {
    const dir = mkdtempSync(join(tmpdir(), "qc-readyz-pg-"));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it("/readyz is 503 with the failing checks, /healthz stays 200, and both recover", async () => {
      const port = await freePort();
      let pg = await startEmbeddedPostgres({ dataDir: join(dir, "pg"), port, unsafeFast: true });
      await runMigrations(pg.url);
      const database = createDatabase({ url: pg.url });
      const server = await startTestServer({ database, databaseUrl: pg.url });
      try {
        expect((await call(server, "/readyz")).status).toBe(200);
        await pg.stop();
        const down = await call(server, "/readyz");
        expect(down.status).toBe(503);
        expect(down.json()).toMatchObject({ status: "not_ready", checks: { database: { status: "fail" } } });
        expect((await call(server, "/healthz")).status).toBe(200);
        pg = await startEmbeddedPostgres({ dataDir: join(dir, "pg"), port, unsafeFast: true });
        expect((await call(server, "/readyz")).status).toBe(200);
      } finally {
        await server.close();
        await database.close();
        await pg.stop();
      }
    });
  });
});
