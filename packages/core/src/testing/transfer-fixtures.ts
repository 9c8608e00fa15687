import {
  addressFromPublicKey,
  estimateQuantumFees,
  generateKeyPair,
  getPendingNonce,
  NETWORKS,
  signOwnershipProof,
  signQuantumSigningHash,
  type NetworkCode,
} from "@qc/chain";
import { findTransaction, insertStatusHistory, type TransactionRow } from "@qc/db/queries";
import { insertTransaction } from "@qc/db/testing";
import { systemActor } from "../audit/actor";
import { nativeAssetId } from "../assets/native-assets";
import type { ServiceDeps } from "../deps/service-deps";
import { emitEvent } from "../events/emit-event";
import { toTransactionRecord } from "../transfers/transaction-record";
import { jobRequest } from "../transitions/run-transition";
import { submitSignature } from "../transfers/submit-signature";
import { transitionTransaction } from "../transfers/transition-transaction";
import { rebuildUnsignedTransaction, type TransferAsset } from "../transfers/unsigned-transaction";
import { createVault } from "../vaults/create-vault";
import { registerWallet } from "../wallets/register-wallet";

/** A registered source wallet whose ML-DSA-87 key the test holds (the signer's side). */
export interface TransferWalletFixture {
  vaultId: string;
  walletId: string;
  address: `0x${string}`;
  publicKey: `0x${string}`;
  secretKey: Uint8Array;
}

/** A vault and a REGISTERED wallet in it, made through the real services, with a fresh key. */
export async function createTransferWalletFixture(
  deps: Pick<ServiceDeps, "db" | "now" | "verifier">,
  input: { tenantId: string; networkCode?: NetworkCode },
): Promise<TransferWalletFixture> {
  const networkCode = input.networkCode ?? "QUANTUM_SANDBOX";
  const keys = generateKeyPair();
  const publicKey = `0x${Buffer.from(keys.publicKey).toString("hex")}` as const;
  const address = addressFromPublicKey(publicKey);
  const actor = systemActor("test-fixture");
  const vault = await createVault(deps, { tenantId: input.tenantId, name: "transfer fixture", networkCode, actor });
  const wallet = await registerWallet(deps, {
    tenantId: input.tenantId,
    vaultId: vault.id,
    address,
    publicKey,
    signature: signOwnershipProof({ tenantId: input.tenantId, address, secretKey: keys.secretKey }),
    actor,
  });
  return { vaultId: vault.id, walletId: wallet.id, address, publicKey, secretKey: keys.secretKey };
}

export interface ReleasedTransferFixtureInput {
  tenantId: string;
  wallet: Pick<TransferWalletFixture, "walletId" | "address">;
  destinationAddress: string;
  amount: bigint;
  /** Default: the network's native asset. */
  asset?: { id: string } & TransferAsset;
  networkCode?: NetworkCode;
  externalId?: string;
  /** Default: the chain's pending nonce of the source. */
  nonce?: number;
  /** Default: eth_estimateGas × the configured margin. */
  gasLimit?: bigint;
  /** Default: now + the configured signing timeout. */
  signingDeadline?: Date;
}

/** The fixture's network (default QUANTUM_SANDBOX) and asset (default that network's native asset). */
function fixtureAsset(input: Pick<ReleasedTransferFixtureInput, "networkCode" | "asset">): { networkCode: NetworkCode; asset: { id: string } & TransferAsset } {
  const networkCode = input.networkCode ?? "QUANTUM_SANDBOX";
  return { networkCode, asset: input.asset ?? { id: nativeAssetId(networkCode), kind: "NATIVE", contractAddress: null } };
}

/**
 * A transfer as create-transfer stores it: the SUBMITTED row, its first history entry and
 * `transaction.created`. No `transfers.check` job: the test runs the checks when it wants to.
 */
export async function createSubmittedTransferFixture(
  deps: Pick<ServiceDeps, "db" | "now" | "config">,
  input: Omit<ReleasedTransferFixtureInput, "nonce" | "gasLimit" | "signingDeadline">,
): Promise<TransactionRow> {
  const { networkCode, asset } = fixtureAsset(input);
  const now = deps.now();
  const actor = systemActor("test-fixture");
  return deps.db.transaction(async (tx) => {
    const row = await insertTransaction(tx, {
      tenantId: input.tenantId,
      externalId: input.externalId ?? null,
      type: "TRANSFER",
      networkCode,
      chainId: NETWORKS[networkCode].chainId,
      sourceWalletId: input.wallet.walletId,
      sourceAddress: input.wallet.address,
      destinationAddress: input.destinationAddress.toLowerCase(),
      assetId: asset.id,
      amount: input.amount.toString(),
      status: "SUBMITTED",
      requiredConfirmations: deps.config.transfers.requiredConfirmations[networkCode],
      createdAt: now,
      updatedAt: now,
    });
    await insertStatusHistory(tx, { tenantId: input.tenantId, transactionId: row.id, fromStatus: null, toStatus: "SUBMITTED", actorType: actor.type, actorId: actor.id });
    await emitEvent(tx, { tenantId: input.tenantId, type: "transaction.created", aggregateId: row.id, data: { transaction: toTransactionRecord(row) } });
    return row;
  });
}

/**
 * A transfer released for signing, exactly as the release step stores it: inserted SUBMITTED,
 * then moved to PENDING_SIGNATURE by the one transition with the chain's pending nonce, EIP-1559
 * fees and gas from the chain, the unsigned transaction and signing hash that
 * `rebuildUnsignedTransaction` gives, the signing deadline, and the `transfers.expire` job at that
 * deadline. For tests of what happens after release, independent of the checks.
 */
export async function createReleasedTransferFixture(
  deps: Pick<ServiceDeps, "db" | "jobs" | "now" | "chain" | "config">,
  input: ReleasedTransferFixtureInput,
): Promise<TransactionRow> {
  const { networkCode, asset } = fixtureAsset(input);
  const client = deps.chain.client(networkCode);
  const now = deps.now();
  const actor = systemActor("test-fixture");
  const submitted = await createSubmittedTransferFixture(deps, input);
  const nonce = input.nonce ?? (await getPendingNonce(client, { address: input.wallet.address })).pending;
  const fees = await estimateQuantumFees(client);
  const draft = { ...submitted, nonce, gasLimit: "21000", maxFeePerGas: fees.maxFeePerGas.toString(), maxPriorityFeePerGas: fees.maxPriorityFeePerGas.toString() };
  let gasLimit = input.gasLimit;
  if (gasLimit === undefined) {
    const { unsigned } = rebuildUnsignedTransaction(draft, asset);
    const estimate = await client.estimateGas({ account: input.wallet.address, to: unsigned.to!, value: unsigned.value ?? 0n, data: unsigned.data ?? "0x" });
    gasLimit = (estimate * BigInt(deps.config.transfers.gasMarginPercent)) / 100n;
  }
  const released = { ...draft, gasLimit: gasLimit.toString() };
  const rebuilt = rebuildUnsignedTransaction(released, asset);
  const signingDeadline = input.signingDeadline ?? new Date(now.getTime() + deps.config.transfers.signingTimeoutSeconds * 1000);
  const outcome = await transitionTransaction(deps, {
    tenantId: input.tenantId,
    transactionId: submitted.id,
    from: ["SUBMITTED"],
    to: "PENDING_SIGNATURE",
    set: {
      nonce,
      gasLimit: released.gasLimit,
      maxFeePerGas: released.maxFeePerGas,
      maxPriorityFeePerGas: released.maxPriorityFeePerGas,
      data: rebuilt.unsigned.data ?? "0x",
      unsignedTransaction: rebuilt.unsignedTransaction,
      signingHash: rebuilt.signingHash,
      signingDeadline,
    },
    actor,
    jobs: (row) => [jobRequest("transfers.expire", { tenantId: row.tenantId, transactionId: row.id }, { startAfter: signingDeadline })],
  });
  if (!outcome.moved) throw new Error("fixture transaction was moved by someone else");
  return outcome.row;
}

/** The signer's side: an ML-DSA-87 signature (context QUANTUM-TX-v1) over a signing hash. */
export function signTransferFixture(signingHash: string, secretKey: Uint8Array): `0x${string}` {
  return signQuantumSigningHash({ signingHash: signingHash as `0x${string}`, secretKey });
}

/** A released transfer signed by the wallet's key through the real submission (now SIGNED, broadcast job queued). */
export async function createSignedTransferFixture(
  deps: Pick<ServiceDeps, "db" | "jobs" | "now" | "chain" | "config" | "log" | "verifier">,
  input: ReleasedTransferFixtureInput & { wallet: Pick<TransferWalletFixture, "walletId" | "address" | "secretKey"> },
): Promise<TransactionRow> {
  const released = await createReleasedTransferFixture(deps, input);
  await submitSignature(deps, {
    tenantId: input.tenantId,
    transactionId: released.id,
    signature: signTransferFixture(released.signingHash!, input.wallet.secretKey),
    actor: systemActor("test-signer"),
  });
  return (await findTransaction(deps.db, input.tenantId, released.id))!;
}
