import { validate, version } from "uuid";
import { describe, expect, it } from "vitest";
import { newRowId } from "./ids";

/** The 48-bit millisecond timestamp at the front of a version 7 UUID. */
const millisecondOf = (id: string) => parseInt(id.replace(/-/g, "").slice(0, 12), 16);

describe("row ids", () => {
  it("are RFC 9562 version 7 UUIDs carrying the millisecond they were made in", () => {
    const before = Date.now();
    const id = newRowId();
    const after = Date.now();
    expect(validate(id)).toBe(true);
    expect(version(id)).toBe(7);
    expect(id[19]).toMatch(/[89ab]/); // the RFC 9562 variant
    expect(millisecondOf(id)).toBeGreaterThanOrEqual(before);
    expect(millisecondOf(id)).toBeLessThanOrEqual(after);
  });

  it("sort in the order one process made them and never repeat, many per millisecond and across pool refills", () => {
    // 20,000 ids: dozens per millisecond, and the 4 KiB pool (256 ids) refilled ~78 times.
    const ids = Array.from({ length: 20_000 }, () => newRowId());
    for (let i = 1; i < ids.length; i++) {
      if (!(ids[i - 1]! < ids[i]!)) expect.fail(`id ${i} (${ids[i]}) does not sort after id ${i - 1} (${ids[i - 1]})`);
    }
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(ids.map(millisecondOf)).size).toBeLessThan(ids.length / 2); // many ids shared a millisecond
  });

  it("draw fresh random bits for every id (the pool is refilled, not reused)", () => {
    const ids = Array.from({ length: 2_000 }, () => newRowId());
    // The last 48 bits are random in every id, whatever the counter does.
    const tails = ids.map((id) => id.slice(-12));
    expect(new Set(tails).size).toBe(ids.length);
  });
});
