import { and, isNotNull, lt, or, schema } from "@qc/db";
import type { ParsedJobPayload } from "@qc/core";
import type { JobContext } from "../context";

/** Deletes heartbeat rows of daemons stopped or silent for longer than the cut-off. */
export async function pruneHeartbeats(payload: ParsedJobPayload<"maintenance.prune-heartbeats">, ctx: JobContext) {
  const cutoff = new Date(ctx.now().getTime() - payload.olderThanHours * 3600_000);
  const { daemonHeartbeats: h } = schema;
  const removed = await ctx.database.db
    .delete(h)
    .where(or(lt(h.lastBeatAt, cutoff), and(isNotNull(h.stoppedAt), lt(h.stoppedAt, cutoff))))
    .returning({ instanceId: h.instanceId });
  return { removed: removed.length };
}
