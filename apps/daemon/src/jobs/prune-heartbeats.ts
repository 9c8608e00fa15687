import type { ParsedJobPayload } from "@qc/core";
import { deleteStaleHeartbeats } from "@qc/db/queries";
import type { JobContext } from "../context";

/** Deletes heartbeat rows of daemons stopped or silent for longer than the cut-off. */
export async function pruneHeartbeats(payload: ParsedJobPayload<"maintenance.prune-heartbeats">, ctx: JobContext) {
  const cutoff = new Date(ctx.now().getTime() - payload.olderThanHours * 3600_000);
  return { removed: await deleteStaleHeartbeats(ctx.db, cutoff) };
}
