import { SignerError } from "../lib/errors";
import { ServiceError } from "../lib/service/service-client";
import type { SignerApi } from "../lib/service/signer-api";

/**
 * The transaction `id` from a list of what waits for this signer (signatures, or approvals), or a
 * refusal that says why it is not there: unknown, or in which status it is.
 */
export async function findListed(
  api: Pick<SignerApi, "transaction">,
  id: string,
  list: () => Promise<{ transactions: Record<string, unknown>[] }>,
  waitingFor: string,
): Promise<Record<string, unknown>> {
  const { transactions } = await list();
  const found = transactions.find((transaction) => transaction.id === id);
  if (found) return found;
  let status: string;
  try {
    status = (await api.transaction(id)).status;
  } catch (error) {
    if (error instanceof ServiceError && error.status === 404) throw new SignerError(`no transaction ${id} is waiting for ${waitingFor}`);
    throw error;
  }
  throw new SignerError(`transaction ${id} is not waiting for ${waitingFor} (status ${status})`);
}
