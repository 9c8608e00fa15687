import { useTestDatabase } from "@qc/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectError } from "./custody-helpers";
import { startTestServer, type TestServer } from "./harness";
import { fundedSource, nativeTransfer, type FundedSource } from "./transfers-front-helpers";

/**
 * GET /v1/transactions?createdFrom=&createdTo= (the dashboard's date filter): the window is
 * `createdFrom` inclusive, `createdTo` exclusive, combines with the other filters and the cursor,
 * and a bad bound is 400 VALIDATION_FAILED naming the field. No daemon: the transfers stay
 * SUBMITTED, which is all a list needs.
 */
describe("GET /v1/transactions: the creation window", () => {
  const t = useTestDatabase();
  let server: TestServer;
  let source: FundedSource;
  /** Oldest first, each created a few milliseconds after the last. */
  const created: { id: string; createdAt: string }[] = [];

  beforeAll(async () => {
    server = await startTestServer({ database: t });
    source = await fundedSource(() => server, t.db, undefined, 0n);
    for (let i = 0; i < 4; i++) {
      const res = await source.api.createTransfer(nativeTransfer(source, BigInt(i + 1), { externalId: `window-${i}` }));
      expect(res.status, res.text).toBe(201);
      created.push(res.json());
      // Distinct milliseconds, so each record's createdAt is a bound between it and its neighbours.
      await new Promise((resolve) => setTimeout(resolve, 15));
    }
  });
  afterAll(async () => {
    await server?.close();
  });

  const ids = async (query: string) => {
    const res = await source.api.get(`/v1/transactions?${query}`);
    expect(res.status, res.text).toBe(200);
    return (res.json().transactions as { id: string }[]).map((tx) => tx.id);
  };
  const at = (i: number) => encodeURIComponent(created[i]!.createdAt);

  it("lists what was created from createdFrom (inclusive) to createdTo (exclusive), newest first", async () => {
    const [a, b, c, d] = created.map((tx) => tx.id);
    expect(await ids(`createdFrom=${at(1)}`)).toEqual([d, c, b]);
    expect(await ids(`createdTo=${at(1)}`)).toEqual([a]);
    expect(await ids(`createdFrom=${at(1)}&createdTo=${at(3)}`)).toEqual([c, b]);
    expect(await ids(`createdFrom=${at(2)}&createdTo=${at(2)}`)).toEqual([]);
    // An offset other than Z names the same instant.
    const plusTwo = new Date(Date.parse(created[2]!.createdAt) + 2 * 3600_000).toISOString().replace("Z", "+02:00");
    expect(await ids(`createdFrom=${encodeURIComponent(plusTwo)}`)).toEqual([d, c]);
    // With the other filters and the cursor.
    expect(await ids(`createdFrom=${at(1)}&externalId=window-2`)).toEqual([c]);
    expect(await ids(`createdFrom=${at(1)}&status=COMPLETED`)).toEqual([]);
    const first = (await source.api.get(`/v1/transactions?createdFrom=${at(1)}&limit=2`)).json();
    expect(first.transactions.map((tx: { id: string }) => tx.id)).toEqual([d, c]);
    expect(first.page.hasMore).toBe(true);
    expect(await ids(`createdFrom=${at(1)}&limit=2&cursor=${first.page.nextCursor}`)).toEqual([b]);
  });

  it("answers 400 VALIDATION_FAILED for a bound that is not an RFC 3339 instant, or a window that ends before it starts", async () => {
    for (const query of [
      "createdFrom=yesterday",
      "createdFrom=2026-11-21",
      "createdTo=2026-11-21T10:00:00",
      "createdTo=2026-13-01T00:00:00Z",
      "createdFrom=1732000000000",
    ]) {
      const res = await source.api.get(`/v1/transactions?${query}`);
      expectError(res, 400, "VALIDATION_FAILED", 1001);
      expect(JSON.stringify(res.json().details), query).toContain(query.split("=")[0]);
    }
    const reversed = await source.api.get(`/v1/transactions?createdFrom=${at(3)}&createdTo=${at(0)}`);
    expectError(reversed, 400, "VALIDATION_FAILED", 1001);
    expect(JSON.stringify(reversed.json().details)).toContain("createdFrom");
  });
});
