import { describe, expect, it } from "vitest";
import { AppError } from "../errors";
import { canonicalJson, idempotencyKeyFromHeaders, idempotencyRequestHash } from "./idempotency-key";

describe("idempotency keys", () => {
  it("reads X-Idempotency-Key or Idempotency-Key, the same value in both, 1–255 printable ASCII characters", () => {
    expect(idempotencyKeyFromHeaders({})).toBeUndefined();
    expect(idempotencyKeyFromHeaders({ xIdempotencyKey: "a-1" })).toBe("a-1");
    expect(idempotencyKeyFromHeaders({ idempotencyKey: "a-1" })).toBe("a-1");
    expect(idempotencyKeyFromHeaders({ xIdempotencyKey: "a-1", idempotencyKey: "a-1" })).toBe("a-1");
    expect(idempotencyKeyFromHeaders({ xIdempotencyKey: "~".repeat(255) })).toHaveLength(255);
    for (const bad of [
      { xIdempotencyKey: "a-1", idempotencyKey: "a-2" },
      { xIdempotencyKey: "" },
      { xIdempotencyKey: "x".repeat(256) },
      { idempotencyKey: "é" },
      { xIdempotencyKey: "a\u0000b" },
    ]) {
      expect(() => idempotencyKeyFromHeaders(bad)).toThrowError(AppError);
      try {
        idempotencyKeyFromHeaders(bad);
      } catch (error) {
        expect((error as AppError).error).toBe("VALIDATION_FAILED");
      }
    }
  });

  it("treats bodies that mean the same as the same request, and nothing else", () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}');
    expect(canonicalJson(undefined)).toBe("null");
    const hash = (input: unknown, path = "/v1/transactions", method = "POST") => idempotencyRequestHash({ method, path, input });
    expect(hash({ amount: "1", to: "x" })).toBe(hash({ to: "x", amount: "1" }));
    expect(hash({ amount: "1" }, "/v1/transactions", "post")).toBe(hash({ amount: "1" }));
    expect(hash({ amount: "1" })).not.toBe(hash({ amount: "2" }));
    expect(hash({ amount: "1" })).not.toBe(hash({ amount: 1 }));
    expect(hash({ amount: "1" })).not.toBe(hash({ amount: "1" }, "/v1/vault/accounts"));
    expect(hash({ amount: "1" })).not.toBe(hash({ amount: "1" }, "/v1/transactions", "PUT"));
    expect(hash({ a: [1, 2] })).not.toBe(hash({ a: [2, 1] }));
  });
});
