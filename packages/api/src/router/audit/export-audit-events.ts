import { auditRowHash, exportAuditLog, type AuditChainFields } from "@qc/core";
import { z } from "zod";
import { EXAMPLE } from "../../openapi-examples";
import { ndjsonLines } from "../../schemas/ndjson";
import { timestamp } from "../../schemas/common";
import { authedProcedure } from "../../trpc";

const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/);
const sequence = z.number().int().min(1);

const eventLine = z.object({
  kind: z.literal("event"),
  id: z.uuid(),
  tenantId: z.uuid(),
  sequence,
  occurredAt: timestamp,
  action: z.string(),
  actor: z.object({
    type: z.string(),
    id: z.string().nullable(),
    userId: z.string().nullable(),
    ip: z.string().nullable(),
    requestId: z.string().nullable(),
  }),
  target: z.object({ type: z.string().nullable(), id: z.string().nullable() }).nullable(),
  details: z.record(z.string(), z.unknown()),
  prevHash: sha256Hex.meta({ description: "the previous row's hash; 64 zeros for the first row" }),
  hash: sha256Hex.meta({
    description: "SHA-256 (hex) of the RFC 8785 JSON of tenantId, sequence, occurredAt, action, actor, target, details and prevHash",
  }),
});

const checkpointLine = z.object({
  kind: z.literal("checkpoint"),
  tenantId: z.uuid(),
  sequence: sequence.meta({ description: "the row this checkpoint signs the chain up to (the line before it)" }),
  hash: sha256Hex.meta({ description: "that row's hash" }),
  signedAt: timestamp,
  keyId: z.string().meta({ description: "the audit key that signed it (GET /v1/audit/public-key)" }),
  signature: z.string().meta({
    description:
      "ML-DSA-87 signature (hex), context QUANTUM-AUDIT-v1, over keccak256 of the RFC 8785 JSON of {tenantId, sequence, hash, signedAt}",
  }),
});

/** One line of the export. */
export const auditExportLine = z.discriminatedUnion("kind", [eventLine, checkpointLine]);

const exampleRow: AuditChainFields = {
  tenantId: EXAMPLE.tenantId,
  sequence: 1,
  occurredAt: EXAMPLE.createdAt,
  action: "vault.created",
  actor: { type: "api_key", id: EXAMPLE.keyId, userId: EXAMPLE.userId, ip: "203.0.113.7", requestId: "order-7f3a-attempt-1" },
  target: { type: "vault", id: EXAMPLE.vaultId },
  details: { name: "Treasury", networkCode: "QUANTUM_SANDBOX" },
  prevHash: "0".repeat(64),
};
const exampleHash = auditRowHash(exampleRow);

export const exportAuditEventsProcedure = authedProcedure
  .meta({
    scope: "admin",
    action: "read",
    openapi: {
      method: "GET",
      path: "/v1/audit-events/export",
      tags: ["audit"],
      summary: "Export the audit log",
      description:
        "The tenant's audit log as NDJSON (`application/x-ndjson`), oldest first, for offline verification: one " +
        '`{"kind":"event",…}` line per row, in `sequence` order without gaps, each with the `prevHash` of the row ' +
        'before and its own `hash`; after the row a checkpoint covers, a `{"kind":"checkpoint",…}` line with the ' +
        "service's ML-DSA-87 signature. The chain is sealed and its head signed when the export starts, so a full " +
        "export ends on a checkpoint; `fromSequence` and `toSequence` (inclusive) export a part. The answer is " +
        "streamed: read it line by line. Verify it with the SDK's `verifyAuditLog` or `./qc audit verify`, with the " +
        "key from `GET /v1/audit/public-key`.",
      protect: true,
    },
    example: {
      input: { fromSequence: 1, toSequence: 1 },
      output: [
        { kind: "event", id: EXAMPLE.auditEventId, ...exampleRow, hash: exampleHash },
        {
          kind: "checkpoint",
          tenantId: EXAMPLE.tenantId,
          sequence: 1,
          hash: exampleHash,
          signedAt: EXAMPLE.createdAt,
          keyId: "qcak_3f9a0c1d2e4b5a69",
          signature: "0x4f1c9a…",
        },
      ],
    },
  })
  .input(
    z
      .object({
        fromSequence: sequence.optional().meta({ description: "the first row to export (default 1)" }),
        toSequence: sequence.optional().meta({ description: "the last row to export (default: the head signed when the export starts)" }),
      })
      .refine((range) => (range.fromSequence ?? 1) <= (range.toSequence ?? Number.MAX_SAFE_INTEGER), {
        message: "fromSequence must not be after toSequence",
        path: ["toSequence"],
      }),
  )
  .output(ndjsonLines(auditExportLine))
  .query(async ({ ctx, input }) => exportAuditLog(ctx.deps, { tenantId: ctx.auth.tenantId, ...input }));
