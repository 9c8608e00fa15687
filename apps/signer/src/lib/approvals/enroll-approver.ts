import { signApproverKeyProof } from "@qc/chain";
import { SignerError } from "../errors";
import type { StoredApprovalKey } from "../keystore/format";
import type { UnlockedKeystore } from "../keystore/keystore";
import { isDefiniteRefusal } from "../service/outcome";
import type { SignerApi } from "../service/signer-api";
import { approvalSecretKeyOf, newApprovalKeyMaterial } from "./approval-key";

export type EnrollApproverParameters = {
  keystore: UnlockedKeystore;
  api: Pick<SignerApi, "me" | "approvalKeys" | "enrollApprovalKey">;
  tenantId: string;
};

export type EnrollApproverResult = {
  keyId: string;
  userId: string;
  publicKey: string;
  /** The key was left pending by an earlier, interrupted run, and is the one enrolled now. */
  resumed: boolean;
};

/**
 * Makes an approval key (CONTRACT §15) for the member the API key belongs to and enrolls it with
 * its proof of possession: an ML-DSA-87 signature, context `QUANTUM-APPROVER-KEY-v1`, over
 * keccak256(`QUANTUM-APPROVER-KEY-v1\n<tenantId>\n<userId>`). As `enroll` does for pool keys:
 *
 * 1. the key is written to the keystore first, PENDING_ENROLLMENT, so the service never holds a
 *    public key whose secret is not on this disk;
 * 2. it becomes ENROLLED, with the service's keyId, only on the service's 201;
 * 3. a refusal (4xx) removes it again; an unknown outcome (network, 5xx) keeps it pending, and
 *    the next run finishes that key first: it looks it up in the member's enrolled keys, and
 *    sends it again only when the service does not have it.
 */
export async function enrollApprover({ keystore, api, tenantId }: EnrollApproverParameters): Promise<EnrollApproverResult> {
  const { userId } = await api.me();
  const pending = keystore.approvalKeys.find(
    (key) => key.status === "PENDING_ENROLLMENT" && key.tenantId === tenantId && key.userId === userId,
  );
  let key: StoredApprovalKey;
  if (pending) {
    key = pending;
    const known = (await api.approvalKeys()).find((record) => record.publicKey.toLowerCase() === pending.publicKey);
    if (known) return { ...(await markEnrolled(keystore, key, known.keyId)), userId, resumed: true };
  } else {
    key = { ...newApprovalKeyMaterial(), keyId: null, status: "PENDING_ENROLLMENT", tenantId, userId, createdAt: now(), acceptedAt: null };
    await keystore.update((contents) => void contents.approvalKeys.push(key));
  }

  let answer: { keyId: string; publicKey: string };
  try {
    answer = await api.enrollApprovalKey({ publicKey: key.publicKey, proof: proofOf(key, tenantId, userId) });
  } catch (error) {
    if (isDefiniteRefusal(error)) {
      await keystore.update((contents) => {
        contents.approvalKeys = contents.approvalKeys.filter((stored) => stored.publicKey !== key.publicKey);
      });
      throw error;
    }
    throw new SignerError(
      `${(error as Error).message}; the approval key may have reached the service: it is kept as PENDING_ENROLLMENT and \`signer enroll-approver\` finishes it`,
      { cause: error },
    );
  }
  if (answer.publicKey.toLowerCase() !== key.publicKey) {
    throw new SignerError(
      "the service answered the enrollment with another public key than the one sent; the key stays PENDING_ENROLLMENT",
    );
  }
  return { ...(await markEnrolled(keystore, key, answer.keyId)), userId, resumed: pending !== undefined };
}

async function markEnrolled(
  keystore: UnlockedKeystore,
  key: StoredApprovalKey,
  keyId: string,
): Promise<{ keyId: string; publicKey: string }> {
  const acceptedAt = now();
  await keystore.update((contents) => {
    for (const stored of contents.approvalKeys) {
      if (stored.publicKey === key.publicKey) Object.assign(stored, { status: "ENROLLED", keyId, acceptedAt });
    }
  });
  return { keyId, publicKey: key.publicKey };
}

function proofOf(key: StoredApprovalKey, tenantId: string, userId: string): string {
  const secretKey = approvalSecretKeyOf(key);
  try {
    return signApproverKeyProof({ tenantId, userId, secretKey });
  } finally {
    secretKey.fill(0);
  }
}

const now = () => new Date().toISOString();
