import { createHash } from "node:crypto";
import { APPROVER_KEY_CONTEXT, approverKeyProofHash } from "@qc/chain";
import { isUniqueViolation } from "@qc/db";
import { APPROVAL_KEY_PUBLIC_KEY_UNIQUE, countActiveApprovalKeys, findTenantMember, insertApprovalKey } from "@qc/db/queries";
import { auditAction, type Actor } from "../../audit/actor";
import type { ServiceDeps } from "../../deps/service-deps";
import { AppError } from "../../errors";
import { toApprovalKeyRecord, type ApprovalKeyRecord, type CurrentMember } from "./approval-key-record";

/** Keys a member may have that are not revoked: a signer needs one, a rotation two. */
export const MAX_ACTIVE_APPROVAL_KEYS = 10;

export interface EnrollApprovalKeyInput extends CurrentMember {
  /** ML-DSA-87 public key: 2,592 bytes as hex, `0x` optional, any case. */
  publicKey: string;
  /** ML-DSA-87 signature, context QUANTUM-APPROVER-KEY-v1, over approverKeyProofHash(tenantId, userId). */
  proof: string;
  actor: Actor;
}

/**
 * `POST /v1/members/me/approval-keys` (CONTRACT §15): the caller's member enrolls an approval key
 * their signer holds. The proof binds the key to this member of this tenant; it is verified on the
 * verifier's threads before anything is written (400 INVALID_SIGNATURE when it does not verify).
 * A public key enrolled before, by anyone, is 409 CONFLICT; so is an eleventh key that is not
 * revoked. The member's row is locked FOR UPDATE meanwhile (the count holds; a removal waits).
 * Audited as `approval_key.enrolled` with the key's SHA-256.
 */
export async function enrollApprovalKey(
  deps: Pick<ServiceDeps, "db" | "now" | "verifier">,
  input: EnrollApprovalKeyInput,
): Promise<ApprovalKeyRecord> {
  const userId = input.userId;
  if (!userId) throw new AppError("NOT_FOUND", "this credential acts for no member of the tenant");
  const publicKey = `0x${input.publicKey.replace(/^0x/i, "").toLowerCase()}`;
  const proven = await deps.verifier.verify({
    publicKey,
    signature: input.proof,
    context: APPROVER_KEY_CONTEXT,
    signingHash: approverKeyProofHash(input.tenantId, userId),
  });
  if (!proven) {
    throw new AppError("INVALID_SIGNATURE", "the proof does not verify: sign approverKeyProofHash(tenantId, userId) with this key", {
      details: { reason: "PROOF_INVALID" },
    });
  }
  try {
    return await deps.db.transaction(async (tx) => {
      if (!(await findTenantMember(tx, { tenantId: input.tenantId, userId, lock: true })))
        throw new AppError("NOT_FOUND", "this credential acts for no member of the tenant");
      if ((await countActiveApprovalKeys(tx, { tenantId: input.tenantId, userId })) >= MAX_ACTIVE_APPROVAL_KEYS)
        throw new AppError("CONFLICT", `at most ${MAX_ACTIVE_APPROVAL_KEYS} approval keys per member: revoke one first`);
      const row = await insertApprovalKey(tx, { tenantId: input.tenantId, userId, publicKey, createdAt: deps.now() });
      await auditAction(tx, input.actor, {
        tenantId: input.tenantId,
        action: "approval_key.enrolled",
        target: { type: "approval_key", id: row.id },
        details: {
          userId,
          publicKeySha256: createHash("sha256")
            .update(Buffer.from(publicKey.slice(2), "hex"))
            .digest("hex"),
        },
      });
      return toApprovalKeyRecord(row);
    });
  } catch (error) {
    if (isUniqueViolation(error, APPROVAL_KEY_PUBLIC_KEY_UNIQUE)) throw new AppError("CONFLICT", "this public key is already enrolled");
    throw error;
  }
}
