import { AppError, createTransferBatch, ERROR_NAMES, errorBody, MAX_BATCH_ITEMS, type TransferBatchItem } from "@qc/core";
import { z } from "zod";
import { fieldErrorsFromZod } from "../../errors";
import { authedProcedure } from "../../trpc";
import { EXAMPLE_BATCH, EXAMPLE_CREATE_BATCH } from "./examples";
import { createTransferInput, transactionRecord } from "./schemas";

/**
 * One item: any JSON value, so that an invalid item is refused at its index instead of failing the
 * whole batch; each is validated with the single create's own schema (`batchItem` below). The
 * document shows it as that schema (the union's first member): what a valid item is.
 */
const batchItemInput = z.union([createTransferInput, z.unknown()]).meta({
  description: "a body of `POST /v1/transactions`; an invalid one is refused at its index, the others are created",
  override: ({ jsonSchema }) => {
    const [createBody] = (jsonSchema.anyOf ?? []) as Record<string, unknown>[];
    delete jsonSchema.anyOf;
    Object.assign(jsonSchema, createBody);
  },
});

/**
 * CONTRACT §2's error body, as a refused item carries it. The document refers to its one `Error`
 * schema (registered with the responses in openapi.ts) rather than repeating it here.
 */
const itemErrorBody = z
  .object({
    error: z.enum(ERROR_NAMES),
    code: z.number().int(),
    message: z.string(),
    requestId: z.string(),
    details: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({
    override: ({ jsonSchema }) => {
      for (const key of Object.keys(jsonSchema)) delete jsonSchema[key];
      jsonSchema.$ref = "#/components/schemas/Error";
    },
  });

const batchItemOutcome = z.union([
  z.object({ index: z.number().int().min(0), transaction: transactionRecord }).meta({ description: "the item's transfer, created" }),
  z
    .object({ index: z.number().int().min(0), error: itemErrorBody })
    .meta({ description: "the item refused: the error `POST /v1/transactions` answers for that body, nothing stored" }),
]);

/** A raw item as the single create would take it: its body, or the VALIDATION_FAILED that create would answer. */
function batchItem(raw: unknown): TransferBatchItem {
  const parsed = createTransferInput.safeParse(raw);
  if (parsed.success) return { ok: true, transfer: parsed.data };
  return {
    ok: false,
    error: new AppError("VALIDATION_FAILED", "request validation failed", { details: { fields: fieldErrorsFromZod(parsed.error) } }),
  };
}

export const createTransactionBatchProcedure = authedProcedure
  .meta({
    scope: "write",
    action: "transact",
    valueMoving: true,
    successStatus: 201,
    idempotencyKey: "required",
    openapi: {
      method: "POST",
      path: "/v1/transactions/batch",
      tags: ["transactions"],
      summary: "Create a batch of transfers",
      description:
        `1 to ${MAX_BATCH_ITEMS} transfer bodies under one \`X-Idempotency-Key\`. Each valid item becomes its own transfer, ` +
        "created in index order exactly as `POST /v1/transactions` creates one, with the batch's `batchId`; its checks (policy, " +
        "screening, quotas, approvals, balance) are its own, and its quota and usage count as one create each. An invalid item " +
        "is refused at its index with the error body the single create answers for it (`VALIDATION_FAILED`, `UNKNOWN_ASSET`, " +
        "`DUPLICATE_EXTERNAL_ID`, …) and stores nothing; the others are created. A replay with the same key and body answers the " +
        "same; another body with that key is 422 `IDEMPOTENCY_KEY_MISMATCH`. List the batch with `GET /v1/transactions?batchId=`.",
      protect: true,
    },
    errors: [],
    example: { input: EXAMPLE_CREATE_BATCH, output: EXAMPLE_BATCH },
  })
  .input(z.object({ items: z.array(batchItemInput).min(1).max(MAX_BATCH_ITEMS) }))
  .output(z.object({ batchId: z.uuid(), items: z.array(batchItemOutcome) }))
  .mutation(async ({ ctx, input }) => {
    const batch = await createTransferBatch(ctx.deps, {
      tenantId: ctx.auth.tenantId,
      actor: ctx.actor,
      items: input.items.map(batchItem),
    });
    return {
      batchId: batch.batchId,
      items: batch.items.map((item) =>
        "error" in item ? { index: item.index, error: errorBody(item.error, ctx.request.requestId) } : item,
      ),
    };
  });
