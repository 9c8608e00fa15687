import type { Transaction } from "../../../src/dashboard/router-types";

/**
 * Who created a transaction (CONTRACT §15 `initiatedBy`): a member in the dashboard, or an API key
 * acting for its member. The initiator may reject it but never approve it.
 */
export function InitiatedBy({
  initiatedBy,
  memberName,
}: {
  initiatedBy: Transaction["initiatedBy"];
  memberName: (userId: string | null) => string;
}) {
  if (!initiatedBy) return <span className="muted">not recorded</span>;
  if (initiatedBy.type === "USER") return <>{memberName(initiatedBy.userId)} (signed in)</>;
  return (
    <>
      API key <code>{initiatedBy.keyId ?? "—"}</code>
      {initiatedBy.userId && <> of {memberName(initiatedBy.userId)}</>}
    </>
  );
}
