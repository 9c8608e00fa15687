import { listAuditEvents } from "@qc/core";
import { z } from "zod";
import { pageInfo, pageQuery, text, timestamp } from "../../schemas/common";
import { authedProcedure } from "../../trpc";
import { EXAMPLE } from "../../openapi-examples";

const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/);

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
  sequence: z.number().int().min(1).meta({ description: "the row's place in the tenant's hash chain: 1, 2, 3, … without gaps" }),
  prevHash: sha256Hex.meta({ description: "the previous row's hash; 64 zeros for the first row" }),
  hash: sha256Hex.meta({
    description: "SHA-256 (hex) of the RFC 8785 JSON of tenantId, sequence, occurredAt, action, actor, target, details and prevHash",
  }),
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
        "cursor is 400. Each event carries its place in the tenant's hash chain (`sequence`, `prevHash`, `hash`); " +
        "the chain is sealed before listing, and a row written meanwhile appears on the next call.",
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
            sequence: 42,
            prevHash: "8c1f4e2a9b3d7c605e1a2f8b4d9c3e7a1b5f0d2c6e8a4b9d3f7c1e5a2b8d4f6c",
            hash: "2b7e9d4c1a8f3e6b5d0c9a2f7e4b1d8c3a6f9e2b5d8c1a4f7e0b3d6c9a2e5f8b",
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
