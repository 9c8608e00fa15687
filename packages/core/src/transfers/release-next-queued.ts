import type { NetworkCode } from "@qc/chain";
import { findOldestTransferIn, type TransactionRow } from "@qc/db/queries";
import type { ServiceDeps } from "../deps/service-deps";
import { AppError } from "../errors";
import { fillNonceGaps } from "./fill-nonce-gaps";
import { releaseForSigning, WINDOW_FULL, type ReleaseOutcome } from "./release-for-signing";

type ReleaseNextDeps = Pick<ServiceDeps, "db" | "jobs" | "now" | "config" | "chain" | "log" | "verifier">;

export interface ReleaseNextResult {
  /**
   * What became of each queued transfer looked at, oldest first: released, or ended or sent back
   * on the way (BLOCKED, FAILED, AWAITING_APPROVAL); the last is UNCHANGED when one still waits
   * (the window full, an older transfer in its checks).
   */
  outcomes: ReleaseOutcome[];
  /** The NONCE_FILL records created for nonces left unused (`fillNonceGaps`). */
  fills: TransactionRow[];
}

/** Looks at a queue that keeps changing under it (a cancel, a release by the checks) at most this many times in a row. */
const MAX_RETRIES = 5;

/**
 * `transfers.release-next`: the source's window may have room, or a nonce may have been left
 * unused (a transaction of it ended, or was mined). Releases its QUEUED transfers oldest first
 * (`releaseForSigning` from QUEUED: creation order, the lowest free nonces, so a queued transfer
 * takes a nonce left unused before any fill does) until the window is full, the queue is empty or
 * its head waits for an older transfer still in its checks; then fills what is still left unused
 * (`fillNonceGaps`). Nothing waits while the window has room.
 *
 * While the window is full and transfers wait, it schedules itself again (one waiting job per
 * source, at `watchIntervalMs`) as a backstop: every move that frees a slot enqueues it in its own
 * transition — the watcher's BROADCASTING → CONFIRMING (one waiting job per source for a block's
 * worth of them, and only for a source with a transfer queued: `scheduleReleaseNextForQueued`) and
 * every other end of a window transaction.
 */
export async function releaseNextQueued(
  deps: ReleaseNextDeps,
  source: { tenantId: string; sourceWalletId: string; networkCode: NetworkCode },
): Promise<ReleaseNextResult> {
  const outcomes: ReleaseOutcome[] = [];
  let retries = 0;
  let more = false;
  // At most a window's worth of releases (and what ends on the way) per run; a longer queue is the next run's.
  for (let looked = 0; ; looked++) {
    const next = await findOldestTransferIn(deps.db, { ...source, statuses: ["QUEUED"] });
    if (!next) break;
    if (looked === 2 * deps.config.transfers.nonceWindow) {
      more = true;
      break;
    }
    const outcome = await releaseForSigning(deps, { tenantId: source.tenantId, transactionId: next.id, from: "QUEUED" });
    if (outcome.status === "UNCHANGED" && outcome.retry) {
      // A transfer cancelled or released meanwhile changes who is first: look again, a bounded number of times.
      if (++retries >= MAX_RETRIES) throw new AppError("UNAVAILABLE", "the source's queue kept changing; retrying");
      continue;
    }
    outcomes.push(outcome);
    if (outcome.status === "UNCHANGED") break;
  }
  const last = outcomes.at(-1);
  if (last?.status === "UNCHANGED" && last.reason === WINDOW_FULL) await scheduleWhileFull(deps, source);
  else if (more) await deps.db.transaction((tx) => deps.jobs.send(tx, "transfers.release-next", source));
  const fills = await fillNonceGaps(deps, source);
  return { outcomes, fills };
}

/** The backstop look at a full window, `watchIntervalMs` later: one waiting job per source (`schedule` moves it). */
async function scheduleWhileFull(
  deps: Pick<ServiceDeps, "db" | "jobs" | "now" | "config">,
  source: { tenantId: string; sourceWalletId: string; networkCode: NetworkCode },
): Promise<void> {
  const startAfter = new Date(deps.now().getTime() + deps.config.transfers.watchIntervalMs);
  await deps.db.transaction((tx) =>
    deps.jobs.schedule(tx, "transfers.release-next", source, {
      singletonKey: `release-next-window:${source.sourceWalletId}:${source.networkCode}`,
      startAfter,
    }),
  );
}
