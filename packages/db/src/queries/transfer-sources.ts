import { NONCE_HOLDING_STATUSES, NONCE_TAKING_ENDS, NONCE_TAKING_STATUSES, RESERVING_STATUSES } from "@qc/domain";
import { and, asc, eq, inArray, isNotNull, isNull, or, sql } from "drizzle-orm";
import type { Executor } from "../client";
import { defineQuery, defineStatement } from "../hot-path/define-query";
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

/**
 * How many of the source's NONCE_WINDOW slots are taken: its transactions between release and
 * mining (NONCE_HOLDING_STATUSES) that hold a nonce of their own — a REPLACEMENT or CANCELLATION
 * shares its original's nonce and takes no slot (CONTRACT §17).
 */
export async function countNonceWindow(db: Executor, params: TransferSource): Promise<number> {
  const [row] = await nonceWindowQuery.on(db).execute(sourceValues(params));
  return row?.holding ?? 0;
}
const holdsWindowSlot = and(inArray(transactions.status, [...NONCE_HOLDING_STATUSES]), isNull(transactions.replacesTransactionId));
const nonceWindowQuery = defineQuery("qc_count_nonce_window", (db) =>
  db
    .select({ holding: sql<number>`count(*)::int` })
    .from(transactions)
    .where(and(ofSource, holdsWindowSlot)),
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
 * Of `sources`, those with a transfer waiting in QUEUED, in one statement (each served by
 * transactions_source_status_idx): the sources a freed window slot can release something for.
 */
export async function findSourcesWithQueued(db: Executor, sources: readonly TransferSource[]): Promise<TransferSource[]> {
  if (sources.length === 0) return [];
  const { rows } = await sourcesWithQueuedStatement.on(db).execute({
    tenantIds: sources.map((source) => source.tenantId),
    walletIds: sources.map((source) => source.sourceWalletId),
    networkCodes: sources.map((source) => source.networkCode),
  });
  return rows.map((row) => ({ tenantId: row.tenant_id, sourceWalletId: row.source_wallet_id, networkCode: row.network_code }));
}
const sourcesWithQueuedStatement = defineStatement<{
  tenant_id: string;
  source_wallet_id: string;
  network_code: TransactionNetworkCode;
}>(
  "qc_find_sources_with_queued",
  () => sql`
    select distinct s.tenant_id, s.source_wallet_id, s.network_code
    from unnest(${sql.placeholder("tenantIds")}::uuid[], ${sql.placeholder("walletIds")}::uuid[], ${sql.placeholder("networkCodes")}::network_code[])
      as s(tenant_id, source_wallet_id, network_code)
    where exists (
      select 1 from ${transactions}
      where ${transactions.sourceWalletId} = s.source_wallet_id and ${transactions.networkCode} = s.network_code
        and ${transactions.status} = 'QUEUED' and ${transactions.tenantId} = s.tenant_id
    )`,
);

/** What the release of a source reads about its nonces under the wallet lock (`findSourceNonces`). */
export interface SourceNonces {
  /**
   * The lowest nonce that may be free: the chain's floor as given (the node's pending nonce), and
   * never at or below a nonce this service saw used on chain (mined, or used by a mined sibling).
   */
  floor: number;
  /** NONCE_WINDOW slots taken (`countNonceWindow`). */
  holding: number;
  /** The nonces at or above `floor` that a row of the source holds or used (NONCE_TAKING_STATUSES, NONCE_TAKING_ENDS), ascending. */
  taken: number[];
  /** Whether a transfer of the source waits in QUEUED (a release that leaves it there enqueues release-next). */
  queued: boolean;
}

/**
 * The source's nonce state in one statement (docs/transfers.md, "The nonce rule"): its floor, its
 * window slots taken, the nonces taken at or above the floor, and whether a transfer waits QUEUED. `chainFloor` null: the floor the
 * database alone knows (1 + the highest nonce used on chain), for a look that asks the chain only
 * when there may be a gap. Served by transactions_source_nonce_idx (the highest used nonce read
 * backwards from the top, the taken nonces from the floor up: the window, never the history) and
 * transactions_source_status_idx (the slots).
 */
export async function findSourceNonces(db: Executor, params: TransferSource & { chainFloor: number | null }): Promise<SourceNonces> {
  const { rows } = await sourceNoncesStatement.on(db).execute({ ...sourceValues(params), chainFloor: params.chainFloor });
  const row = rows[0];
  return {
    floor: Number(row?.floor ?? params.chainFloor ?? 0),
    holding: Number(row?.holding ?? 0),
    taken: (row?.taken ?? []).map(Number),
    queued: row?.queued === true,
  };
}
const isNonceTaking = or(
  inArray(transactions.status, [...NONCE_TAKING_STATUSES]),
  ...NONCE_TAKING_ENDS.map(([status, subStatus]) => and(eq(transactions.status, status), eq(transactions.subStatus, subStatus))),
);
const isUsedOnChain = or(
  inArray(transactions.status, ["CONFIRMING", "COMPLETED"]),
  ...NONCE_TAKING_ENDS.map(([status, subStatus]) => and(eq(transactions.status, status), eq(transactions.subStatus, subStatus))),
);
const sourceNoncesStatement = defineStatement<{ floor: number; holding: number; taken: (number | string)[] | null; queued: boolean }>(
  "qc_find_source_nonces",
  () => sql`
    with floor as (
      select greatest(${sql.placeholder("chainFloor")}::int, coalesce(max(${transactions.nonce}) + 1, 0)) as n
      from ${transactions}
      where ${ofSource} and ${isNotNull(transactions.nonce)} and ${isUsedOnChain}
    )
    select floor.n as floor,
      (select count(*)::int from ${transactions} where ${ofSource} and ${holdsWindowSlot}) as holding,
      (select array_agg(distinct ${transactions.nonce} order by ${transactions.nonce}) from ${transactions}
        where ${ofSource} and ${transactions.nonce} >= floor.n and ${isNonceTaking}) as taken,
      exists (select 1 from ${transactions} where ${ofSource} and ${eq(transactions.status, "QUEUED")}) as queued
    from floor`,
);

/** The lowest nonce at or above the source's floor that no row takes: what the next release gets. */
export function lowestFreeNonce(nonces: Pick<SourceNonces, "floor" | "taken">): number {
  const taken = new Set(nonces.taken);
  let nonce = nonces.floor;
  while (taken.has(nonce)) nonce++;
  return nonce;
}

/** The free nonces below the highest taken one: gaps the source's later transactions wait behind. */
export function nonceGaps(nonces: Pick<SourceNonces, "floor" | "taken">): number[] {
  const taken = new Set(nonces.taken);
  const highest = nonces.taken.at(-1);
  const gaps: number[] = [];
  if (highest === undefined) return gaps;
  for (let nonce = nonces.floor; nonce < highest; nonce++) if (!taken.has(nonce)) gaps.push(nonce);
  return gaps;
}
