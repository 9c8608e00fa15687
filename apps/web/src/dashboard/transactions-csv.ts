import { formatUnits, multiplyRaw } from "./amounts";
import { csvDocument } from "./csv";
import type { Asset, Transaction } from "./router-types";
import { STATUS_PHRASE_TABLES } from "./vocabulary";

/**
 * The transactions list as a CSV file: every transaction matching the list's filters, read page by
 * page through the same `transactions.list` procedure the table reads (so the file and the table
 * cannot disagree on a filter), at most CSV_MAX_ROWS of them (docs/dashboard.md, "Lists: filters,
 * pages, CSV").
 */
export const CSV_MAX_ROWS = 10_000;
/** The API's largest page (CONTRACT §1): 50 round trips for the largest file. */
export const CSV_PAGE_SIZE = 200;

export const TRANSACTIONS_CSV_HEADER = [
  "id",
  "createdAt",
  "status",
  "statusInWords",
  "subStatus",
  "type",
  "direction",
  "network",
  "asset",
  "amount",
  "amountBaseUnits",
  "source",
  "destination",
  "txHash",
  "maxFee",
  "maxFeeBaseUnits",
  "externalId",
  "note",
] as const;

/**
 * One transaction's record. `amount` has the asset's decimals applied (empty when the tenant has
 * no asset for a deposited token: `amountBaseUnits` is always there); `maxFee` is the most the
 * fee can cost (gas limit × max fee per gas) in the network's native asset, empty until the fee
 * caps are set.
 */
export function transactionCsvRecord(tx: Transaction, assetsById: ReadonlyMap<string, Asset>, assets: readonly Asset[]): string[] {
  const asset = tx.assetId ? assetsById.get(tx.assetId) : undefined;
  const native = assets.find((a) => a.kind === "NATIVE" && a.networkCode === tx.networkCode);
  const maxFeeRaw = tx.fee ? multiplyRaw(tx.fee.gasLimit, tx.fee.maxFeePerGas) : "";
  return [
    tx.id,
    tx.createdAt,
    tx.status,
    STATUS_PHRASE_TABLES.transaction[tx.status],
    tx.subStatus ?? "",
    tx.type,
    tx.direction,
    tx.networkCode,
    asset?.symbol ?? tx.tokenAddress ?? "",
    asset ? formatUnits(tx.amount, asset.decimals) : "",
    tx.amount,
    tx.sourceAddress,
    tx.destinationAddress ?? "",
    tx.chainTxHash ?? "",
    maxFeeRaw && native ? formatUnits(maxFeeRaw, native.decimals) : "",
    maxFeeRaw,
    tx.externalId ?? "",
    tx.note ?? "",
  ];
}

export function transactionsCsv(transactions: readonly Transaction[], assets: readonly Asset[]): string {
  const byId = new Map(assets.map((asset) => [asset.id, asset]));
  return csvDocument(
    TRANSACTIONS_CSV_HEADER,
    transactions.map((tx) => transactionCsvRecord(tx, byId, assets)),
  );
}

/** More rows match than a file holds: nothing is written, and the person narrows the filters. */
export class TooManyRowsError extends Error {
  constructor(readonly maxRows: number) {
    super(`More than ${maxRows.toLocaleString("en-GB")} transactions match these filters; narrow them (a date range) and export again.`);
    this.name = "TooManyRowsError";
  }
}

/**
 * Every item of a cursor-paged list (CONTRACT §1), page after page until `hasMore` is false. Stops
 * with TooManyRowsError as soon as more than `maxRows` are read, so memory stays bounded by
 * `maxRows` plus one page whatever the tenant holds.
 */
export async function readAllPages<Item>(
  readPage: (cursor: string | undefined) => Promise<{ items: Item[]; page: { nextCursor: string | null; hasMore: boolean } }>,
  maxRows: number,
): Promise<Item[]> {
  const items: Item[] = [];
  let cursor: string | undefined;
  for (;;) {
    const { items: pageItems, page } = await readPage(cursor);
    items.push(...pageItems);
    if (items.length > maxRows) throw new TooManyRowsError(maxRows);
    if (!page.hasMore || !page.nextCursor) return items;
    cursor = page.nextCursor;
  }
}
