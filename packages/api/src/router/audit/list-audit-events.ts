import { listAuditEvents } from "@qc/core";
import { z } from "zod";
import { pageInfo, pageQuery, timestamp } from "../../schemas/common";
import { authedProcedure } from "../../trpc";

const auditEvent = z.object({
  id: z.uuid(),
  action: z.string(),
  actorType: z.string(),
  actorId: z.string().nullable(),
  targetType: z.string().nullable(),
  targetId: z.string().nullable(),
  requestId: z.string().nullable(),
  ip: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
  createdAt: timestamp,
});

export const listAuditEventsProcedure = authedProcedure
  .meta({ scope: "admin", openapi: { method: "GET", path: "/v1/audit-events", tags: ["audit"], summary: "The tenant's append-only audit trail, newest first", protect: true } })
  .input(pageQuery.extend({ action: z.string().max(100).optional() }))
  .output(z.object({ events: z.array(auditEvent), page: pageInfo }))
  .query(async ({ ctx, input }) => {
    return listAuditEvents(ctx.deps.database.db, { tenantId: ctx.auth.tenantId, ...input });
  });
