import { randomUUID } from "node:crypto";
import { APPROVAL_CONTEXT, approvalHash, verifyApproval, verifyApproverKeyProof, type ApprovalFields } from "@qc/chain";
import { pendingTransfer, startSignerDouble, type SignerDouble, type TransferFields } from "./signer-double";

/**
 * The approval routes of CONTRACT §15, added to the signer's stand-in service (signer-double.ts),
 * for what the real service cannot be made to do: send an approval request that contradicts the
 * record it comes with. It verifies what the signer sends (the key's proof, the approval's
 * signature) as the service does, and records every POST.
 */

export type ApprovalTampering = {
  /** Replaces the service's approvalHash. */
  approvalHash?: string;
  /** Overrides some of approvalRequest.fields (the record keeps its own). */
  fields?: Partial<Record<keyof ApprovalFields, unknown>>;
  /** Overrides and the hash recomputed over them: a request consistent with itself, not with the record. */
  signedFields?: Partial<ApprovalFields>;
  context?: string;
};

type Refusal = { status: number; error: string; code: number; message: string };

export type ApprovalDouble = SignerDouble & {
  /** The member the double's API key belongs to. */
  userId: string;
  approvalKeys: { keyId: string; publicKey: string; createdAt: string }[];
  /** Makes the next decision about `transactionId` answer this error. */
  refuseDecision(transactionId: string, refusal: Refusal): void;
  /** Makes the next approval key enrollment fail with `status`, after enrolling the key anyway when `applied` (a lost answer). */
  failKeyEnrollment(options: { status: number; applied?: boolean }): void;
};

const AWAITING = "AWAITING_APPROVAL";

/** The approval fields of a record, exactly as the service hashes them. */
export function fieldsOf(record: Record<string, unknown>): ApprovalFields {
  return {
    tenantId: record.tenantId as string,
    transactionId: record.id as string,
    chainId: record.chainId as number,
    sourceAddress: record.sourceAddress as string,
    destinationAddress: record.destinationAddress as string | null,
    assetId: record.assetId as string | null,
    amount: record.amount as string,
    type: record.type as string,
  };
}

/**
 * A transfer awaiting approval (CONTRACT §15) with its approval request, built from `fields` as the
 * service builds it, or with `tamper` applied to the request only (the record still shows `fields`).
 */
export function awaitingApproval(fields: TransferFields, tenantId: string, tamper: ApprovalTampering = {}): Record<string, unknown> {
  // The record of a transfer not yet released for signing: no nonce, fee caps or signing request yet.
  const { signingRequest: _request, ...transfer } = pendingTransfer(fields);
  const record: Record<string, unknown> = {
    ...transfer,
    tenantId,
    status: AWAITING,
    nonce: null,
    fee: null,
    signingHash: null,
    initiatedBy: { type: "USER", userId: "0193a5c0-0000-7000-8000-0000000000e1", keyId: null },
    approvals: { required: [{ groupId: "0193a5c0-0000-7000-8000-0000000000c1", quorum: 2 }], decisions: [] },
  };
  const hashed = { ...fieldsOf(record), ...tamper.signedFields };
  record.approvalRequest = {
    approvalHash: tamper.approvalHash ?? approvalHash(hashed),
    context: tamper.context ?? APPROVAL_CONTEXT,
    fields: { ...hashed, ...tamper.fields },
  };
  return record;
}

export async function startApprovalDouble(): Promise<ApprovalDouble> {
  const userId = "0193a5c0-0000-7000-8000-0000000000e2";
  const approvalKeys: ApprovalDouble["approvalKeys"] = [];
  const refusals = new Map<string, Refusal>();
  let keyFailure: { status: number; applied: boolean } | undefined;
  const refuse = ({ status, error, code, message }: Refusal) => ({ status, body: { error, code, message, requestId: "double-request" } });

  // Answered only once `double` exists: the server is not called before the tests start.
  const double: SignerDouble = await startSignerDouble({ extraRoutes: (request) => routes(request) });
  const routes = ({ method, url, body }: { method: string; url: URL; body: any }) => {
    const { tenantId, transactions } = double;
    if (method === "GET" && url.pathname === "/v1/members/me") {
      return { status: 200, body: { userId, email: "approver@example.com", name: "Approver", role: "APPROVER", status: "ACTIVE" } };
    }
    if (method === "GET" && url.pathname === "/v1/members/me/approval-keys") return { status: 200, body: { keys: approvalKeys } };
    if (method === "POST" && url.pathname === "/v1/members/me/approval-keys") {
      const failure = keyFailure;
      keyFailure = undefined;
      const key = { keyId: randomUUID(), publicKey: body.publicKey as string, createdAt: new Date().toISOString() };
      if (failure?.applied) approvalKeys.push(key);
      if (failure) return refuse({ status: failure.status, error: "UNAVAILABLE", code: 1070, message: "the database is unavailable" });
      if (!verifyApproverKeyProof({ tenantId, userId, publicKey: body.publicKey, proof: body.proof })) {
        return refuse({ status: 400, error: "INVALID_SIGNATURE", code: 1202, message: "the proof does not verify" });
      }
      approvalKeys.push(key);
      return { status: 201, body: key };
    }
    if (method === "GET" && url.pathname === "/v1/approvals") {
      const pending = transactions.filter((t) => t.status === AWAITING);
      return { status: 200, body: { transactions: pending, page: { nextCursor: null, hasMore: false } } };
    }
    const decide = /^\/v1\/transactions\/([^/]+)\/approvals$/.exec(url.pathname);
    if (method === "POST" && decide) {
      const id = decide[1]!;
      const refusal = refusals.get(id);
      refusals.delete(id);
      if (refusal) return refuse(refusal);
      const found = transactions.find((t) => t.id === id);
      if (!found) return refuse({ status: 404, error: "NOT_FOUND", code: 1030, message: "transaction not found" });
      if (found.status !== AWAITING) {
        return refuse({ status: 409, error: "INVALID_TRANSACTION_STATE", code: 1203, message: "transaction is not awaiting approval" });
      }
      if (body?.decision === "APPROVED") {
        const key = approvalKeys.find((k) => k.keyId === body.keyId);
        // The service's own hash of the stored fields, never the one it sent.
        if (!key || !verifyApproval({ approvalHash: approvalHash(fieldsOf(found)), signature: body.signature, publicKey: key.publicKey })) {
          return refuse({ status: 400, error: "INVALID_SIGNATURE", code: 1202, message: "the approval signature does not verify" });
        }
        Object.assign(found, { status: "QUEUED", subStatus: null });
      } else {
        Object.assign(found, { status: "REJECTED", subStatus: "REJECTED_BY_APPROVER", statusReason: body?.reason ?? null });
      }
      const { approvalRequest: _request, ...record } = found;
      return { status: 200, body: record };
    }
    return undefined;
  };
  return Object.assign(double, {
    userId,
    approvalKeys,
    refuseDecision: (transactionId: string, refusal: Refusal) => void refusals.set(transactionId, refusal),
    failKeyEnrollment: ({ status, applied = false }: { status: number; applied?: boolean }) => void (keyFailure = { status, applied }),
  });
}
