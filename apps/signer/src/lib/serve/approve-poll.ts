import { signApprovalHash } from "../approvals/approval-key";
import { readApprovalRequest, type VerifiedApproval } from "../approvals/read-approval";
import { ReviewRefusedError } from "../errors";
import type { StoredApprovalKey } from "../keystore/format";
import { printableText } from "../review/printable-text";
import type { ApprovalDecision } from "../service/approvals-api";
import { ServiceError } from "../service/service-client";
import type { SignerApi } from "../service/signer-api";
import type { DailyLedger } from "./daily-ledger";
import { VERIFICATION_RULE, type DecisionLine } from "./decision-line";
import { judgeRequest, type SigningIntent } from "./judge-request";
import type { ServeRules } from "./rules";
import { addressBook, assetsOf, message, type ServeState } from "./serve-poll";

/** The service's answers that will not change by asking again: the transaction is left to the member's people. */
const FINAL_REFUSALS = new Set(["SELF_APPROVAL_FORBIDDEN", "NOT_AN_APPROVER", "INVALID_TRANSACTION_STATE"]);

export type ApproveDependencies = {
  api: Pick<SignerApi, "pendingApprovals" | "decideApproval" | "assets" | "activeAddressBook">;
  /** The tenant of the profile: an approval names it. */
  tenantId: string;
  /** The member's newest enrolled approval key (`enroll-approver`). */
  approvalKey: StoredApprovalKey & { keyId: string };
  rules: ServeRules;
  ledger: DailyLedger;
  signal: AbortSignal;
  emit: (line: DecisionLine) => void;
  warn: (message: string) => void;
};

/** What `serve` remembers of approvals: the transactions it will not decide again (the service's final refusal). */
export function approveState() {
  return { leftAlone: new Set<string>() };
}

/**
 * One poll of the approvals awaiting this member (CONTRACT §15), for `serve` when its keystore holds an approval key: each is
 * rebuilt and compared as `approve` does (a refusal rejects it, rule "verification"), then judged
 * by the same rules as a signing request of it would be — type, destination, maxAmountPerTransfer,
 * and dailyLimit against what was signed today (an approval counts nothing: the signature will) —
 * and approved with the member's approval key, or rejected with the rule named. A transaction the
 * service will never let this member decide (its own: SELF_APPROVAL_FORBIDDEN; not in its group)
 * is warned about once and left to people. No decision starts once `signal` is aborted.
 */
export async function approvePoll(
  deps: ApproveDependencies,
  serveState: ServeState,
  state: ReturnType<typeof approveState>,
): Promise<number> {
  const { transactions } = await deps.api.pendingApprovals();
  let decided = 0;
  for (const transaction of transactions) {
    if (deps.signal.aborted) break;
    const id = printableText(String(transaction.id), 64);
    if (state.leftAlone.has(id)) continue;
    let decision: ApprovalDecision;
    let line: Omit<DecisionLine, "time">;
    try {
      const assets = await assetsOf(deps, serveState, String(transaction.networkCode), transaction.assetId);
      const approval = readApprovalRequest({ transaction, tenantId: deps.tenantId, assets });
      const intent = intentOf(approval);
      const book = deps.rules.destinations === "ADDRESS_BOOK" && intent.kind === "TRANSFER" ? await addressBook(deps, serveState) : [];
      const judgement = judgeRequest(deps.rules, intent, {
        signedToday: (assetId) => deps.ledger.signedToday(assetId),
        countedToday: () => false,
        addressBook: () => book,
      });
      const base = {
        transactionId: id,
        type: approval.type,
        approval: true as const,
        amount: approval.amount.toString(),
        assetId: intent.assetId,
        destination: intent.destination,
      };
      if (judgement.decision === "SIGN") {
        decision = {
          decision: "APPROVED",
          keyId: deps.approvalKey.keyId,
          signature: signApprovalHash(deps.approvalKey, approval.approvalHash),
        };
        line = { ...base, decision: "APPROVED" };
      } else {
        decision = { decision: "REJECTED", reason: printableText(`signer serve, rule ${judgement.rule}: ${judgement.reason}`, 999) };
        line = { ...base, decision: "REJECTED", rule: judgement.rule, reason: judgement.reason };
      }
    } catch (error) {
      if (!(error instanceof ReviewRefusedError)) {
        deps.warn(`could not read the approval of ${id}, trying again at the next poll: ${message(error)}`);
        continue;
      }
      decision = { decision: "REJECTED", reason: printableText(`signer serve, rule ${VERIFICATION_RULE}: ${error.message}`, 999) };
      line = {
        transactionId: id,
        type: printableText(String(transaction.type), 32),
        approval: true,
        decision: "REJECTED",
        rule: VERIFICATION_RULE,
        reason: error.message,
        amount: printableText(String(transaction.amount), 80),
        assetId: typeof transaction.assetId === "string" ? printableText(transaction.assetId, 64) : null,
        destination: typeof transaction.destinationAddress === "string" ? printableText(transaction.destinationAddress, 64) : null,
      };
    }
    if (deps.signal.aborted) break;
    try {
      await deps.api.decideApproval(String(transaction.id), decision);
    } catch (error) {
      if (error instanceof ServiceError && error.error !== undefined && FINAL_REFUSALS.has(error.error)) {
        state.leftAlone.add(id);
        deps.warn(`leaving the approval of ${id} to people: ${message(error)}`);
      } else deps.warn(`the approval decision on ${id} failed, trying again at the next poll: ${message(error)}`);
      continue;
    }
    deps.emit({ time: new Date().toISOString(), ...line });
    decided += 1;
  }
  return decided;
}

/** What an approval would let be signed, for the rules: a transfer, or a deployment (no value, no destination). */
function intentOf(approval: VerifiedApproval): SigningIntent {
  const transfer = approval.type === "TRANSFER";
  return {
    transactionId: approval.id,
    type: transfer ? "TRANSFER" : "CONTRACT_DEPLOY",
    kind: transfer ? "TRANSFER" : "CONTRACT_DEPLOY",
    networkCode: approval.networkCode,
    assetId: approval.asset?.id ?? null,
    amount: approval.amount,
    destination: approval.destinationAddress,
    replacesTransactionId: null,
  };
}
