import { ServiceError } from "../service/service-client";
import type { SignerApi } from "../service/signer-api";
import { refuse } from "./read-pending-transaction";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * For a REPLACEMENT, the record of the transaction it replaces (`GET /v1/transactions/{id}`, which
 * the signer scope may read), to be compared with it; undefined for any other type. An original the
 * service does not show refuses: a speed-up of nothing known is not signed.
 */
export async function fetchOriginal(api: Pick<SignerApi, "record">, transaction: Record<string, unknown>): Promise<unknown> {
  if (transaction.type !== "REPLACEMENT") return undefined;
  const id = transaction.replacesTransactionId;
  if (typeof id !== "string" || !UUID.test(id))
    refuse("replacesTransactionId", "is not a transaction id: a REPLACEMENT names its original");
  try {
    return await api.record(id);
  } catch (error) {
    if (error instanceof ServiceError && error.status === 404)
      refuse(
        "replacesTransactionId",
        `names ${id}, which the service does not show (404): there is nothing to compare the replacement with`,
      );
    throw error;
  }
}
