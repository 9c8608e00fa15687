import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../../test/signer-home";
import { SignerError } from "../errors";
import { DailyLedger, REMEMBERED_TRANSACTIONS } from "./daily-ledger";

const ASSET = "011620ab-6fee-5894-b105-6c22053cf11e";

describe("DailyLedger", () => {
  it("keeps today's totals across a reopen, counts a transaction once, and starts a new UTC day at zero", () => {
    const path = join(tempDir("qc-ledger-"), "serve-state.json");
    let now = new Date("2026-11-28T23:59:00Z");
    const ledger = DailyLedger.open(path, () => now);
    expect(ledger.signedToday(ASSET)).toBe(0n);
    ledger.record([{ transactionId: "a", assetId: ASSET, amount: 5n }]);
    ledger.record([
      { transactionId: "a", assetId: ASSET, amount: 5n },
      { transactionId: "b", assetId: ASSET.toUpperCase(), amount: 7n },
    ]);
    const reopened = DailyLedger.open(path, () => now);
    expect(reopened.signedToday(ASSET)).toBe(12n);
    expect(reopened.countedToday("a")).toBe(true);
    expect(readFileSync(path, "utf8")).not.toContain("signature");

    now = new Date("2026-11-29T00:00:01Z");
    expect(reopened.signedToday(ASSET)).toBe(0n);
    expect(reopened.countedToday("a")).toBe(false);
    reopened.record([{ transactionId: "c", assetId: ASSET, amount: 1n }]);
    expect(DailyLedger.open(path, () => now).signedToday(ASSET)).toBe(1n);
  });

  it("remembers a bounded number of transactions, the newest", () => {
    const path = join(tempDir("qc-ledger-"), "serve-state.json");
    const ledger = DailyLedger.open(path);
    const ids = Array.from({ length: REMEMBERED_TRANSACTIONS + 5 }, (_, i) => `t${i}`);
    ledger.record(ids.map((transactionId) => ({ transactionId, assetId: ASSET, amount: 1n })));
    expect(ledger.countedToday("t0")).toBe(false);
    expect(ledger.countedToday(ids.at(-1)!)).toBe(true);
    expect(ledger.signedToday(ASSET)).toBe(BigInt(ids.length));
  });

  it("refuses to start from a damaged file rather than from zero", () => {
    const path = join(tempDir("qc-ledger-"), "serve-state.json");
    writeFileSync(path, '{"format":');
    expect(() => DailyLedger.open(path)).toThrow(SignerError);
    writeFileSync(
      path,
      JSON.stringify({ format: "quantum-signer-serve-state", version: 1, day: "2026-11-28", signed: { x: "-1" }, counted: {} }),
    );
    expect(() => DailyLedger.open(path)).toThrow(/is damaged/);
  });
});
