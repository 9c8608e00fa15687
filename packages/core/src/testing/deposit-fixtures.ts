import { randomBytes } from "node:crypto";
import { NETWORKS, type NetworkCode } from "@qc/chain";
import { schema, type Database } from "@qc/db";
import { findWalletRow, insertStatusHistory, newTransactionRow, type TransactionRow } from "@qc/db/queries";
import type { ScreeningDecision } from "@qc/domain";
import { nativeAssetId } from "../assets/native-assets";
import { systemActor } from "../audit/actor";
import { defaultTransferConfig } from "../deps/service-config";
import { emitEvent } from "../events/emit-event";
import type { JobQueue } from "../jobs/queue";
import type { TransactionRecord } from "../records/record-schemas";
import { toTransactionRecord } from "../transfers/transaction-record";
import { transitionTransaction } from "../transfers/transition-transaction";

export interface DepositFixtureInput {
  tenantId: string;
  /** The receiving wallet (the tenant's); its address is the deposit's destination. */
  walletId: string;
  networkCode?: NetworkCode;
  /** CONFIRMING (seen in a block) or COMPLETED (at its confirmations: moved there by a transition). Default CONFIRMING. */
  status?: "CONFIRMING" | "COMPLETED";
  /** The sender. Default: a fresh random address. */
  sourceAddress?: string;
  /** Default 1 Q (10^18 base units). */
  amount?: bigint;
  /**
   * A token deposit: the `Transfer` log's contract and index, and the tenant's asset for it (null:
   * a token the tenant has no asset for). Without it, a native deposit of the network's native asset.
   */
  token?: { address: string; logIndex: number; assetId: string | null };
  /** Default: a fresh random hash. */
  chainTxHash?: string;
  /** Default 1. */
  blockNumber?: number;
  /** Default 1 while CONFIRMING, the required confirmations once COMPLETED. */
  confirmations?: number;
  /** Default the sandbox's 2 and mainnet's 12 (the service's defaults). */
  requiredConfirmations?: number;
  /** The sender's screening; default null (not screened yet). */
  screening?: { provider: string; decision: ScreeningDecision; riskScore: number | null; reasons: string[] } | null;
}

/** Who writes deposits: the chain follower. */
const FOLLOWER = systemActor("deposits.follow");

const randomHex = (bytes: number) => `0x${randomBytes(bytes).toString("hex")}`;

/**
 * The transition to COMPLETED enqueues no job (it asks for none); a queue with nothing in it says
 * so, and fails loudly should that ever change.
 */
const NO_JOBS = {} as JobQueue;

/**
 * A deposit (CONTRACT §21) stored as the chain follower stores one, for UI and HTTP tests that
 * must not wait for the chain: the INBOUND DEPOSIT row (no source wallet; the receiving wallet and
 * its address; `tokenAddress` and `logIndex` for a token) in CONFIRMING with its first
 * status-history entry and the `transaction.created` event, in one database transaction, then —
 * for `status: "COMPLETED"` — the follower's move through transitionTransaction (its history entry
 * and `transaction.status_changed`). No usage is counted: only what the service sends does.
 */
export async function insertDepositFixture(
  deps: { db: Database; now?: () => Date },
  input: DepositFixtureInput,
): Promise<TransactionRecord> {
  const now = deps.now ?? (() => new Date());
  const networkCode = input.networkCode ?? "QUANTUM_SANDBOX";
  const wallet = await findWalletRow(deps.db, { tenantId: input.tenantId, walletId: input.walletId });
  if (!wallet) throw new Error(`insertDepositFixture: wallet ${input.walletId} is not tenant ${input.tenantId}'s`);
  const requiredConfirmations = input.requiredConfirmations ?? defaultTransferConfig().requiredConfirmations[networkCode];
  const at = now();
  const row: TransactionRow = newTransactionRow(
    {
      tenantId: input.tenantId,
      type: "DEPOSIT",
      direction: "INBOUND",
      networkCode,
      chainId: NETWORKS[networkCode].chainId,
      sourceWalletId: null,
      sourceAddress: (input.sourceAddress ?? randomHex(20)).toLowerCase(),
      destinationWalletId: wallet.id,
      destinationAddress: wallet.address,
      assetId: input.token ? input.token.assetId : nativeAssetId(networkCode),
      tokenAddress: input.token ? input.token.address.toLowerCase() : null,
      logIndex: input.token ? input.token.logIndex : null,
      amount: (input.amount ?? 10n ** 18n).toString(),
      status: "CONFIRMING",
      chainTxHash: input.chainTxHash ?? randomHex(32),
      blockNumber: input.blockNumber ?? 1,
      blockHash: randomHex(32),
      confirmations: input.status === "COMPLETED" ? 1 : (input.confirmations ?? 1), // COMPLETED: set by the move below
      requiredConfirmations,
      screening: input.screening ?? null,
      createdAt: at,
      updatedAt: at,
    },
    at,
  );
  await deps.db.transaction(async (tx) => {
    await tx.insert(schema.transactions).values(row);
    await insertStatusHistory(tx, {
      tenantId: row.tenantId,
      transactionId: row.id,
      fromStatus: null,
      toStatus: row.status,
      subStatus: null,
      reason: null,
      actorType: FOLLOWER.type,
      actorId: FOLLOWER.id,
      createdAt: at,
    });
    await emitEvent(tx, {
      tenantId: row.tenantId,
      type: "transaction.created",
      aggregateId: row.id,
      data: { transaction: toTransactionRecord(row) },
    });
  });
  if (input.status !== "COMPLETED") return toTransactionRecord(row);
  const completed = await transitionTransaction(
    { db: deps.db, jobs: NO_JOBS, now },
    {
      tenantId: row.tenantId,
      transactionId: row.id,
      from: ["CONFIRMING"],
      to: "COMPLETED",
      reason: null,
      set: { confirmations: input.confirmations ?? requiredConfirmations, completedAt: now() },
      actor: FOLLOWER,
    },
  );
  if (!completed.moved) throw new Error(`insertDepositFixture: deposit ${row.id} did not move to COMPLETED`);
  return toTransactionRecord(completed.row);
}
