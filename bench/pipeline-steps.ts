/**
 * The pipeline's steps, read from the status-history rows the web server and the daemons write
 * (one host clock, the database's), plus the bench's own clock for the signature submissions.
 */

export type HistoryRow = { id: string; to: string; at: Date };
export type Summary = { n: number; p50: number; p95: number; max: number };

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export function summary(values: number[]): Summary {
  if (values.length === 0) return { n: 0, p50: NaN, p95: NaN, max: NaN };
  const sorted = [...values].sort((a, b) => a - b);
  return {
    n: values.length,
    p50: Math.round(percentile(sorted, 50)),
    p95: Math.round(percentile(sorted, 95)),
    max: Math.round(sorted.at(-1)!),
  };
}

type Times = Partial<Record<string, number>>;

/** Each transfer's first arrival at each status (a reorg can repeat one; the first counts). */
function timesById(history: HistoryRow[]): Map<string, Times> {
  const byId = new Map<string, Times>();
  for (const row of history) {
    const times = byId.get(row.id) ?? {};
    const at = row.at.getTime();
    if (times[row.to] === undefined || at < times[row.to]!) times[row.to] = at;
    byId.set(row.id, times);
  }
  return byId;
}

/** `to − from` over the transfers that reached both. */
function between(all: Times[], from: string, to: string, only: (t: Times) => boolean = () => true): number[] {
  return all.filter((t) => t[from] !== undefined && t[to] !== undefined && only(t)).map((t) => t[to]! - t[from]!);
}

/**
 * Per source wallet, in the order the transfers were broadcast: the time from one broadcast to
 * the next (a source's cycle: release → sign → broadcast), and the delay from the broadcast of
 * the transfer ahead to the release (PENDING_SIGNATURE) of a QUEUED one.
 */
function perSource(byId: Map<string, Times>, sourceOf: Map<string, string>) {
  const bySource = new Map<string, Times[]>();
  for (const [id, times] of byId) {
    const source = sourceOf.get(id) ?? "";
    bySource.set(source, [...(bySource.get(source) ?? []), times]);
  }
  const cycles: number[] = [];
  const releases: number[] = [];
  for (const transfers of bySource.values()) {
    const ordered = transfers.filter((t) => t.PENDING_SIGNATURE !== undefined).sort((a, b) => a.PENDING_SIGNATURE! - b.PENDING_SIGNATURE!);
    for (let i = 1; i < ordered.length; i++) {
      const ahead = ordered[i - 1]!;
      const next = ordered[i]!;
      if (ahead.BROADCASTING !== undefined && next.BROADCASTING !== undefined) cycles.push(next.BROADCASTING - ahead.BROADCASTING);
      if (ahead.BROADCASTING !== undefined && next.QUEUED !== undefined) releases.push(next.PENDING_SIGNATURE! - ahead.BROADCASTING);
    }
  }
  return { cycles, releases, sources: bySource.size };
}

export function analyseHistory(history: HistoryRow[], sourceOf: Map<string, string>, submittedAt: Map<string, number>) {
  const byId = timesById(history);
  const all = [...byId.values()];
  const withPost = [...byId].filter(([id]) => submittedAt.has(id));
  const postTo = (status: string) =>
    withPost.filter(([, t]) => t[status] !== undefined).map(([id, t]) => t[status]! - submittedAt.get(id)!);
  const completedAt = all.map((t) => t.COMPLETED).filter((t): t is number => t !== undefined);
  const submitted = all.map((t) => t.SUBMITTED).filter((t): t is number => t !== undefined);
  const sources = perSource(byId, sourceOf);
  const queued = (t: Times) => t.QUEUED !== undefined;
  return {
    completed: completedAt.length,
    counts: {
      signed: all.filter((t) => t.SIGNED !== undefined).length,
      broadcast: all.filter((t) => t.BROADCASTING !== undefined).length,
      queued: all.filter(queued).length,
    },
    /** First create's commit to the last COMPLETED commit. */
    totalSeconds: completedAt.length ? Math.round(Math.max(...completedAt) - Math.min(...submitted)) / 1000 : NaN,
    steps: {
      createToPendingSignature: summary(between(all, "SUBMITTED", "PENDING_SIGNATURE")),
      createToPendingSignatureFirst: summary(between(all, "SUBMITTED", "PENDING_SIGNATURE", (t) => !queued(t))),
      createToPendingSignatureQueued: summary(between(all, "SUBMITTED", "PENDING_SIGNATURE", queued)),
      releaseAfterPredecessorBroadcast: summary(sources.releases),
      pendingSignatureToSigned: summary(between(all, "PENDING_SIGNATURE", "SIGNED")),
      signedToBroadcasting: summary(between(all, "SIGNED", "BROADCASTING")),
      signaturePostToBroadcasting: summary(postTo("BROADCASTING")),
      broadcastingToConfirming: summary(between(all, "BROADCASTING", "CONFIRMING")),
      confirmingToCompleted: summary(between(all, "CONFIRMING", "COMPLETED")),
      broadcastingToCompleted: summary(between(all, "BROADCASTING", "COMPLETED")),
      signaturePostToCompleted: summary(postTo("COMPLETED")),
      endToEnd: summary(between(all, "SUBMITTED", "COMPLETED")),
    },
    perSource: { sources: sources.sources, cycleMs: summary(sources.cycles) },
  };
}

/**
 * One source's nonce window, from the status history: each step's p50/p95 (release →
 * signed → BROADCASTING → CONFIRMING → COMPLETED); how long a transfer held its nonce slot (release
 * → CONFIRMING: PENDING_SIGNATURE, SIGNED and BROADCASTING hold one); the mean number holding one
 * over `seconds` (Little's law: total holding time ÷ the run); and what a full window allows,
 * window ÷ the mean holding time, in transfers/s.
 */
export function windowSteps(history: HistoryRow[], window: number, seconds: number) {
  const all = [...timesById(history).values()];
  const holding = between(all, "PENDING_SIGNATURE", "CONFIRMING");
  const meanHoldingMs = holding.reduce((a, b) => a + b, 0) / Math.max(1, holding.length);
  return {
    queuedToReleased: summary(between(all, "QUEUED", "PENDING_SIGNATURE")),
    releasedToSigned: summary(between(all, "PENDING_SIGNATURE", "SIGNED")),
    signedToBroadcasting: summary(between(all, "SIGNED", "BROADCASTING")),
    broadcastingToConfirming: summary(between(all, "BROADCASTING", "CONFIRMING")),
    confirmingToCompleted: summary(between(all, "CONFIRMING", "COMPLETED")),
    holdingMs: summary(holding),
    meanHolding: Math.round((holding.reduce((a, b) => a + b, 0) / Math.max(1, seconds * 1000)) * 100) / 100,
    fullWindowPerSecond: Math.round((window / Math.max(1, meanHoldingMs / 1000)) * 100) / 100,
  };
}
