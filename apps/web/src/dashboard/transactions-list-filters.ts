import type { TransactionType } from "@qc/domain";
import type { TransactionStatus } from "./router-types";

/** The list's filters in the address (`/transactions?status=…&from=2026-11-01`): the keys. */
export const LIST_FILTER_KEYS = ["status", "type", "walletId", "from", "to", "externalId"] as const;
export type ListFilterValues = Record<(typeof LIST_FILTER_KEYS)[number], string>;

/** What `transactions.list` takes for them, the page and page size aside. */
export type TransactionsListFilters = {
  status?: TransactionStatus;
  type?: TransactionType;
  walletId?: string;
  externalId?: string;
  createdFrom?: string;
  createdTo?: string;
};

const DAY_MS = 86_400_000;

/**
 * The address's filters as the API's: the dates are whole days in UTC, both included, so `from`
 * is that day's start and `to` the start of the day after (`createdTo` is exclusive). A malformed
 * date is passed on as typed, and the API's 400 says what is wrong with it.
 */
export function toListFilters(values: ListFilterValues): TransactionsListFilters {
  const day = (date: string) => (/^\d{4}-\d{2}-\d{2}$/.test(date) ? `${date}T00:00:00.000Z` : date);
  const dayAfter = (date: string) => {
    const start = Date.parse(day(date));
    return Number.isNaN(start) ? date : new Date(start + DAY_MS).toISOString();
  };
  return {
    ...(values.status ? { status: values.status as TransactionStatus } : {}),
    ...(values.type ? { type: values.type as TransactionType } : {}),
    ...(values.walletId ? { walletId: values.walletId } : {}),
    ...(values.externalId ? { externalId: values.externalId } : {}),
    ...(values.from ? { createdFrom: day(values.from) } : {}),
    ...(values.to ? { createdTo: dayAfter(values.to) } : {}),
  };
}
