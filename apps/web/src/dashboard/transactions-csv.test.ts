import { describe, expect, it } from "vitest";
import type { Asset, Transaction } from "./router-types";
import { readAllPages, TooManyRowsError, transactionsCsv, TRANSACTIONS_CSV_HEADER } from "./transactions-csv";

const NATIVE = { id: "a0000000-0000-4000-8000-000000000001", networkCode: "QUANTUM_SANDBOX", kind: "NATIVE", symbol: "Q", decimals: 18 };
const USDQ = { id: "a0000000-0000-4000-8000-000000000002", networkCode: "QUANTUM_SANDBOX", kind: "ERC20", symbol: "USDQ", decimals: 6 };
const ASSETS = [NATIVE, USDQ] as unknown as Asset[];

/** The fields of a record the CSV reads; the rest of the record plays no part. */
function record(fields: Partial<Transaction>): Transaction {
  return {
    id: "0194f2c5-1a2c-7000-8000-000000000001",
    createdAt: "2026-11-21T10:00:00.000Z",
    status: "PENDING_SIGNATURE",
    subStatus: null,
    type: "TRANSFER",
    direction: "OUTBOUND",
    networkCode: "QUANTUM_SANDBOX",
    assetId: NATIVE.id,
    tokenAddress: null,
    amount: "1500000000000000000",
    sourceAddress: "0x1111111111111111111111111111111111111111",
    destinationAddress: "0x5b38da6a701c568545dcfcb03fcb875f56beddc4",
    chainTxHash: null,
    fee: { gasLimit: "25200", maxFeePerGas: "2200000000", maxPriorityFeePerGas: "1000000000" },
    externalId: null,
    note: null,
    ...fields,
  } as Transaction;
}

const lines = (text: string) => text.split("\r\n").slice(0, -1);

describe("the transactions CSV", () => {
  it("writes amounts both ways (decimals applied with bigint arithmetic, and base units) and the most the fee can cost", () => {
    const text = transactionsCsv(
      [
        record({}),
        record({ id: "0194f2c5-1a2c-7000-8000-000000000002", assetId: USDQ.id, amount: "123456789012345678901234567890", fee: null }),
        // A deposit of a token the tenant has no asset for: its contract, and base units only.
        record({
          id: "0194f2c5-1a2c-7000-8000-000000000003",
          type: "DEPOSIT",
          direction: "INBOUND",
          assetId: null,
          tokenAddress: "0x2222222222222222222222222222222222222222",
          amount: "7",
          status: "COMPLETED",
          chainTxHash: "0x" + "ab".repeat(32),
          fee: null,
        }),
      ],
      ASSETS,
    );
    const [header, ...rows] = lines(text);
    expect(header).toBe(TRANSACTIONS_CSV_HEADER.join(","));
    expect(rows[0]).toBe(
      "0194f2c5-1a2c-7000-8000-000000000001,2026-11-21T10:00:00.000Z,PENDING_SIGNATURE,Waiting for signature,,TRANSFER,OUTBOUND," +
        "QUANTUM_SANDBOX,Q,1.5,1500000000000000000,0x1111111111111111111111111111111111111111," +
        "0x5b38da6a701c568545dcfcb03fcb875f56beddc4,,0.00005544,55440000000000,,",
    );
    expect(rows[1]!.split(",").slice(8, 11)).toEqual(["USDQ", "123456789012345678901234.56789", "123456789012345678901234567890"]);
    expect(rows[2]!.split(",").slice(2, 16)).toEqual([
      "COMPLETED",
      "Completed",
      "",
      "DEPOSIT",
      "INBOUND",
      "QUANTUM_SANDBOX",
      "0x2222222222222222222222222222222222222222",
      "",
      "7",
      "0x1111111111111111111111111111111111111111",
      "0x5b38da6a701c568545dcfcb03fcb875f56beddc4",
      "0x" + "ab".repeat(32),
      "",
      "",
    ]);
  });

  it("neutralises a reference or note a spreadsheet would run as a formula", () => {
    const [, row] = lines(transactionsCsv([record({ externalId: '=HYPERLINK("http://evil","x")', note: "@SUM(1+1)" })], ASSETS));
    expect(row!.endsWith(`,"'=HYPERLINK(""http://evil"",""x"")",'@SUM(1+1)`)).toBe(true);
  });
});

describe("readAllPages", () => {
  /** A cursor-paged list of `total` numbers, newest first, `size` a page, counting the reads. */
  function pagedList(total: number, size: number) {
    const all = Array.from({ length: total }, (_, i) => total - i);
    const reads: (string | undefined)[] = [];
    return {
      reads,
      readPage: async (cursor: string | undefined) => {
        reads.push(cursor);
        const start = cursor === undefined ? 0 : Number(cursor);
        const items = all.slice(start, start + size);
        const hasMore = start + size < total;
        return { items, page: { nextCursor: hasMore ? String(start + size) : null, hasMore } };
      },
    };
  }

  it("reads every page in order until hasMore is false", async () => {
    const list = pagedList(7, 3);
    expect(await readAllPages(list.readPage, 100)).toEqual([7, 6, 5, 4, 3, 2, 1]);
    expect(list.reads).toEqual([undefined, "3", "6"]);
    expect(await readAllPages(pagedList(0, 3).readPage, 100)).toEqual([]);
    // Exactly the bound is allowed.
    expect(await readAllPages(pagedList(6, 3).readPage, 6)).toHaveLength(6);
  });

  it("stops with TooManyRowsError as soon as more than the bound are read, without reading the rest", async () => {
    const list = pagedList(1000, 3);
    await expect(readAllPages(list.readPage, 7)).rejects.toBeInstanceOf(TooManyRowsError);
    expect(list.reads).toEqual([undefined, "3", "6"]);
    await expect(readAllPages(pagedList(8, 3).readPage, 7)).rejects.toThrow("More than 7 transactions match these filters");
  });
});
