import { z } from "zod";
import { pageSchema } from "./schemas";
import type { ServiceClient } from "./service-client";

export const LIST_LIMIT = 200;
/** A runaway cursor chain (a broken or hostile service) stops here instead of looping. */
export const MAX_PAGES = 100;

const transactionListSchema = z.looseObject({
  transactions: z.array(z.looseObject({ id: z.string() })),
  page: pageSchema.optional(),
});

/**
 * Every transaction of a list route (`GET /v1/signer/transactions`, `GET /v1/approvals`), as the
 * service returns them, following the cursor (all pages up to MAX_PAGES, or the first `pages`).
 */
export async function listTransactions(
  client: ServiceClient,
  route: string,
  filter: Record<string, string>,
  options: { pages?: number } = {},
): Promise<{ transactions: Record<string, unknown>[] }> {
  const transactions: Record<string, unknown>[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < Math.min(options.pages ?? MAX_PAGES, MAX_PAGES); pages += 1) {
    const query = new URLSearchParams({ ...filter, limit: String(LIST_LIMIT) });
    if (cursor) query.set("cursor", cursor);
    const answer = await client.send("GET", `${route}?${query}`, transactionListSchema);
    transactions.push(...answer.transactions);
    if (!answer.page?.hasMore || !answer.page.nextCursor) break;
    cursor = answer.page.nextCursor;
  }
  return { transactions };
}
