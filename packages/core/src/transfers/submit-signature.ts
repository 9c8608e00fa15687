import { auditAction, type Actor } from "../audit/actor";
import type { ServiceDeps } from "../deps/service-deps";
import { AppError } from "../errors";
import { jobRequest } from "../transitions/run-transition";
import { expireTransaction } from "./expire-transaction";
import { failTransaction } from "./fail-transaction";
import { loadSigningContext } from "./load-signing-context";
import { toTransactionRecord } from "./transaction-record";
import type { TransactionRecord } from "../records/record-schemas";
import { transitionTransaction } from "./transition-transaction";
import { canonicalSignature, checkSigningRequest, verifyTransactionSignature } from "./verify-transaction-signature";

export interface SubmitSignatureInput {
  tenantId: string;
  transactionId: string;
  /** ML-DSA-87 signature, hex (4627 bytes), as the signer produced it. */
  signature: string;
  actor: Actor;
}

function notAwaitingSignature(status: string, extra: Record<string, unknown> = {}): AppError {
  return new AppError("INVALID_TRANSACTION_STATE", `the transaction is ${status}, not PENDING_SIGNATURE`, {
    details: { status, ...extra },
  });
}

/**
 * The signer's approval (CONTRACT §6): the signature must be ML-DSA-87, context `QUANTUM-TX-v1`,
 * by the source wallet's enrolled key, over the signing hash rebuilt from the stored intent.
 * Anything else (another key, another intent, another context, malformed hex) is 400
 * INVALID_SIGNATURE, audited, and the transaction stays PENDING_SIGNATURE. A valid one moves it
 * to SIGNED with the signature and enqueues the broadcast, in one transition. A second
 * submission, or one after the signing deadline, is 409 INVALID_TRANSACTION_STATE.
 */
export async function submitSignature(
  deps: Pick<ServiceDeps, "db" | "jobs" | "now" | "log" | "verifier">,
  input: SubmitSignatureInput,
): Promise<TransactionRecord> {
  const context = await loadSigningContext(deps.db, input);
  const row = context.transaction;
  if (row.status !== "PENDING_SIGNATURE") throw notAwaitingSignature(row.status);
  if (row.signingDeadline && deps.now() >= row.signingDeadline) {
    // The expiry job may not have run yet: the deadline is the rule, not the job.
    await expireTransaction(deps, { tenantId: input.tenantId, transactionId: input.transactionId });
    throw notAwaitingSignature("EXPIRED", { subStatus: "SIGNING_TIMEOUT" });
  }

  const check = checkSigningRequest(context);
  if (!check.ok) {
    deps.log.error({ transactionId: row.id, reason: check.reason }, "signing request does not match its intent: failed closed");
    await failTransaction(deps, {
      row,
      from: "PENDING_SIGNATURE",
      subStatus: "SIGNATURE_MISMATCH",
      reason: check.reason,
      actor: input.actor,
    });
    throw notAwaitingSignature("FAILED", { subStatus: "SIGNATURE_MISMATCH" });
  }

  const signature = canonicalSignature(input.signature);
  const valid =
    signature !== undefined &&
    (await verifyTransactionSignature(deps.verifier, { signingHash: check.rebuilt.signingHash, signature, publicKey: check.publicKey }));
  if (!valid) {
    await auditAction(deps.db, input.actor, {
      tenantId: input.tenantId,
      action: "transaction.signature_rejected",
      target: { type: "transaction", id: row.id },
      details: { reason: signature === undefined ? "malformed" : "does not verify", signingHash: check.rebuilt.signingHash },
    });
    throw new AppError(
      "INVALID_SIGNATURE",
      signature === undefined
        ? "the signature is not 4627 bytes of hex"
        : "the signature does not verify against the source wallet's key over the transaction's signing hash",
    );
  }

  const outcome = await transitionTransaction(deps, {
    tenantId: input.tenantId,
    transactionId: row.id,
    from: ["PENDING_SIGNATURE"],
    to: "SIGNED",
    set: { signature, signedAt: deps.now() },
    actor: input.actor,
    jobs: (moved) => [jobRequest("transfers.broadcast", { tenantId: moved.tenantId, transactionId: moved.id })],
  });
  if (!outcome.moved) {
    // Another submission (or a cancel, or the expiry) moved it between our read and our update.
    const now = await loadSigningContext(deps.db, input);
    throw notAwaitingSignature(now.transaction.status);
  }
  return toTransactionRecord(outcome.row);
}
