import { existsSync, readFileSync } from "node:fs";
import { z } from "zod";
import { writeFileAtomic } from "../atomic-write";
import { SignerError } from "../errors";

export const LEDGER_FORMAT = "quantum-signer-serve-state";
export const LEDGER_VERSION = 1;
/** The transactions remembered as counted: enough for every speed-up of a recent transfer and every retry after a crash. */
export const REMEMBERED_TRANSACTIONS = 2048;

const uint = z.string().regex(/^(0|[1-9][0-9]{0,77})$/);
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const fileSchema = z.strictObject({
  format: z.literal(LEDGER_FORMAT),
  version: z.literal(LEDGER_VERSION),
  /** The UTC day the totals are of. */
  day,
  /** Base units signed that day, by asset id. */
  signed: z.record(z.string(), uint),
  /** Transaction id → the UTC day its amount was counted, oldest first. */
  counted: z.record(z.string(), day),
});
type LedgerFile = z.infer<typeof fileSchema>;

/** The UTC day of an instant, `YYYY-MM-DD`: daily limits reset at 00:00 UTC. */
export const utcDay = (now: Date): string => now.toISOString().slice(0, 10);

/** One signature about to be submitted: its transaction, asset and the amount it counts (0 for a speed-up of one counted). */
export type LedgerEntry = { transactionId: string; assetId: string | null; amount: bigint };

/**
 * What `signer serve` has signed today, per asset, kept in its own file under QC_SIGNER_HOME so
 * that a restart does not reset the daily limits. Amounts are recorded — the file replaced
 * atomically and flushed — before the signatures are submitted: a crash in between counts an
 * amount that was never sent, never the reverse (fail closed). A transaction counted today is not
 * counted again when it is decided again after a restart, nor is a replacement of it (the same
 * transfer). A damaged file stops `serve` rather than starting the day from zero.
 */
export class DailyLedger {
  readonly path: string;
  #file: LedgerFile;
  readonly #clock: () => Date;

  private constructor(path: string, file: LedgerFile, clock: () => Date) {
    this.path = path;
    this.#file = file;
    this.#clock = clock;
  }

  static open(path: string, clock: () => Date = () => new Date()): DailyLedger {
    if (!existsSync(path)) {
      return new DailyLedger(
        path,
        { format: LEDGER_FORMAT, version: LEDGER_VERSION, day: utcDay(clock()), signed: {}, counted: {} },
        clock,
      );
    }
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(path, "utf8"));
    } catch (error) {
      throw new SignerError(
        `the serve state file ${path} cannot be read (${(error as Error).message}); it holds today's signed totals, so serve will not start without it — restore it, or remove it knowing the daily limits restart from zero`,
      );
    }
    const parsed = fileSchema.safeParse(json);
    if (!parsed.success) {
      throw new SignerError(
        `the serve state file ${path} is damaged (${parsed.error.issues[0]?.path.join(".") || "format"}); it holds today's signed totals, so serve will not start without it — restore it, or remove it knowing the daily limits restart from zero`,
      );
    }
    return new DailyLedger(path, parsed.data, clock);
  }

  /** Today's totals: those of the file's day, or none when the UTC day has changed since. */
  #today(): { day: string; signed: Record<string, string> } {
    const today = utcDay(this.#clock());
    return today === this.#file.day ? { day: today, signed: this.#file.signed } : { day: today, signed: {} };
  }

  /** Base units of `assetId` signed today. */
  signedToday(assetId: string): bigint {
    return BigInt(this.#today().signed[assetId.toLowerCase()] ?? "0");
  }

  /** Whether the transaction's amount is already in today's totals (decided before a restart, or the original of a speed-up). */
  countedToday(transactionId: string): boolean {
    return this.#file.counted[transactionId] === this.#today().day;
  }

  /** Adds the entries to today's totals and writes the file atomically; returns once it is on disk. */
  record(entries: readonly LedgerEntry[]): void {
    if (entries.length === 0) return;
    const today = this.#today();
    const signed = { ...today.signed };
    const counted = { ...this.#file.counted };
    for (const entry of entries) {
      if (counted[entry.transactionId] === today.day) continue;
      if (entry.assetId !== null && entry.amount > 0n) {
        const assetId = entry.assetId.toLowerCase();
        signed[assetId] = (BigInt(signed[assetId] ?? "0") + entry.amount).toString();
      }
      delete counted[entry.transactionId];
      counted[entry.transactionId] = today.day;
    }
    const ids = Object.keys(counted);
    for (const id of ids.slice(0, Math.max(0, ids.length - REMEMBERED_TRANSACTIONS))) delete counted[id];
    const file: LedgerFile = { format: LEDGER_FORMAT, version: LEDGER_VERSION, day: today.day, signed, counted };
    writeFileAtomic(this.path, `${JSON.stringify(file)}\n`, { mode: 0o600 });
    this.#file = file;
  }
}
