import type { Address, Hex } from "viem";
import type { StoredKey } from "../keystore/format";
import { readDeployment } from "../review/read-deployment";
import { refuse } from "../review/read-pending-transaction";
import { isSelfSendType, readSelfSend } from "../review/read-self-send";
import { readTransfer } from "../review/read-transfer";
import { verifyDeploymentRequest } from "../review/verify-deployment-request";
import { verifySelfSendRequest } from "../review/verify-self-send";
import { verifySigningRequest } from "../review/verify-signing-request";
import type { Asset } from "../service/signer-api";
import type { SigningIntent } from "./judge-request";
import { SIGNABLE_TYPES, type SignableType } from "./rules";

/** A signing request verified as `review` verifies it: what it does, and what to sign it with. */
export type VerifiedRequest = {
  intent: SigningIntent;
  signable: { sourceKey: StoredKey; sourceAddress: Address; signingHash: Hex };
};

export type VerifyRequestDependencies = {
  findKey: (address: Address) => StoredKey | undefined;
  /** The assets of a network as the service lists them (`review`'s `GET /v1/assets`). */
  assetsOf: (networkCode: string) => Promise<readonly Asset[]>;
  /** A replacement's original, `GET /v1/transactions/{replacesTransactionId}` (fetchOriginal). */
  originalOf: (transaction: Record<string, unknown>) => Promise<unknown>;
};

/**
 * The rebuild-and-compare of `review`, for every type `serve` may sign: a transfer or a
 * deployment (and their REPLACEMENTs, compared with the original: only the fee caps may rise), a
 * NONCE_FILL or CANCELLATION (zero value from the source to itself). Refuses (ReviewRefusedError,
 * naming the field) exactly what `review` refuses; nothing here asks a person anything.
 */
export async function verifyRequest(transaction: Record<string, unknown>, deps: VerifyRequestDependencies): Promise<VerifiedRequest> {
  const type = transaction.type;
  if (!(SIGNABLE_TYPES as readonly unknown[]).includes(type)) refuse("type", `is ${String(type)}: not a type this signer signs`);
  const signableType = type as SignableType;
  const base = { transactionId: String(transaction.id), type: signableType, networkCode: String(transaction.networkCode) };

  if (isSelfSendType(type)) {
    const verified = verifySelfSendRequest(readSelfSend({ transaction, findKey: deps.findKey }));
    return {
      intent: { ...base, kind: "SELF_SEND", assetId: null, amount: 0n, destination: verified.sourceAddress, replacesTransactionId: null },
      signable: verified,
    };
  }
  const original = await deps.originalOf(transaction);
  if (type === "CONTRACT_DEPLOY" || (type === "REPLACEMENT" && transaction.deployment !== undefined)) {
    const verified = verifyDeploymentRequest(readDeployment({ transaction, findKey: deps.findKey, original }));
    return {
      intent: {
        ...base,
        kind: "CONTRACT_DEPLOY",
        assetId: null,
        amount: 0n,
        destination: null,
        replacesTransactionId: verified.replaces?.id ?? null,
      },
      signable: verified,
    };
  }
  const assets = await deps.assetsOf(base.networkCode);
  const verified = verifySigningRequest(readTransfer({ transaction, assets, findKey: deps.findKey, original }));
  return {
    intent: {
      ...base,
      kind: "TRANSFER",
      assetId: verified.asset.id,
      amount: verified.amount,
      destination: verified.destinationAddress,
      replacesTransactionId: verified.replaces?.id ?? null,
    },
    signable: verified,
  };
}
