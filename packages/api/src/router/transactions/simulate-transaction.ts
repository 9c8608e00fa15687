import { simulateTransfer, transactionSimulationSchema } from "@qc/core";
import { authedProcedure } from "../../trpc";
import { EXAMPLE_CREATE_TRANSFER, EXAMPLE_TRANSACTION } from "./examples";
import { transferIntent } from "./schemas";

export const simulateTransactionProcedure = authedProcedure
  .meta({
    scope: "write",
    action: "transact",
    openapi: {
      method: "POST",
      path: "/v1/transactions/simulate",
      tags: ["transactions"],
      summary: "Simulate a transfer before creating it",
      description:
        "What the transfer this create body describes would do if it were sent now, from the node's `eth_simulateV1` " +
        "(`traceTransfers`, `validation`) on top of the latest block: `SUCCESS` or `REVERT` with its reason, the gas " +
        "used, and every balance it changes (`delta` signed, the fee included in the source's native change; token " +
        "changes from the token's Transfer logs). The body is validated as on create (same errors); nothing is written " +
        "and no idempotency key is needed. A node without `eth_simulateV1` answers 200 with `status: UNSUPPORTED`; one " +
        "that cannot be reached, 503 UNAVAILABLE.",
      protect: true,
    },
    errors: ["NOT_FOUND", "WALLET_ARCHIVED", "NETWORK_MISMATCH", "UNKNOWN_ASSET", "WATCH_ONLY_SOURCE", "INVALID_ADDRESS"],
    example: {
      input: { ...EXAMPLE_CREATE_TRANSFER, externalId: undefined, note: undefined },
      output: {
        status: "SUCCESS",
        revertReason: null,
        gasUsed: "21000",
        balanceChanges: [
          { address: EXAMPLE_TRANSACTION.sourceAddress, assetId: EXAMPLE_TRANSACTION.assetId, delta: "-1500021000000000000" },
          { address: EXAMPLE_TRANSACTION.destinationAddress, assetId: EXAMPLE_TRANSACTION.assetId, delta: "1500000000000000000" },
        ],
        blockNumber: "1204",
        simulatedAt: "2026-11-21T10:00:00.000Z",
        reason: null,
      },
    },
  })
  .input(transferIntent)
  .output(transactionSimulationSchema)
  .mutation(({ ctx, input }) => simulateTransfer(ctx.deps, { tenantId: ctx.auth.tenantId, ...input }));
