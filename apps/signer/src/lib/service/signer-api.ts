import { z } from "zod";
import { approvalsApi } from "./approvals-api";
import { listTransactions, LIST_LIMIT, MAX_PAGES } from "./list-transactions";
import { hex32, pageSchema as page, recordIntentShape, TRANSACTION_TYPES, uint256 } from "./schemas";
import type { ServiceClient } from "./service-client";

/**
 * The routes the signer calls, with the shapes CONTRACT §4–§6 give their answers. The signer is
 * the customer's program and depends on no package of the service but the chain protocol
 * (@qc/chain), so the two closed lists it reads (transaction types, asset kinds) are spelled here;
 * signer-api.test.ts holds them equal to the service's vocabulary (@qc/domain, via the db enums).
 */

export { TRANSACTION_TYPES };
export const ASSET_KINDS = ["NATIVE", "TOKEN"] as const;

export const signingRequestSchema = z.object({
  unsignedTransaction: z.string().regex(/^0x([0-9a-fA-F]{2})*$/, "must be 0x-prefixed hex"),
  signingHash: hex32,
  descriptor: z.string(),
  context: z.string(),
});
export type SigningRequest = z.infer<typeof signingRequestSchema>;

/** A transaction awaiting signature: the record of CONTRACT §6 plus its signing request. */
export const pendingTransactionSchema = z.looseObject({
  ...recordIntentShape,
  // A JSON number in the record; a decimal string is accepted too (it is exact either way).
  nonce: z.union([z.number().int().nonnegative(), z.string().regex(/^(0|[1-9][0-9]{0,15})$/)]),
  fee: z.object({ gasLimit: uint256, maxFeePerGas: uint256, maxPriorityFeePerGas: uint256 }),
  signingRequest: signingRequestSchema,
});
export type PendingTransaction = z.infer<typeof pendingTransactionSchema>;

export const assetSchema = z.looseObject({
  id: z.string(),
  networkCode: z.string(),
  kind: z.enum(ASSET_KINDS),
  symbol: z.string(),
  name: z.string().nullable().optional(),
  decimals: z.number().int().min(0).max(77),
  contractAddress: z.string().nullable(),
});
export type Asset = z.infer<typeof assetSchema>;

const transactionStatusSchema = z.looseObject({ id: z.string(), status: z.string(), subStatus: z.string().nullable().optional() });
export type TransactionStatus = z.infer<typeof transactionStatusSchema>;

export const walletSchema = z.looseObject({
  id: z.string(),
  vaultId: z.string(),
  type: z.string(),
  address: z.string(),
  status: z.string().optional(),
  label: z.string().nullable().optional(),
});
export type Wallet = z.infer<typeof walletSchema>;

/** An address-book entry (CONTRACT §16) as `serve`'s destination rule reads it; the other fields are not its concern. */
export const bookEntrySchema = z.looseObject({
  networkCode: z.string(),
  address: z.string(),
  assetIds: z.array(z.string()).nullable(),
  status: z.string(),
});
export type BookEntry = z.infer<typeof bookEntrySchema>;

function path(template: string, id: string): string {
  return template.replace("{id}", encodeURIComponent(id));
}

/** Every item of a paginated list (CONTRACT §1), up to MAX_PAGES pages. */
async function listAll<T extends z.ZodType>(
  client: ServiceClient,
  route: string,
  items: string,
  item: T,
  filter: Record<string, string> = {},
): Promise<z.infer<T>[]> {
  const schema = z.looseObject({ [items]: z.array(item), page: page.optional() });
  const all: z.infer<T>[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < MAX_PAGES; pages += 1) {
    const query = new URLSearchParams({ ...filter, limit: String(LIST_LIMIT) });
    if (cursor) query.set("cursor", cursor);
    const answer = (await client.send("GET", `${route}?${query}`, schema)) as { page?: z.infer<typeof page> } & Record<
      string,
      z.infer<T>[]
    >;
    all.push(...answer[items]!);
    if (!answer.page?.hasMore || !answer.page.nextCursor) break;
    cursor = answer.page.nextCursor;
  }
  return all;
}

export function signerApi(client: ServiceClient) {
  return {
    ...approvalsApi(client),

    /** The tenant an API key belongs to; proofs of ownership name it (CONTRACT §5). */
    async tenantId(): Promise<string> {
      const status = await client.send("GET", "/v1/onboarding/status", z.looseObject({ tenantId: z.string().min(1) }));
      return status.tenantId;
    },

    enrollKeys(keys: { publicKey: string; proof: string }[]) {
      return client.send(
        "POST",
        "/v1/signer/keys",
        z.looseObject({ enrolled: z.number().int(), skipped: z.number().int(), available: z.number().int(), assigned: z.number().int() }),
        { keys },
      );
    },

    keyCounts() {
      return client.send("GET", "/v1/signer/keys", z.looseObject({ available: z.number().int(), assigned: z.number().int() }));
    },

    registerWallet(vaultId: string, body: { address: string; publicKey: string; signature: string; label?: string }) {
      return client.send(
        "POST",
        path("/v1/vault/accounts/{id}/wallets", vaultId),
        z.looseObject({
          id: z.string(),
          vaultId: z.string(),
          address: z.string(),
          type: z.string(),
          label: z.string().nullable().optional(),
        }),
        body,
      );
    },

    /** Every transaction awaiting signature, as the service returns them (all pages, or the first `pages`). */
    pendingTransactions(options: { pages?: number } = {}): Promise<{ transactions: Record<string, unknown>[] }> {
      return listTransactions(client, "/v1/signer/transactions", { status: "PENDING_SIGNATURE" }, options);
    },

    /** Every transaction of one batch (CONTRACT §18), whatever its status, newest first as the service lists them. */
    batchTransactions(batchId: string): Promise<{ transactions: Record<string, unknown>[] }> {
      return listTransactions(client, "/v1/transactions", { batchId });
    },

    /** Every wallet of every vault the key can read (all pages of each list). */
    async wallets(): Promise<Wallet[]> {
      const vaults = await listAll(client, "/v1/vault/accounts", "vaults", z.looseObject({ id: z.string() }));
      const wallets: Wallet[] = [];
      for (const vault of vaults)
        wallets.push(...(await listAll(client, path("/v1/vault/accounts/{id}/wallets", vault.id), "wallets", walletSchema)));
      return wallets;
    },

    transaction(id: string): Promise<TransactionStatus> {
      return client.send("GET", path("/v1/transactions/{id}", id), transactionStatusSchema);
    },

    /** A transaction's whole record, unparsed (a replacement's original: `compareReplacement` judges it). */
    record(id: string): Promise<unknown> {
      return client.send("GET", path("/v1/transactions/{id}", id), z.unknown());
    },

    /** The tenant's ACTIVE address-book entries (CONTRACT §16), all pages: the fields `serve`'s destination rule reads. */
    activeAddressBook(): Promise<BookEntry[]> {
      return listAll(client, "/v1/address-book", "entries", bookEntrySchema, { status: "ACTIVE" });
    },

    /** The assets of one network (native and the tenant's tokens), all pages. */
    async assets(networkCode: string): Promise<Asset[]> {
      const assets: Asset[] = [];
      let cursor: string | null = null;
      for (let pages = 0; pages < MAX_PAGES; pages += 1) {
        const query = new URLSearchParams({ networkCode, limit: String(LIST_LIMIT) });
        if (cursor) query.set("cursor", cursor);
        const answer = await client.send(
          "GET",
          `/v1/assets?${query}`,
          z.looseObject({ assets: z.array(assetSchema), page: page.optional() }),
        );
        assets.push(...answer.assets);
        if (!answer.page?.hasMore || !answer.page.nextCursor) break;
        cursor = answer.page.nextCursor;
      }
      return assets;
    },

    submitSignature(id: string, signature: string): Promise<TransactionStatus> {
      return client.send("POST", path("/v1/signer/transactions/{id}/signature", id), transactionStatusSchema, { signature });
    },

    reject(id: string, reason: string): Promise<TransactionStatus> {
      return client.send("POST", path("/v1/signer/transactions/{id}/reject", id), transactionStatusSchema, { reason });
    },
  };
}
export type SignerApi = ReturnType<typeof signerApi>;
