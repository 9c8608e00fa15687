import { isAddressInput, isNetworkCode, NATIVE_CURRENCY, parseAddress } from "@qc/chain";
import { formatUnits } from "viem";
import type { z } from "zod";
import { pendingTransactionSchema, type Asset, type PendingTransaction } from "../service/signer-api";
import { printableText } from "./printable-text";

export type TransactionSummary = {
  id: string;
  createdAt: string;
  networkCode: string;
  /** `1.5 Q`, or the base units with `?` when the asset is unknown. */
  amount: string;
  destination: string;
  source: string;
  malformed: boolean;
};

/** The fields of a record a summary shows. */
export type SummarizedRecord = Pick<
  PendingTransaction,
  "type" | "networkCode" | "sourceAddress" | "destinationAddress" | "assetId" | "amount" | "createdAt"
>;

/**
 * One line's worth of a pending transaction for `pending`, `approvals` and `watch`, read with
 * `schema` (the list's record shape; a signing request's by default). It only lists; the verdict
 * on what may be signed or approved is `review`'s and `approve`'s alone, so a malformed record is
 * shown as such rather than refused here.
 */
export function summarizeTransaction(
  transaction: Record<string, unknown>,
  assets: readonly Asset[],
  schema: z.ZodType<SummarizedRecord> = pendingTransactionSchema,
): TransactionSummary {
  const id = printableText(String(transaction.id ?? "?"), 64);
  const parsed = schema.safeParse(transaction);
  if (!parsed.success) {
    return { id, createdAt: "", networkCode: "", amount: "", destination: "", source: "", malformed: true };
  }
  const tx = parsed.data;
  const asset = assets.find((a) => a.id === tx.assetId && a.networkCode === tx.networkCode);
  const native = asset?.kind === "NATIVE" && isNetworkCode(tx.networkCode);
  const selfSend = tx.type === "NONCE_FILL" || tx.type === "CANCELLATION";
  const amount =
    tx.type === "CONTRACT_DEPLOY" || selfSend
      ? `0 ${NATIVE_CURRENCY.symbol}`
      : !asset
        ? `${tx.amount} base units of an unknown asset`
        : native
          ? `${formatUnits(BigInt(tx.amount), NATIVE_CURRENCY.decimals)} ${NATIVE_CURRENCY.symbol}`
          : `${formatUnits(BigInt(tx.amount), asset.decimals)} ${printableText(asset.symbol, 32)}`;
  const address = (value: string | null) => (value && isAddressInput(value) ? parseAddress(value) : printableText(String(value), 64));
  return {
    id,
    createdAt: printableText(tx.createdAt ?? "", 40),
    networkCode: printableText(tx.networkCode, 40),
    amount,
    // A deployment has no destination: the line names what it creates instead. A fill or a
    // cancellation is sent to the source itself; a replacement names what it speeds up.
    destination:
      tx.type === "CONTRACT_DEPLOY" || (tx.type === "REPLACEMENT" && transaction.deployment !== undefined)
        ? `a new contract (${deployedTemplate(transaction)})${replacing(transaction)}`
        : selfSend
          ? `itself (${selfSendPurpose(transaction, tx.type)})`
          : `${address(tx.destinationAddress)}${replacing(transaction)}`,
    source: address(tx.sourceAddress),
    malformed: false,
  };
}

/** A speed-up's note: the transaction it replaces, at higher fees. */
function replacing(transaction: Record<string, unknown>): string {
  if (transaction.type !== "REPLACEMENT") return "";
  return ` (REPLACEMENT of ${printableText(String(transaction.replacesTransactionId), 64)}: the same, with higher fee caps)`;
}

function selfSendPurpose(transaction: Record<string, unknown>, type: string): string {
  if (type === "NONCE_FILL") return `NONCE_FILL of nonce ${printableText(String(transaction.nonce), 20)}`;
  return `CANCELLATION of ${printableText(String(transaction.replacesTransactionId), 64)}`;
}

function deployedTemplate(transaction: Record<string, unknown>): string {
  const templateId = (transaction.deployment as { templateId?: unknown } | undefined)?.templateId;
  return typeof templateId === "string" ? `template ${printableText(templateId, 64)}` : "unknown template";
}
