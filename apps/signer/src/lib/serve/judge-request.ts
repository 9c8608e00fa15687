import type { Address } from "viem";
import type { BookEntry } from "../service/signer-api";
import type { ServeRules, SignableType } from "./rules";

/** What a verified signing request does, as the rules judge it. */
export type SigningIntent = {
  transactionId: string;
  type: SignableType;
  /** What it does: a transfer (or a transfer's speed-up), a deployment (or its speed-up), or a self-send that moves nothing. */
  kind: "TRANSFER" | "CONTRACT_DEPLOY" | "SELF_SEND";
  networkCode: string;
  /** null for what moves no asset (a deployment, a fill, a cancellation). */
  assetId: string | null;
  /** Base units moved: 0 for what moves no value. */
  amount: bigint;
  /** The source itself for a fill or a cancellation; null for a deployment. */
  destination: Address | null;
  /** A replacement's original: the same transfer, whose amount is counted once. */
  replacesTransactionId: string | null;
};

/** The rule that refused, as the decision line and the rejection's reason name it. */
export type RuleName = "types" | "destinations" | "maxAmountPerTransfer" | "dailyLimit";

export type Judgement = { decision: "SIGN"; counts: bigint } | { decision: "REJECT"; rule: RuleName; reason: string };

/** What the rules read besides the request: today's totals and, for `destinations: "ADDRESS_BOOK"`, the ACTIVE entries. */
export type JudgeContext = {
  signedToday(assetId: string): bigint;
  countedToday(transactionId: string): boolean;
  /** The tenant's ACTIVE address-book entries; read only when the rules name the address book. */
  addressBook: () => readonly BookEntry[];
};

const reject = (rule: RuleName, reason: string): Judgement => ({ decision: "REJECT", rule, reason });

/**
 * The rules of `signer serve` (CONTRACT §17) applied to a request already verified byte for byte:
 * its type (a speed-up's original kind too), then for what moves value its destination, its amount
 * against `maxAmountPerTransfer` and today's total against `dailyLimit` — an asset with no entry in
 * either is refused (fail closed). A fill or a cancellation moves nothing: it counts 0 and its
 * destination is the source itself. A replacement counts 0 when its original is already counted
 * today: it is the same transfer, and only one of the two can be mined.
 */
export function judgeRequest(rules: ServeRules, intent: SigningIntent, context: JudgeContext): Judgement {
  const listed = [...rules.types].join(", ");
  if (!rules.types.has(intent.type)) return reject("types", `type ${intent.type} is not among the rules' types (${listed})`);
  if (intent.type === "REPLACEMENT" && intent.kind !== "SELF_SEND" && !rules.types.has(intent.kind))
    return reject(
      "types",
      `a REPLACEMENT of a ${intent.kind} is judged as one, and ${intent.kind} is not among the rules' types (${listed})`,
    );
  if (intent.kind !== "TRANSFER") return { decision: "SIGN", counts: 0n };

  const { assetId, amount, destination } = intent;
  if (assetId === null || destination === null) return reject("destinations", "a transfer without an asset or a destination");
  const destinationRefused = refusedDestination(rules, intent.networkCode, destination, assetId, context);
  if (destinationRefused) return reject("destinations", destinationRefused);

  const max = rules.maxAmountPerTransfer.get(assetId.toLowerCase());
  if (max === undefined) return reject("maxAmountPerTransfer", `the rules set no maxAmountPerTransfer for asset ${assetId}`);
  if (amount > max) return reject("maxAmountPerTransfer", `amount ${amount} is above maxAmountPerTransfer ${max} for asset ${assetId}`);

  const counted =
    context.countedToday(intent.transactionId) ||
    (intent.replacesTransactionId !== null && context.countedToday(intent.replacesTransactionId));
  if (counted) return { decision: "SIGN", counts: 0n };
  const limit = rules.dailyLimit.get(assetId.toLowerCase());
  if (limit === undefined) return reject("dailyLimit", `the rules set no dailyLimit for asset ${assetId}`);
  const signed = context.signedToday(assetId);
  if (signed + amount > limit)
    return reject(
      "dailyLimit",
      `amount ${amount} on top of ${signed} signed today (UTC) is above dailyLimit ${limit} for asset ${assetId}`,
    );
  return { decision: "SIGN", counts: amount };
}

/** Why the destination is not allowed, or null when it is. */
function refusedDestination(
  rules: ServeRules,
  networkCode: string,
  destination: Address,
  assetId: string,
  context: JudgeContext,
): string | null {
  if (rules.destinations !== "ADDRESS_BOOK")
    return rules.destinations.has(destination) ? null : `destination ${destination} is not in the rules' destinations`;
  const entry = context
    .addressBook()
    .find(
      (candidate) =>
        candidate.status === "ACTIVE" &&
        candidate.networkCode === networkCode &&
        candidate.address.toLowerCase() === destination &&
        (candidate.assetIds === null || candidate.assetIds.some((id) => id.toLowerCase() === assetId.toLowerCase())),
    );
  return entry ? null : `destination ${destination} is not an ACTIVE address-book entry of ${networkCode} for asset ${assetId}`;
}
