import { describe, expect, it } from "vitest";
import { replayTemplate } from "./create-replay";
import type { RecordedStatement } from "./statement-counter";

const TENANT = "0193a1b2-0000-7000-8000-000000000001";

/** One recorded create: its own row id, key and time; the tenant shared. */
function create(rowId: string, key: string, at: string, amount = "5"): RecordedStatement[] {
  return [
    { text: "begin", values: [], shared: false },
    { text: "select lock($1, $2)", name: "qc_lock", values: [TENANT, key], shared: true },
    { text: "insert into t values ($1, $2, $3, $4)", name: "qc_insert", values: [rowId, TENANT, amount, at], shared: false },
    { text: "insert into jobs values ($1)", values: [JSON.stringify({ transactionId: rowId })], shared: true },
    { text: "insert into keys values ($1, $2)", name: "qc_key", values: [key, { id: rowId }], shared: false },
    { text: "commit", values: [], shared: true },
  ];
}

const A = "0193a1b2-0000-7000-8000-0000000000aa";
const B = "0193a1b2-0000-7000-8000-0000000000bb";

describe("replayTemplate", () => {
  it("keeps the last create's statements in their round trips, its own ids and key to be replaced", () => {
    const recorded = [
      { text: "select 1 from rate_limits", values: [], shared: false },
      ...create(A, "count-00000000000000aa", "2026-11-28T16:00:00.000Z"),
      ...create(B, "count-00000000000000bb", "2026-11-28T16:00:01.250Z"),
    ];
    const template = replayTemplate(recorded);
    expect(template.ids).toEqual([B]);
    expect(template.key).toBe("count-00000000000000bb");
    expect(template.roundTrips.map((trip) => trip.map((s) => s.text.split(" ")[0]))).toEqual([
      ["begin", "select"],
      ["insert", "insert"],
      ["insert", "commit"],
    ]);
    expect(template.roundTrips[0]![1]!.name).toBe("qc_lock");
  });

  it("refuses two creates that differ in more than ids, key and time (the replay would not be the create's work)", () => {
    const recorded = [
      ...create(A, "count-00000000000000aa", "2026-11-28T16:00:00.000Z", "5"),
      ...create(B, "count-00000000000000bb", "2026-11-28T16:00:01.000Z", "6"),
    ];
    expect(() => replayTemplate(recorded)).toThrow(/differ beyond ids, key and time/);
  });

  it("refuses a recording without two creates of the same statements", () => {
    const first = create(A, "count-00000000000000aa", "2026-11-28T16:00:00.000Z");
    expect(() => replayTemplate(first)).toThrow(/no two creates/);
    const other = create(B, "count-00000000000000bb", "2026-11-28T16:00:01.000Z").filter((s) => !s.text.startsWith("insert into jobs"));
    expect(() => replayTemplate([...first, ...other])).toThrow(/no two creates/);
  });
});
