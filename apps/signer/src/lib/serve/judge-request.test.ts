import { describe, expect, it } from "vitest";
import type { BookEntry } from "../service/signer-api";
import { judgeRequest, type JudgeContext, type SigningIntent } from "./judge-request";
import { parseRules } from "./rules";

const NATIVE = "011620ab-6fee-5894-b105-6c22053cf11e";
const TOKEN = "0193a5c0-0000-7000-8000-00000000700c";
const PAYEE = "0x00000000000000000000000000000000000b0b5e";
const SOURCE = "0x00000000000000000000000000000000000050c1";

const rules = (overrides: Record<string, unknown> = {}) =>
  parseRules(
    JSON.stringify({
      maxAmountPerTransfer: { [NATIVE]: "100", [TOKEN]: "5" },
      dailyLimit: { [NATIVE]: "250" },
      destinations: [PAYEE.toUpperCase().replace("0X", "0x")],
      types: ["TRANSFER", "NONCE_FILL", "REPLACEMENT"],
      ...overrides,
    }),
  );
const transfer = (overrides: Partial<SigningIntent> = {}): SigningIntent => ({
  transactionId: "t1",
  type: "TRANSFER",
  kind: "TRANSFER",
  networkCode: "QUANTUM_SANDBOX",
  assetId: NATIVE,
  amount: 100n,
  destination: PAYEE,
  replacesTransactionId: null,
  ...overrides,
});
const context = (signed = 0n, counted: string[] = [], book: Partial<BookEntry>[] = []): JudgeContext => ({
  signedToday: () => signed,
  countedToday: (id) => counted.includes(id),
  addressBook: () => book as BookEntry[],
});
const rule = (judgement: ReturnType<typeof judgeRequest>) => (judgement.decision === "REJECT" ? judgement.rule : "SIGN");

describe("judgeRequest", () => {
  it("signs a transfer within every rule, counting its amount", () => {
    expect(judgeRequest(rules(), transfer(), context())).toEqual({ decision: "SIGN", counts: 100n });
  });

  it("names the rule that refuses", () => {
    expect(rule(judgeRequest(rules(), transfer({ type: "CANCELLATION", kind: "SELF_SEND" }), context()))).toBe("types");
    expect(rule(judgeRequest(rules(), transfer({ destination: SOURCE }), context()))).toBe("destinations");
    expect(rule(judgeRequest(rules(), transfer({ amount: 101n }), context()))).toBe("maxAmountPerTransfer");
    // An asset with no maximum, or no daily limit, is refused (fail closed).
    expect(rule(judgeRequest(rules(), transfer({ assetId: "0193a5c0-0000-7000-8000-0000000000ff" }), context()))).toBe(
      "maxAmountPerTransfer",
    );
    expect(rule(judgeRequest(rules(), transfer({ assetId: TOKEN, amount: 1n }), context()))).toBe("dailyLimit");
    // 200 signed today: 50 more reaches the limit, 51 exceeds it.
    expect(judgeRequest(rules(), transfer({ amount: 50n }), context(200n))).toEqual({ decision: "SIGN", counts: 50n });
    const over = judgeRequest(rules(), transfer({ amount: 51n }), context(200n));
    expect(over).toMatchObject({ decision: "REJECT", rule: "dailyLimit" });
    expect(over.decision === "REJECT" && over.reason).toBe(
      `amount 51 on top of 200 signed today (UTC) is above dailyLimit 250 for asset ${NATIVE}`,
    );
  });

  it("lets a fill through by its type alone, counting nothing", () => {
    const fill = transfer({ type: "NONCE_FILL", kind: "SELF_SEND", assetId: null, amount: 0n, destination: SOURCE });
    expect(judgeRequest(rules(), fill, context(250n))).toEqual({ decision: "SIGN", counts: 0n });
    expect(rule(judgeRequest(rules({ types: ["TRANSFER"] }), fill, context()))).toBe("types");
  });

  it("judges a replacement as its original: its kind must be listed, its amount counted once", () => {
    const speedUp = transfer({ transactionId: "t2", type: "REPLACEMENT", replacesTransactionId: "t1" });
    expect(judgeRequest(rules(), speedUp, context(200n, ["t1"]))).toEqual({ decision: "SIGN", counts: 0n });
    expect(rule(judgeRequest(rules(), speedUp, context(200n)))).toBe("dailyLimit");
    expect(rule(judgeRequest(rules(), { ...speedUp, amount: 101n }, context(0n, ["t1"])))).toBe("maxAmountPerTransfer");
    expect(rule(judgeRequest(rules({ types: ["REPLACEMENT"] }), speedUp, context(0n, ["t1"])))).toBe("types");
    // The same transaction decided again after a restart is not counted twice.
    expect(judgeRequest(rules(), transfer(), context(250n, ["t1"]))).toEqual({ decision: "SIGN", counts: 0n });
  });

  it("reads the ACTIVE address book of the transfer's network and asset", () => {
    const book = rules({ destinations: "ADDRESS_BOOK" });
    const entry = { status: "ACTIVE", networkCode: "QUANTUM_SANDBOX", address: PAYEE, assetIds: null };
    expect(rule(judgeRequest(book, transfer(), context(0n, [], [entry])))).toBe("SIGN");
    expect(rule(judgeRequest(book, transfer(), context(0n, [], [{ ...entry, status: "PENDING" }])))).toBe("destinations");
    expect(rule(judgeRequest(book, transfer(), context(0n, [], [{ ...entry, networkCode: "QUANTUM_MAINNET" }])))).toBe("destinations");
    expect(rule(judgeRequest(book, transfer(), context(0n, [], [{ ...entry, assetIds: [TOKEN] }])))).toBe("destinations");
    expect(rule(judgeRequest(book, transfer(), context(0n, [], [{ ...entry, assetIds: [TOKEN, NATIVE] }])))).toBe("SIGN");
  });
});
