import type { ReactNode } from "react";

const TONE: Record<string, string> = {
  COMPLETED: "ok",
  ACTIVE: "ok",
  VERIFIED: "ok",
  APPROVED: "ok",
  DELIVERED: "ok",
  ENABLED: "ok",
  RUNNING: "ok",
  ALLOW: "ok",
  BLOCKED: "bad",
  REJECTED: "bad",
  FAILED: "bad",
  EXPIRED: "bad",
  REVOKED: "bad",
  DISABLED: "bad",
  DEAD_LETTERED: "bad",
  SILENT: "bad",
  BLOCK: "bad",
  CANCELLED: "muted",
  ARCHIVED: "muted",
  ROTATED: "muted",
  STOPPED: "muted",
};

/** A status exactly as the contract names it, coloured by what it means. */
export function StatusBadge({ status, children }: { status: string; children?: ReactNode }) {
  return (
    <span className={`badge ${TONE[status] ?? "info"}`} data-status={status}>
      {children ?? status}
    </span>
  );
}
