import { createRouter } from "../../trpc";
import { decideApprovalProcedure } from "./decide-approval";
import { getTransactionApprovalsProcedure } from "./get-transaction-approvals";
import { listPendingApprovalsProcedure } from "./list-pending-approvals";

/** CONTRACT §15: what awaits the caller's approval, their decisions, and a transaction's approvals for auditors. */
export const approvalsRouter = createRouter({
  pending: listPendingApprovalsProcedure,
  decide: decideApprovalProcedure,
  transaction: getTransactionApprovalsProcedure,
});
