import type { Database } from "@qc/db";
import { revokeOperatorSession } from "@qc/db/queries";
import type { OperatorPrincipal } from "./authenticate-operator";
import { recordOperatorAudit } from "./record-operator-audit";

/** Ends the operator's console session at once. */
export async function logOutOperator(
  deps: { db: Database; now(): Date },
  input: { operator: OperatorPrincipal; requestId?: string; ip?: string },
): Promise<{ status: "LOGGED_OUT" }> {
  await deps.db.transaction(async (tx) => {
    await revokeOperatorSession(tx, { sessionId: input.operator.sessionId, at: deps.now() });
    await recordOperatorAudit(tx, {
      action: "operator.logged_out",
      operatorId: input.operator.operatorId,
      targetType: "operator_session",
      targetId: input.operator.sessionId,
      requestId: input.requestId,
      ip: input.ip,
    });
  });
  return { status: "LOGGED_OUT" };
}
