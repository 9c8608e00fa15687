import { randomBytes } from "node:crypto";
import { NETWORKS, type NetworkCode } from "@qc/chain";
import type { Database } from "@qc/db";
import { findWalletRow, insertDeposits, insertDepositTrail, recordDepositScreening, type TransactionRow } from "@qc/db/queries";
import { systemActor } from "../audit/actor";
import { defaultTransferConfig } from "../deps/service-config";
import { EVENTS } from "../events/catalog";
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
   * A token deposit: the `Transfer` log's contract and index (the asset is resolved as the
   * follower resolves it: the tenant's token asset for that contract, or null). Without it, a
   * native deposit of the network's native asset.
   */
  token?: { address: string; logIndex: number };
  /** Default: a fresh random hash. */
  chainTxHash?: string;
  /** Default 1. */
  blockNumber?: number;
  /** Default the sandbox's 2 and mainnet's 12 (the service's defaults). */
  requiredConfirmations?: number;
  /** The sender's screening, as the `deposits.screen` job records it; default none (not screened yet). */
  screening?: NonNullable<TransactionRow["screening"]>;
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
 * A deposit (CONTRACT §21) stored by the chain follower's own statements, for UI and HTTP tests
 * that must not wait for the chain: `insertDeposits` (the INBOUND DEPOSIT row in CONFIRMING with
 * confirmations 1, its asset resolved in SQL) and `insertDepositTrail` (its first history entry
 * and `transaction.created`) in one database transaction; then the sender's screening when given
 * (`recordDepositScreening`, as the `deposits.screen` job writes it — no job is enqueued) and, for
 * `status: "COMPLETED"`, the follower's move through transitionTransaction (its history entry and
 * `transaction.status_changed`). No usage is counted: only what the service sends does. A deposit
 * already recorded (same hash, log index and wallet) is refused, as the follower's insert adds nothing.
 */
export async function insertDepositFixture(
  deps: { db: Database; now?: () => Date },
  input: DepositFixtureInput,
): Promise<TransactionRecord> {
  const now = deps.now ?? (() => new Date());
  const networkCode = input.networkCode ?? "QUANTUM_SANDBOX";
  const wallet = await findWalletRow(deps.db, { tenantId: input.tenantId, walletId: input.walletId });
  if (!wallet) throw new Error(`insertDepositFixture: wallet ${input.walletId} is not tenant ${input.tenantId}'s`);
  const at = now();
  const [row] = await deps.db.transaction(async (tx) => {
    const inserted = await insertDeposits(tx, {
      networkCode,
      blockNumber: input.blockNumber ?? 1,
      blockHash: randomHex(32),
      at,
      deposits: [
        {
          tenantId: input.tenantId,
          walletId: wallet.id,
          chainId: NETWORKS[networkCode].chainId,
          sourceAddress: (input.sourceAddress ?? randomHex(20)).toLowerCase(),
          destinationAddress: wallet.address,
          tokenAddress: input.token ? input.token.address.toLowerCase() : null,
          logIndex: input.token ? input.token.logIndex : null,
          amount: (input.amount ?? 10n ** 18n).toString(),
          chainTxHash: input.chainTxHash ?? randomHex(32),
          requiredConfirmations: input.requiredConfirmations ?? defaultTransferConfig().requiredConfirmations[networkCode],
        },
      ],
    });
    const created = EVENTS["transaction.created"];
    // The follower's trail of new deposits: a history entry, transaction.created and an audit row each.
    await insertDepositTrail(tx, {
      rows: inserted,
      actorType: FOLLOWER.type,
      actorId: FOLLOWER.id!,
      at,
      data: (r) => created.data.parse({ transaction: toTransactionRecord(r) }) as Record<string, unknown>,
    });
    return inserted;
  });
  if (!row) throw new Error("insertDepositFixture: this deposit is already recorded (same hash, log index and wallet)");
  let current = row;
  if (input.screening)
    current = (await recordDepositScreening(deps.db, { tenantId: row.tenantId, transactionId: row.id, screening: input.screening, at }))!;
  if (input.status !== "COMPLETED") return toTransactionRecord(current);
  const completedAt = now();
  const completed = await transitionTransaction(
    { db: deps.db, jobs: NO_JOBS, now },
    {
      tenantId: row.tenantId,
      transactionId: row.id,
      from: ["CONFIRMING"],
      to: "COMPLETED",
      reason: null,
      set: { confirmations: row.requiredConfirmations, completedAt },
      actor: FOLLOWER,
    },
  );
  if (!completed.moved) throw new Error(`insertDepositFixture: deposit ${row.id} did not move to COMPLETED`);
  return toTransactionRecord(completed.row);
}
