import { and, eq, isNull, schema, type Database } from "@qc/db";
import { recordAuditEvent } from "../audit/record-audit-event";

/** Ends a dashboard session at once (revoked_at); idempotent. */
export async function logOut(
  deps: { db: Database; now(): Date },
  input: { sessionId: string; userId: string; tenantId: string; requestId?: string; ip?: string },
): Promise<{ status: "LOGGED_OUT" }> {
  await deps.db.transaction(async (tx) => {
    const revoked = await tx
      .update(schema.sessions)
      .set({ revokedAt: deps.now() })
      .where(and(eq(schema.sessions.id, input.sessionId), eq(schema.sessions.userId, input.userId), isNull(schema.sessions.revokedAt)))
      .returning({ id: schema.sessions.id });
    if (revoked.length === 0) return;
    await recordAuditEvent(tx, {
      action: "auth.logged_out",
      actorType: "user",
      actorId: input.userId,
      tenantId: input.tenantId,
      targetType: "session",
      targetId: input.sessionId,
      requestId: input.requestId,
      ip: input.ip,
    });
  });
  return { status: "LOGGED_OUT" };
}
