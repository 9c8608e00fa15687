import type { NetworkCode } from "@qc/chain";
import { findContractTemplate, type ContractTemplate } from "@qc/chain/contracts";
import type { Address } from "viem";
import { z } from "zod";
import type { StoredKey } from "../keystore/format";
import type { SigningRequest } from "../service/signer-api";
import { compareReplacement, type ReplacedOriginal } from "./compare-replacement";
import { parseNonceAndFee, parsePendingTransaction, readNetwork, readSource, refuse, type DisplayedFee } from "./read-pending-transaction";

/** What `review` shows for a contract deployment, read from the service's record and this signer's own catalog. */
export type DisplayedDeployment = {
  id: string;
  /** A REPLACEMENT here is a speed-up of a deployment: the same creation at the same nonce with higher fee caps (CONTRACT §17). */
  type: "CONTRACT_DEPLOY" | "REPLACEMENT";
  /** A replacement's original, checked: everything but the fee caps is the same. */
  replaces: ReplacedOriginal | null;
  networkCode: NetworkCode;
  chainId: number;
  sourceAddress: Address;
  sourceKey: StoredKey;
  /** From this signer's catalog (@qc/chain), looked up by the record's template id: never the service's bytes. */
  template: ContractTemplate;
  /** As the record states them; validated against the template when the request is verified. */
  constructorArgs: Record<string, unknown>;
  nonce: number;
  fee: DisplayedFee;
  note: string | null;
  externalId: string | null;
  signingRequest: SigningRequest;
};

const deploymentSchema = z.object({
  templateId: z.string().min(1).max(100),
  constructorArgs: z.record(z.string(), z.unknown()),
});

export type ReadDeploymentParameters = {
  /** One element of `GET /v1/signer/transactions`, as received. */
  transaction: unknown;
  findKey: (address: Address) => StoredKey | undefined;
  /** For a REPLACEMENT: `GET /v1/transactions/{replacesTransactionId}`, as received (without it a replacement is refused). */
  original?: unknown;
};

/**
 * Reads a pending CONTRACT_DEPLOY into what `review` displays, refusing (naming the field)
 * whatever cannot be displayed truthfully: a template this signer's catalog does not hold, a
 * deployment that would move value or name a destination, an unknown network, a source whose
 * key is not in this keystore.
 */
export function readDeployment({ transaction, findKey, original }: ReadDeploymentParameters): DisplayedDeployment {
  const tx = parsePendingTransaction(transaction);
  if (tx.type !== "CONTRACT_DEPLOY" && tx.type !== "REPLACEMENT") refuse("type", `is ${tx.type}, not CONTRACT_DEPLOY`);
  const replaces =
    tx.type === "REPLACEMENT"
      ? compareReplacement(tx, original ?? refuse("replacesTransactionId", "the original was not fetched to compare the replacement with"))
      : null;
  const network = readNetwork(tx);
  if (tx.destinationAddress !== null) refuse("destinationAddress", "is set: a contract creation has no destination");
  if (tx.assetId !== null) refuse("assetId", "is set: a contract deployment moves no asset");
  if (tx.amount !== "0") refuse("amount", "is not zero: a deployment through this signer moves no value");

  const deployment = deploymentSchema.safeParse((transaction as { deployment?: unknown }).deployment);
  if (!deployment.success)
    refuse("deployment", "is missing or malformed: the template id and constructor arguments are needed to rebuild the creation");
  const template =
    findContractTemplate(deployment.data.templateId) ??
    refuse("deployment.templateId", `"${deployment.data.templateId}" is not a template in this signer's catalog`);

  const source = readSource(tx, findKey);
  const nonceAndFee = parseNonceAndFee(tx);

  return {
    id: tx.id,
    type: tx.type,
    replaces,
    ...network,
    ...source,
    template,
    constructorArgs: deployment.data.constructorArgs,
    ...nonceAndFee,
    note: tx.note ?? null,
    externalId: tx.externalId ?? null,
    signingRequest: tx.signingRequest,
  };
}
