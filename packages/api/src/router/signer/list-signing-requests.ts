import { listSigningRequests } from "@qc/core";
import { z } from "zod";
import { EXAMPLE_LAST_PAGE } from "../../openapi-examples";
import { pageInfo, pageQuery } from "../../schemas/common";
import { authedProcedure } from "../../trpc";
import { EXAMPLE_PENDING_TRANSACTION, EXAMPLE_SIGNING_REQUEST, signingRequestRecord } from "./transaction-schemas";

export const listSigningRequestsProcedure = authedProcedure
  .meta({
    scope: "signer",
    action: "transact",
    openapi: {
      method: "GET",
      path: "/v1/signer/transactions",
      tags: ["signer"],
      summary: "List transactions awaiting signature",
      description:
        "The transactions released for signing (`status=PENDING_SIGNATURE`), newest first, each with its " +
        "`signingRequest`: the unsigned `0x51` transaction and its signing hash, rebuilt from the record's " +
        "human-readable fields, the key descriptor and the ML-DSA context. Rebuild the unsigned transaction yourself " +
        "from the displayed fields and refuse to sign on any difference. A transaction whose stored request no longer " +
        "matches its fields is never listed: it ends `FAILED/SIGNATURE_MISMATCH`.",
      protect: true,
    },
    example: {
      input: { status: "PENDING_SIGNATURE", limit: 50 },
      output: { transactions: [{ ...EXAMPLE_PENDING_TRANSACTION, signingRequest: EXAMPLE_SIGNING_REQUEST }], page: EXAMPLE_LAST_PAGE },
    },
  })
  .input(
    pageQuery.extend({
      status: z.literal("PENDING_SIGNATURE").default("PENDING_SIGNATURE").meta({ description: "only PENDING_SIGNATURE is listed here" }),
    }),
  )
  .output(z.object({ transactions: z.array(signingRequestRecord), page: pageInfo }))
  .query(({ ctx, input }) => listSigningRequests(ctx.deps, { tenantId: ctx.auth.tenantId, ...input }));
