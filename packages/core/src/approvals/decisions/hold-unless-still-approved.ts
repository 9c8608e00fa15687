import type { TransactionRow } from "@qc/db/queries";
import type { Actor } from "../../audit/actor";
import type { ServiceDeps } from "../../deps/service-deps";
import { holdForApproval } from "./hold-for-approval";
import { verifyCountedApprovals } from "./verify-counted-approvals";

/**
 * Before a QUEUED transfer that required approvals is released (CONTRACT §15): its approvals are
 * judged and verified again (`verifyCountedApprovals`). Still every group's quorum: undefined, the
 * release goes on. Short of one: QUEUED → AWAITING_APPROVAL with a reason naming why (history,
 * audit and `transaction.status_changed` come with the move), the expire job at its approval
 * deadline and release-next; the row moved back, or "MOVED_ON" when another step moved it first.
 * A transfer that required no approval is released as before.
 */
export async function holdUnlessStillApproved(
  deps: Pick<ServiceDeps, "db" | "jobs" | "now" | "verifier" | "log">,
  row: TransactionRow,
  actor: Actor,
): Promise<TransactionRow | "MOVED_ON" | undefined> {
  if (!row.approvals) return undefined;
  const counted = await verifyCountedApprovals(deps, row);
  if (counted.met) return undefined;
  deps.log.warn({ tenantId: row.tenantId, transactionId: row.id, reason: counted.reason }, "approval quorum no longer met: not released");
  const held = await holdForApproval(deps, { row, from: "QUEUED", reason: counted.reason, actor });
  return held.moved ? held.row : "MOVED_ON";
}
