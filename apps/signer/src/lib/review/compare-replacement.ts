import { isAddressInput, parseAddress } from "@qc/chain";
import { z } from "zod";
import { ReviewRefusedError, type ReviewDifference } from "../errors";
import { recordIntentShape, uint256 } from "../service/schemas";
import { formatQwei } from "./format-amount";
import { printableText } from "./printable-text";
import type { DisplayedFee } from "./read-pending-transaction";

/** The types a REPLACEMENT may take the nonce of: what a speed-up starts from (a speed-up of a speed-up included). */
const REPLACEABLE_TYPES = ["TRANSFER", "CONTRACT_DEPLOY", "REPLACEMENT"] as const;

/** `GET /v1/transactions/{id}` of a replacement's original: the fields a speed-up must keep. */
export const originalRecordSchema = z.looseObject({
  ...recordIntentShape,
  sourceWalletId: z.string().nullable().optional(),
  nonce: z.union([z.number().int().nonnegative(), z.string().regex(/^(0|[1-9][0-9]{0,15})$/)]).nullable(),
  fee: z.object({ gasLimit: uint256, maxFeePerGas: uint256, maxPriorityFeePerGas: uint256 }).nullable(),
  deployment: z.looseObject({ templateId: z.string(), constructorArgs: z.record(z.string(), z.unknown()) }).optional(),
});
export type OriginalRecord = z.infer<typeof originalRecordSchema>;

/** What a replacement's record states, beside its signing request. */
export type ReplacementRecord = {
  type: string;
  replacesTransactionId?: unknown;
  networkCode: string;
  chainId: number;
  sourceAddress: string;
  sourceWalletId?: unknown;
  destinationAddress: string | null;
  assetId: string | null;
  amount: string;
  nonce: number | string;
  fee: { gasLimit: string; maxFeePerGas: string; maxPriorityFeePerGas: string };
  deployment?: unknown;
};

/** The original a REPLACEMENT was checked against, and the fee caps it raises. */
export type ReplacedOriginal = { id: string; type: string; status: string; fee: DisplayedFee };

const address = (value: unknown): string | null =>
  typeof value === "string" && isAddressInput(value) ? parseAddress(value) : value === null ? null : String(value);

/** JSON with sorted keys: constructor arguments compared by value, whatever their order. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "undefined";
}

/**
 * CONTRACT §17: a REPLACEMENT (a speed-up) is the same transaction as its original with higher
 * fee caps, and nothing else. Compares the replacement's record with the original's, as the
 * service returns it (`GET /v1/transactions/{replacesTransactionId}`): chain, source, nonce,
 * destination, asset, amount, deployment template and arguments, gas limit; then each fee cap must
 * be higher than the original's (a priority fee of 0 may stay 0). Any difference refuses, naming
 * every field at fault. The replacement's own bytes are compared with its record by the transfer's
 * or deployment's rebuild, so together nothing but the fees can differ from what was signed before.
 */
export function compareReplacement(replacement: ReplacementRecord, originalInput: unknown): ReplacedOriginal {
  const replaces = replacement.replacesTransactionId;
  if (replacement.type !== "REPLACEMENT")
    throw new ReviewRefusedError([{ field: "type", reason: `is ${replacement.type}, not REPLACEMENT` }]);
  if (typeof replaces !== "string" || replaces.length === 0)
    throw new ReviewRefusedError([
      { field: "replacesTransactionId", reason: "is missing: a REPLACEMENT names the transaction it replaces" },
    ]);
  const parsed = originalRecordSchema.safeParse(originalInput);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ReviewRefusedError([
      {
        field: "replacesTransactionId",
        reason: `the original's record is malformed (${issue?.path.join(".") ?? ""}: ${issue?.message ?? "invalid"})`,
      },
    ]);
  }
  const original = parsed.data;
  const found: ReviewDifference[] = [];
  const differ = (field: string, theirs: unknown, ours: unknown) =>
    found.push({
      field,
      reason: `differs from the original ${printableText(replaces, 64)}: it has ${printableText(String(ours), 120)}, the replacement ${printableText(String(theirs), 120)}`,
    });
  if (original.id !== replaces) differ("replacesTransactionId", replaces, `the id ${original.id}`);
  if (!(REPLACEABLE_TYPES as readonly string[]).includes(original.type))
    found.push({ field: "replacesTransactionId", reason: `names a ${original.type}, which a REPLACEMENT cannot replace` });
  if (replacement.networkCode !== original.networkCode) differ("networkCode", replacement.networkCode, original.networkCode);
  if (replacement.chainId !== original.chainId) differ("chainId", replacement.chainId, original.chainId);
  if (address(replacement.sourceAddress) !== address(original.sourceAddress))
    differ("sourceAddress", replacement.sourceAddress, original.sourceAddress);
  if (
    replacement.sourceWalletId !== undefined &&
    original.sourceWalletId !== undefined &&
    replacement.sourceWalletId !== original.sourceWalletId
  )
    differ("sourceWalletId", replacement.sourceWalletId, original.sourceWalletId);
  if (original.nonce === null || String(replacement.nonce) !== String(original.nonce)) differ("nonce", replacement.nonce, original.nonce);
  if (address(replacement.destinationAddress) !== address(original.destinationAddress))
    differ("destinationAddress", replacement.destinationAddress, original.destinationAddress);
  if (replacement.assetId !== original.assetId) differ("assetId", replacement.assetId, original.assetId);
  if (replacement.amount !== original.amount) differ("amount", replacement.amount, original.amount);
  if (canonicalJson(replacement.deployment ?? null) !== canonicalJson(original.deployment ?? null))
    found.push({
      field: "deployment",
      reason: `differs from the original ${printableText(replaces, 64)}'s template or constructor arguments`,
    });
  const fee = original.fee;
  if (fee === null) {
    found.push({ field: "fee", reason: `the original ${printableText(replaces, 64)} has no fee caps: it was never released` });
  } else {
    if (replacement.fee.gasLimit !== fee.gasLimit) differ("fee.gasLimit", replacement.fee.gasLimit, fee.gasLimit);
    raised(found, "fee.maxFeePerGas", BigInt(replacement.fee.maxFeePerGas), BigInt(fee.maxFeePerGas));
    raised(found, "fee.maxPriorityFeePerGas", BigInt(replacement.fee.maxPriorityFeePerGas), BigInt(fee.maxPriorityFeePerGas));
  }
  if (found.length > 0) throw new ReviewRefusedError(found);
  return {
    id: original.id,
    type: original.type,
    status: original.status,
    fee: {
      gasLimit: BigInt(fee!.gasLimit),
      maxFeePerGas: BigInt(fee!.maxFeePerGas),
      maxPriorityFeePerGas: BigInt(fee!.maxPriorityFeePerGas),
    },
  };
}

/** A fee cap of the replacement must be higher than the original's (0 may stay 0): a speed-up never pays less. */
function raised(found: ReviewDifference[], field: string, replacement: bigint, original: bigint): void {
  if (replacement > original || (replacement === 0n && original === 0n)) return;
  found.push({
    field,
    reason: `is ${formatQwei(replacement)}, not higher than the original's ${formatQwei(original)}: a replacement only raises the fee caps`,
  });
}
