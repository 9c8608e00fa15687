import { NONCE_HOLDING_STATUSES, RESERVING_STATUSES } from "@qc/domain";
import { and, asc, eq, inArray, isNotNull, or, sql } from "drizzle-orm";
import type { Executor } from "../client";
import { defineQuery } from "../hot-path/define-query";
import { transactions } from "../schema/transfers";
import type { TransactionNetworkCode, TransactionRow } from "./transactions";

// What the release of a transfer reads about its source (the wallet's transfers on one network).

/** A source: the wallet's transfers on one network, for one tenant. */
export interface TransferSource {
  tenantId: string;
  sourceWalletId: string;
  networkCode: TransactionNetworkCode;
}

/**
 * The rows of one source (served by `transactions_source_status_idx` with a status), by
 * placeholder: the release reads them for every transfer, so its queries below are prepared
 * (../hot-path) and run with `sourceValues`.
 */
const ofSource = and(
  eq(transactions.tenantId, sql.placeholder("tenantId")),
  eq(transactions.sourceWalletId, sql.placeholder("sourceWalletId")),
  eq(transactions.networkCode, sql.placeholder("networkCode")),
);
const sourceValues = (source: TransferSource) => ({
  tenantId: source.tenantId,
  sourceWalletId: source.sourceWalletId,
  networkCode: source.networkCode,
});

/**
 * What the source's cleared, not yet mined transfers (other than `excludeId`) still take from
 * its balance: the amounts of `assetId` and the fee caps (gas limit × max fee per gas, native)
 * of those released with fees.
 */
export async function sumSourceReservations(
  db: Executor,
  params: TransferSource & { assetId: string; excludeId: string },
): Promise<{ amount: bigint; fees: bigint }> {
  const [row] = await sumReservationsQuery
    .on(db)
    .execute({ ...sourceValues(params), assetId: params.assetId, excludeId: params.excludeId });
  return { amount: BigInt(row?.amount ?? "0"), fees: BigInt(row?.fees ?? "0") };
}
const sumReservationsQuery = defineQuery("qc_sum_source_reservations", (db) =>
  db
    .select({
      amount: sql<string>`coalesce(sum(${transactions.amount}) filter (where ${transactions.assetId} = ${sql.placeholder("assetId")}), 0)::text`,
      fees: sql<string>`coalesce(sum(${transactions.gasLimit} * ${transactions.maxFeePerGas}), 0)::text`,
    })
    .from(transactions)
    .where(
      and(ofSource, inArray(transactions.status, [...RESERVING_STATUSES]), sql`${transactions.id} <> ${sql.placeholder("excludeId")}`),
    ),
);

/** The source's transfer that holds its nonce slot (PENDING_SIGNATURE or SIGNED), if any. */
export async function findNonceHoldingTransfer(
  db: Executor,
  params: TransferSource,
): Promise<Pick<TransactionRow, "id" | "status"> | undefined> {
  const [row] = await nonceHoldingQuery.on(db).execute(sourceValues(params));
  return row;
}
const nonceHoldingQuery = defineQuery("qc_find_nonce_holding_transfer", (db) =>
  db
    .select({ id: transactions.id, status: transactions.status })
    .from(transactions)
    .where(and(ofSource, inArray(transactions.status, [...NONCE_HOLDING_STATUSES])))
    .limit(1),
);

/**
 * The source's oldest transfer (UUIDv7: first created) in one of `statuses`, if any. With QUEUED
 * it is the next to release; with SUBMITTED and QUEUED, the first of those still waiting for
 * their turn — release goes in creation order, so a transfer is released only when that is itself
 * and one whose checks finish first does not overtake an older one still in them.
 */
export async function findOldestTransferIn(
  db: Executor,
  params: TransferSource & { statuses: readonly ("SUBMITTED" | "QUEUED")[] },
): Promise<Pick<TransactionRow, "id" | "status"> | undefined> {
  const queued = params.statuses.includes("QUEUED");
  const submitted = params.statuses.includes("SUBMITTED");
  const query = queued && submitted ? oldestIn.both : queued ? oldestIn.queued : submitted ? oldestIn.submitted : undefined;
  if (!query) return undefined;
  const [row] = await query.on(db).execute(sourceValues(params));
  return row;
}
// One prepared statement per set of statuses (the type allows two values).
const oldestInQuery = (statuses: ("SUBMITTED" | "QUEUED")[]) =>
  defineQuery(`qc_find_oldest_transfer_in_${statuses.join("_").toLowerCase()}`, (db) =>
    db
      .select({ id: transactions.id, status: transactions.status })
      .from(transactions)
      .where(and(ofSource, inArray(transactions.status, statuses)))
      .orderBy(asc(transactions.id))
      .limit(1),
  );
const oldestIn = {
  queued: oldestInQuery(["QUEUED"]),
  submitted: oldestInQuery(["SUBMITTED"]),
  both: oldestInQuery(["QUEUED", "SUBMITTED"]),
};

/**
 * The highest nonce the source has used on chain through this service: transfers broadcast
 * (BROADCASTING, CONFIRMING, COMPLETED) or mined and reverted. Null when there is none.
 */
export async function findHighestBroadcastNonce(db: Executor, params: TransferSource): Promise<number | null> {
  const [row] = await highestNonceQuery.on(db).execute(sourceValues(params));
  return row?.nonce ?? null;
}
const highestNonceQuery = defineQuery("qc_find_highest_broadcast_nonce", (db) =>
  db
    .select({ nonce: sql<number | null>`max(${transactions.nonce})` })
    .from(transactions)
    .where(
      and(
        ofSource,
        isNotNull(transactions.nonce),
        or(
          inArray(transactions.status, ["BROADCASTING", "CONFIRMING", "COMPLETED"]),
          and(eq(transactions.status, "FAILED"), eq(transactions.subStatus, "REVERTED_ON_CHAIN")),
        ),
      ),
    ),
);
