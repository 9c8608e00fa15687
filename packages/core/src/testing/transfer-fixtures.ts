import {
  addressFromPublicKey,
  estimateQuantumFees,
  generateKeyPair,
  getPendingNonce,
  signOwnershipProof,
  signQuantumSigningHash,
  type NetworkCode,
} from "@qc/chain";
import { findSourceNonces, findTransaction, findTransactionForSigning, lowestFreeNonce, type TransactionRow } from "@qc/db/queries";
import { systemActor } from "../audit/actor";
import { nativeAssetId } from "../assets/native-assets";
import type { ServiceDeps } from "../deps/service-deps";
import { createTransfer } from "../transfers/create-transfer";
import { signingDeadlineFrom } from "../transfers/insert-released-transaction";
import { quoteRelease, releaseTransition, type ChainQuote } from "../transfers/release-for-signing";
import { submitSignature } from "../transfers/submit-signature";
import { transitionTransaction } from "../transfers/transition-transaction";
import type { TransferAsset } from "../transfers/unsigned-transaction";
import { createVault } from "../vaults/create-vault";
import { registerWallet } from "../wallets/register-wallet";
import { outboundSource } from "../transfers/outbound-source";

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
  /** Default: the network's native asset. Only its id counts: release reads the stored asset. */
  asset?: { id: string } & Partial<TransferAsset>;
  networkCode?: NetworkCode;
  externalId?: string;
  /** Default: release's nonce (the chain's pending nonce, past any this service broadcast). */
  nonce?: number;
  /**
   * Default: release's quote (eth_estimateGas × the configured margin). Given: the chain's fees
   * with this gas, for a transfer the estimate would refuse (one the chain reverts or the source
   * can no longer pay when it is broadcast).
   */
  gasLimit?: bigint;
  /** Default: now + the configured signing timeout. */
  signingDeadline?: Date;
}

/**
 * A transfer as create-transfer stores it (createTransfer itself: the SUBMITTED row, its first
 * history entry, the audit row and `transaction.created`), without its `transfers.check` job
 * (`checkJob: "skip"`): the test runs the checks or the release when it wants to, and a daemon
 * the test runs never does.
 */
export async function createSubmittedTransferFixture(
  deps: Pick<ServiceDeps, "db" | "jobs" | "now" | "config">,
  input: Omit<ReleasedTransferFixtureInput, "nonce" | "gasLimit" | "signingDeadline">,
): Promise<TransactionRow> {
  const networkCode = input.networkCode ?? "QUANTUM_SANDBOX";
  const created = await createTransfer(deps, {
    tenantId: input.tenantId,
    externalId: input.externalId,
    networkCode,
    sourceWalletId: input.wallet.walletId,
    destinationAddress: input.destinationAddress,
    assetId: input.asset?.id ?? nativeAssetId(networkCode),
    amount: input.amount.toString(),
    actor: systemActor("test-fixture"),
    checkJob: "skip",
  });
  return (await findTransaction(deps.db, input.tenantId, created.id))!;
}

/**
 * A transfer released for signing as the release step stores it, at one instant: created by
 * createSubmittedTransferFixture, then moved to PENDING_SIGNATURE by release's own transition
 * (`releaseTransition`) with release's quote of the chain (`quoteRelease`: fees, gas with the
 * configured margin, the pending nonce), release's nonce rule and signing deadline. For tests of
 * what happens after release, independent of the checks (policy and screening stay null) and of
 * the one-transfer-in-flight rule: a test may release several of one source.
 */
export async function createReleasedTransferFixture(
  deps: Pick<ServiceDeps, "db" | "jobs" | "now" | "chain" | "config">,
  input: ReleasedTransferFixtureInput,
): Promise<TransactionRow> {
  const now = deps.now();
  const atOnce = { ...deps, now: () => now };
  const submitted = await createSubmittedTransferFixture(atOnce, input);
  const { asset } = (await findTransactionForSigning(deps.db, { tenantId: input.tenantId, transactionId: submitted.id }))!;
  const quote = await fixtureQuote(deps, submitted, asset, input.gasLimit);
  const source = outboundSource(submitted);
  const nonce = input.nonce ?? lowestFreeNonce(await findSourceNonces(deps.db, { ...source, chainFloor: quote.pendingNonce }));
  const signingDeadline = input.signingDeadline ?? signingDeadlineFrom(atOnce);
  const outcome = await transitionTransaction(atOnce, {
    tenantId: input.tenantId,
    transactionId: submitted.id,
    from: ["SUBMITTED"],
    actor: systemActor("test-fixture"),
    ...releaseTransition(submitted, asset, { nonce, fees: quote.fees, signingDeadline, expiryJob: !deps.config.transfers.blockWatchers }),
  });
  if (!outcome.moved) throw new Error("fixture transaction was moved by someone else");
  return outcome.row;
}

/** Release's quote, or with a test's `gasLimit` the chain's fees and pending nonce only (no estimate). */
async function fixtureQuote(
  deps: Pick<ServiceDeps, "chain" | "config">,
  row: TransactionRow,
  asset: TransferAsset | null,
  gasLimit: bigint | undefined,
): Promise<ChainQuote> {
  if (gasLimit === undefined) return quoteRelease(deps, row, asset);
  const client = deps.chain.client(row.networkCode as NetworkCode);
  const [fees, nonce] = await Promise.all([estimateQuantumFees(client), getPendingNonce(client, { address: row.sourceAddress })]);
  return {
    fees: { gasLimit, maxFeePerGas: fees.maxFeePerGas, maxPriorityFeePerGas: fees.maxPriorityFeePerGas },
    pendingNonce: nonce.pending,
  };
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
