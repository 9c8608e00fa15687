import { listAuditEvents } from "@qc/core";
import { z } from "zod";
import { pageInfo, pageQuery, text, timestamp } from "../../schemas/common";
import { authedProcedure } from "../../trpc";
import { EXAMPLE } from "../../openapi-examples";

const auditEvent = z.object({
  id: z.uuid(),
  action: z.string(),
  actorType: z.string(),
  actorId: z.string().nullable(),
  actorUserId: z.uuid().nullable().meta({ description: "the member the actor acted for: the user, or the member who created the API key" }),
  targetType: z.string().nullable(),
  targetId: z.string().nullable(),
  requestId: z.string().nullable(),
  ip: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
  createdAt: timestamp,
});

export const listAuditEventsProcedure = authedProcedure
  .meta({
    scope: "admin",
    action: "read",
    openapi: {
      method: "GET",
      path: "/v1/audit-events",
      tags: ["audit"],
      summary: "List audit events",
      description:
        "The tenant's append-only audit trail, newest first: authentication failures, credential, allowlist and " +
        "custody changes, rejected request bodies. `action` filters on one action. Paginate with `cursor`; an invalid " +
        "cursor is 400.",
      protect: true,
    },
    example: {
      input: { limit: 1, action: "vault.created" },
      output: {
        events: [
          {
            id: EXAMPLE.auditEventId,
            action: "vault.created",
            actorType: "api_key",
            actorId: EXAMPLE.keyId,
            actorUserId: EXAMPLE.userId,
            targetType: "vault",
            targetId: EXAMPLE.vaultId,
            requestId: "order-7f3a-attempt-1",
            ip: "203.0.113.7",
            details: { name: "Treasury", networkCode: "QUANTUM_SANDBOX" },
            createdAt: EXAMPLE.createdAt,
          },
        ],
        page: { nextCursor: "MDE5NGYyYzQtYWQ0My03MDUxLTljNmQtNGU1ZjYwNzE4Mjkz", hasMore: true },
      },
    },
  })
  .input(pageQuery.extend({ action: text().max(100).optional() }))
  .output(z.object({ events: z.array(auditEvent), page: pageInfo }))
  .query(async ({ ctx, input }) => {
    return listAuditEvents(ctx.deps.database.db, { tenantId: ctx.auth.tenantId, ...input });
  });
