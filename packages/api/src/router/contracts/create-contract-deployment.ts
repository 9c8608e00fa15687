import { createContractDeployment } from "@qc/core";
import { z } from "zod";
import { multilineText, networkCode, text } from "../../schemas/common";
import { authedProcedure } from "../../trpc";
import { transactionRecord } from "../transactions/schemas";
import { EXAMPLE_CREATE_DEPLOYMENT, EXAMPLE_DEPLOYMENT_TRANSACTION } from "./examples";

export const createContractDeploymentProcedure = authedProcedure
  .meta({
    scope: "write",
    action: "transact",
    valueMoving: true,
    successStatus: 201,
    idempotencyKey: "required",
    openapi: {
      method: "POST",
      path: "/v1/contracts/deployments",
      tags: ["contracts"],
      summary: "Deploy a contract template",
      description:
        "Accepts the deployment of an audited template (GET /v1/contracts/templates) as a `CONTRACT_DEPLOY` " +
        "transaction in `SUBMITTED`, which then takes the transfers' path: policy, AML screening of the addresses " +
        "among the constructor arguments, quota and fee checks, release for signing, your signer's signature, " +
        "broadcast and confirmations. The creation data is the template's pinned bytecode followed by the ABI-encoded " +
        "`constructorArgs`, rebuilt from the catalog at every step and checked against the pinned bytecode hash again " +
        "before broadcast. Once `COMPLETED`, `contractAddress` is set and a token template is listed in GET " +
        "/v1/assets. Requires `X-Idempotency-Key`. `constructorArgs` is keyed by the template's constructor input " +
        "names; integers are decimal strings (a JSON number is refused), addresses 40 hex digits; a bad argument is " +
        "400 VALIDATION_FAILED naming `constructorArgs.<name>`; an unknown template is 404.",
      protect: true,
    },
    errors: ["NOT_FOUND", "DUPLICATE_EXTERNAL_ID", "WALLET_ARCHIVED", "NETWORK_MISMATCH", "WATCH_ONLY_SOURCE"],
    example: { input: EXAMPLE_CREATE_DEPLOYMENT, output: EXAMPLE_DEPLOYMENT_TRANSACTION },
  })
  .input(
    z.object({
      templateId: text()
        .min(1)
        .max(100)
        .meta({ description: "a template's id from GET /v1/contracts/templates (404 NOT_FOUND otherwise)" }),
      networkCode,
      sourceWalletId: z
        .uuid()
        .meta({ description: "the deploying wallet: an ACTIVE wallet of the tenant placed on `networkCode`; never WATCH_ONLY" }),
      constructorArgs: z.record(text().max(100), z.unknown()).meta({
        description:
          "the constructor's arguments by input name; validated against the template's ABI (integers as decimal strings, " +
          "addresses as 40 hex digits, optional inputs may be left out)",
      }),
      externalId: text()
        .trim()
        .min(1)
        .max(255)
        .optional()
        .meta({ description: "your reference, unique per tenant (409 DUPLICATE_EXTERNAL_ID)" }),
      note: multilineText().max(1000).optional(),
    }),
  )
  .output(transactionRecord)
  .mutation(({ ctx, input }) => createContractDeployment(ctx.deps, { tenantId: ctx.auth.tenantId, ...input, actor: ctx.actor }));
