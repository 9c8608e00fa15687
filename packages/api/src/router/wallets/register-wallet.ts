import { registerWallet } from "@qc/core";
import { z } from "zod";
import { authedProcedure } from "../../trpc";
import { assetIds, walletLabel, walletRecord } from "./schemas";
import { text, vaultIdParam } from "../../schemas/common";
import { EXAMPLE, EXAMPLE_WALLET } from "../../openapi-examples";

// Lengths are checked by the service so that every malformed proof is 1105, not 1001; these
// bounds only keep absurd input out.
export const registerWalletProcedure = authedProcedure
  .meta({
    scope: "signer",
    action: "transact",
    successStatus: 201,
    openapi: {
      method: "POST",
      path: "/v1/vault/accounts/{vaultAccountId}/wallets",
      tags: ["wallets"],
      summary: "Register an existing address",
      description:
        "Adds a `REGISTERED` wallet for an address whose ML-DSA-87 key you hold, proven by `signature`: an ML-DSA-87 " +
        "signature with context `QUANTUM-OWNERSHIP-v1` over the UTF-8 bytes of " +
        "`quantum-custody:wallet-ownership:v1:<tenantId>:<lower-case 0x address>`. The address must be the address of " +
        "`publicKey`. Every proof problem (format, lengths, address mismatch, bad signature) is 400 " +
        "`INVALID_OWNERSHIP_PROOF` with `details.reason`. An address that already is a wallet of the tenant is 409 " +
        "`ADDRESS_ALREADY_REGISTERED`. Needs the `signer` scope (the key's holder is who registers it), which `write` " +
        "and `admin` do not include.",
      protect: true,
    },
    errors: ["NOT_FOUND", "VAULT_ARCHIVED", "INVALID_OWNERSHIP_PROOF", "ADDRESS_ALREADY_REGISTERED", "UNKNOWN_ASSET"],
    example: {
      input: {
        vaultAccountId: EXAMPLE.vaultId,
        address: EXAMPLE.address,
        publicKey: EXAMPLE.publicKey,
        signature: EXAMPLE.proof,
        label: "cold storage",
      },
      output: { ...EXAMPLE_WALLET, type: "REGISTERED", label: "cold storage" },
    },
  })
  .input(
    z.object({
      vaultAccountId: vaultIdParam,
      address: text().max(200).meta({ description: "40 hex digits, optional 0x; mixed case must pass EIP-55" }),
      publicKey: text().max(20_000).meta({ description: "ML-DSA-87 public key, hex (2592 bytes)" }),
      signature: text().max(40_000).meta({ description: "the ownership proof (see above), hex (4627 bytes)" }),
      assetIds,
      label: walletLabel,
    }),
  )
  .output(walletRecord)
  .mutation(async ({ ctx, input }) => {
    const { vaultAccountId, ...rest } = input;
    const wallet = await registerWallet(ctx.deps, { tenantId: ctx.auth.tenantId, vaultId: vaultAccountId, ...rest, actor: ctx.actor });
    return wallet;
  });
