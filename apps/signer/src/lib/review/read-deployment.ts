import { isAddressInput, isNetworkCode, NETWORKS, parseAddress, type NetworkCode } from "@qc/chain";
import { findContractTemplate, type ContractTemplate } from "@qc/chain/contracts";
import type { Address } from "viem";
import { z } from "zod";
import { ReviewRefusedError } from "../errors";
import type { StoredKey } from "../keystore/format";
import { pendingTransactionSchema, type SigningRequest } from "../service/signer-api";

/** What `review` shows for a contract deployment, read from the service's record and this signer's own catalog. */
export type DisplayedDeployment = {
  id: string;
  networkCode: NetworkCode;
  chainId: number;
  sourceAddress: Address;
  sourceKey: StoredKey;
  /** From this signer's catalog (@qc/chain), looked up by the record's template id: never the service's bytes. */
  template: ContractTemplate;
  /** As the record states them; validated against the template when the request is verified. */
  constructorArgs: Record<string, unknown>;
  nonce: number;
  fee: { gasLimit: bigint; maxFeePerGas: bigint; maxPriorityFeePerGas: bigint };
  note: string | null;
  externalId: string | null;
  signingRequest: SigningRequest;
};

const deploymentSchema = z.object({
  templateId: z.string().min(1).max(100),
  constructorArgs: z.record(z.string(), z.unknown()),
});

const MAX_UINT64 = 2n ** 64n - 1n;

function refuse(field: string, reason: string): never {
  throw new ReviewRefusedError([{ field, reason }]);
}

export type ReadDeploymentParameters = {
  /** One element of `GET /v1/signer/transactions`, as received. */
  transaction: unknown;
  findKey: (address: Address) => StoredKey | undefined;
};

/**
 * Reads a pending CONTRACT_DEPLOY into what `review` displays, refusing (naming the field)
 * whatever cannot be displayed truthfully: a template this signer's catalog does not hold, a
 * deployment that would move value or name a destination, an unknown network, a source whose
 * key is not in this keystore.
 */
export function readDeployment({ transaction, findKey }: ReadDeploymentParameters): DisplayedDeployment {
  const parsed = pendingTransactionSchema.safeParse(transaction);
  if (!parsed.success) {
    throw new ReviewRefusedError(
      parsed.error.issues.slice(0, 5).map((issue) => ({ field: issue.path.join(".") || "transaction", reason: `is malformed (${issue.message})` })),
    );
  }
  const tx = parsed.data;
  if (tx.type !== "CONTRACT_DEPLOY") refuse("type", `is ${tx.type}, not CONTRACT_DEPLOY`);
  if (tx.status !== "PENDING_SIGNATURE") refuse("status", `is ${tx.status}, not PENDING_SIGNATURE`);
  if (!isNetworkCode(tx.networkCode)) refuse("networkCode", `"${tx.networkCode}" is not a QUANTUM network`);
  const network = NETWORKS[tx.networkCode];
  if (tx.chainId !== network.chainId) refuse("chainId", `is ${tx.chainId}, but ${network.networkCode} is chain ${network.chainId}`);
  if (tx.destinationAddress !== null) refuse("destinationAddress", "is set: a contract creation has no destination");
  if (tx.assetId !== null) refuse("assetId", "is set: a contract deployment moves no asset");
  if (tx.amount !== "0") refuse("amount", "is not zero: a deployment through this signer moves no value");

  const deployment = deploymentSchema.safeParse((transaction as { deployment?: unknown }).deployment);
  if (!deployment.success) refuse("deployment", "is missing or malformed: the template id and constructor arguments are needed to rebuild the creation");
  const template = findContractTemplate(deployment.data.templateId) ?? refuse("deployment.templateId", `"${deployment.data.templateId}" is not a template in this signer's catalog`);

  if (!isAddressInput(tx.sourceAddress)) refuse("sourceAddress", "is not an address");
  const sourceAddress = parseAddress(tx.sourceAddress);
  const sourceKey = findKey(sourceAddress) ?? refuse("sourceAddress", `${sourceAddress} is not a key in this keystore`);

  const nonce = Number(tx.nonce);
  if (!Number.isSafeInteger(nonce)) refuse("nonce", "is out of range");
  const fee = { gasLimit: BigInt(tx.fee.gasLimit), maxFeePerGas: BigInt(tx.fee.maxFeePerGas), maxPriorityFeePerGas: BigInt(tx.fee.maxPriorityFeePerGas) };
  if (fee.gasLimit === 0n || fee.gasLimit > MAX_UINT64) refuse("fee.gasLimit", "is out of range");
  if (fee.maxPriorityFeePerGas > fee.maxFeePerGas) refuse("fee.maxPriorityFeePerGas", "exceeds fee.maxFeePerGas");

  return {
    id: tx.id,
    networkCode: tx.networkCode,
    chainId: tx.chainId,
    sourceAddress,
    sourceKey,
    template,
    constructorArgs: deployment.data.constructorArgs,
    nonce,
    fee,
    note: tx.note ?? null,
    externalId: tx.externalId ?? null,
    signingRequest: tx.signingRequest,
  };
}
