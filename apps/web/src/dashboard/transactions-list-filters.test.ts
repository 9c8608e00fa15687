import { describe, expect, it } from "vitest";
import { toListFilters } from "./transactions-list-filters";

const none = { status: "", type: "", walletId: "", from: "", to: "", externalId: "" };

describe("the transactions list's filters, from the address to the API", () => {
  it("sends only the filters set", () => {
    expect(toListFilters(none)).toEqual({});
    expect(toListFilters({ ...none, status: "CANCELLED", walletId: "0194f2c5-1a2c-7000-8000-000000000001", externalId: "x" })).toEqual({
      status: "CANCELLED",
      walletId: "0194f2c5-1a2c-7000-8000-000000000001",
      externalId: "x",
    });
  });

  it("makes whole UTC days, both included, of the dates: to is the start of the day after", () => {
    expect(toListFilters({ ...none, from: "2026-11-28", to: "2026-11-28" })).toEqual({
      createdFrom: "2026-11-28T00:00:00.000Z",
      createdTo: "2026-11-29T00:00:00.000Z",
    });
    // Across a month and a year's end, and a leap day.
    expect(toListFilters({ ...none, to: "2026-12-31" }).createdTo).toBe("2027-01-01T00:00:00.000Z");
    expect(toListFilters({ ...none, to: "2028-02-28" }).createdTo).toBe("2028-02-29T00:00:00.000Z");
  });

  it("passes a malformed date on as typed, for the API's 400 to name it", () => {
    expect(toListFilters({ ...none, from: "yesterday", to: "soon" })).toEqual({ createdFrom: "yesterday", createdTo: "soon" });
  });
});
