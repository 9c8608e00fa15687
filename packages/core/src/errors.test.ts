import { describe, expect, it } from "vitest";
import { AppError, ERROR_CODES, errorBody, toAppError } from "./errors";

describe("AppError", () => {
  it("mirrors CONTRACT §2: codes are unique and statuses are HTTP errors", () => {
    const codes = Object.values(ERROR_CODES).map((e) => e.code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const { status } of Object.values(ERROR_CODES)) expect(status).toBeGreaterThanOrEqual(400);
    expect(ERROR_CODES.INVALID_OWNERSHIP_PROOF).toEqual({ code: 1105, status: 400 });
    expect(ERROR_CODES.IDEMPOTENCY_KEY_MISMATCH).toEqual({ code: 1042, status: 422 });
  });

  it("renders the flat body, with details only when present", () => {
    const plain = new AppError("NOT_FOUND", "vault not found");
    expect(errorBody(plain, "req-1")).toEqual({ error: "NOT_FOUND", code: 1030, message: "vault not found", requestId: "req-1" });
    const withFields = new AppError("VALIDATION_FAILED", "invalid body", { details: { fields: [{ path: "name", message: "required" }] } });
    expect(errorBody(withFields, "r").details).toEqual({ fields: [{ path: "name", message: "required" }] });
  });

  it("turns unknown errors into INTERNAL without leaking their message", () => {
    const internal = toAppError(new Error("connection string postgres://user:pw@host failed"));
    expect(internal.error).toBe("INTERNAL");
    expect(internal.message).toBe("internal error");
    expect(toAppError(new Error("wrapped", { cause: new AppError("CONFLICT", "busy") })).error).toBe("CONFLICT");
  });
});
