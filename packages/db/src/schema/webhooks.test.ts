import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { useTestDatabase } from "../testing";
import { tenants } from "./identity";
import { webhookDeliveries, webhookDeliveryAttempts, webhookEndpoints } from "./webhooks";

describe("webhook storage", () => {
  const t = useTestDatabase();

  async function endpoint() {
    const [tenant] = await t.db.insert(tenants).values({ name: "Webhook Tenant" }).returning();
    const [row] = await t.db
      .insert(webhookEndpoints)
      .values({ tenantId: tenant!.id, url: "https://hooks.example.com/qc", secretCiphertext: "v1.0123456789ab.nonce.sealed" })
      .returning();
    return row!;
  }

  it("stores an endpoint enabled, for every event type, with no secret in the clear", async () => {
    const row = await endpoint();
    expect(row).toMatchObject({ status: "ENABLED", eventTypes: [], disabledReason: null, failingSince: null, deletedAt: null });
    expect(row.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7/);
  });

  it("never creates two deliveries of one event to one endpoint", async () => {
    const row = await endpoint();
    const eventId = "0194f2c4-0000-7000-8000-00000000e001";
    const delivery = { tenantId: row.tenantId, endpointId: row.id, eventId, eventType: "webhook.test", nextAttemptAt: new Date() };
    const first = await t.db.insert(webhookDeliveries).values(delivery).onConflictDoNothing().returning();
    const again = await t.db.insert(webhookDeliveries).values(delivery).onConflictDoNothing().returning();
    expect(first).toHaveLength(1);
    expect(again).toHaveLength(0);
    await expect(t.db.insert(webhookDeliveries).values(delivery)).rejects.toMatchObject({ cause: { code: "23505" } });
    const rows = await t.db
      .select()
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.endpointId, row.id), eq(webhookDeliveries.eventId, eventId)));
    expect(rows).toHaveLength(1);

    await t.db.insert(webhookDeliveryAttempts).values({
      tenantId: row.tenantId,
      deliveryId: first[0]!.id,
      statusCode: 503,
      durationMs: 42,
      responseExcerpt: "busy",
      error: "HTTP 503",
    });
    const attempts = await t.db.select().from(webhookDeliveryAttempts).where(eq(webhookDeliveryAttempts.deliveryId, first[0]!.id));
    expect(attempts).toMatchObject([{ statusCode: 503, durationMs: 42, error: "HTTP 503" }]);
  });

  it("refuses inconsistent rows", async () => {
    const row = await endpoint();
    const violation = { cause: { code: "23514" } };
    await expect(t.db.update(webhookEndpoints).set({ status: "DISABLED" }).where(eq(webhookEndpoints.id, row.id))).rejects.toMatchObject(
      violation,
    );
    await expect(
      t.db.update(webhookEndpoints).set({ disabledReason: "GONE" }).where(eq(webhookEndpoints.id, row.id)),
    ).rejects.toMatchObject(violation);
    await expect(
      t.db.update(webhookEndpoints).set({ previousSecretCiphertext: "v1.x.y.z" }).where(eq(webhookEndpoints.id, row.id)),
    ).rejects.toMatchObject(violation);
    await expect(
      t.db.update(webhookEndpoints).set({ url: "ftp://hooks.example.com" }).where(eq(webhookEndpoints.id, row.id)),
    ).rejects.toMatchObject(violation);
    await t.db
      .update(webhookEndpoints)
      .set({ status: "DISABLED", disabledReason: "GONE", disabledAt: new Date() })
      .where(eq(webhookEndpoints.id, row.id));

    const pendingWithoutTime = {
      tenantId: row.tenantId,
      endpointId: row.id,
      eventId: "0194f2c4-0000-7000-8000-00000000e002",
      eventType: "webhook.test",
    };
    await expect(t.db.insert(webhookDeliveries).values(pendingWithoutTime)).rejects.toMatchObject(violation);
    await t.db.insert(webhookDeliveries).values({ ...pendingWithoutTime, status: "DISABLED" });
  });
});
