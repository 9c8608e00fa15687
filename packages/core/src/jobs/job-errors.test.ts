import { describe, expect, it } from "vitest";
import { AppError } from "../errors";
import { classifyJobError, FinalJobError } from "./job-errors";

describe("classifyJobError", () => {
  it.each([
    [new AppError("UNAVAILABLE", "rpc down"), "retry"],
    [new AppError("RATE_LIMITED", "slow down"), "retry"],
    [new AppError("INTERNAL", "internal error"), "retry"],
    [Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }), "retry"],
    [new AppError("CONFLICT", "already decided"), "skip"],
    [new AppError("INVALID_TRANSACTION_STATE", "moved on"), "skip"],
    [new AppError("NOT_FOUND", "gone"), "dead-letter"],
    [new AppError("VALIDATION_FAILED", "bad"), "dead-letter"],
    [new FinalJobError("cannot ever work"), "dead-letter"],
  ] as const)("%s → %s", (error, disposition) => {
    expect(classifyJobError(error)).toBe(disposition);
  });
});
