import { sql } from "@qc/db";
import { useTestDatabase } from "@qc/db/testing";
import { describe, expect, it } from "vitest";
import {
  AppError,
  AUTHENTICATION_ERRORS,
  ERROR_CODES,
  errorBody,
  GUARD_ERRORS,
  MOVED_ON_ERRORS,
  NOT_EXECUTED_ERRORS,
  toAppError,
  TRANSIENT_ERRORS,
} from "./errors";

// CONTRACT §2, row by row, written out here rather than derived from the code under test.
const CONTRACT_TABLE: Record<string, { status: number; code: number }> = {
  INTERNAL: { status: 500, code: 1000 },
  VALIDATION_FAILED: { status: 400, code: 1001 },
  KEY_MATERIAL_REJECTED: { status: 400, code: 1002 },
  IDEMPOTENCY_KEY_REQUIRED: { status: 400, code: 1003 },
  INVALID_TOKEN: { status: 400, code: 1004 },
  UNAUTHENTICATED: { status: 401, code: 1010 },
  CREDENTIAL_EXPIRED: { status: 401, code: 1011 },
  CREDENTIAL_ROTATED: { status: 401, code: 1012 },
  CREDENTIAL_REVOKED: { status: 401, code: 1013 },
  INSUFFICIENT_SCOPE: { status: 403, code: 1020 },
  IP_NOT_ALLOWED: { status: 403, code: 1021 },
  TENANT_NOT_VERIFIED: { status: 403, code: 1022 },
  EMAIL_NOT_VERIFIED: { status: 403, code: 1023 },
  INSECURE_TRANSPORT: { status: 403, code: 1024 },
  NOT_FOUND: { status: 404, code: 1030 },
  CONFLICT: { status: 409, code: 1040 },
  IDEMPOTENCY_KEY_IN_USE: { status: 409, code: 1041 },
  IDEMPOTENCY_KEY_MISMATCH: { status: 422, code: 1042 },
  DUPLICATE_EXTERNAL_ID: { status: 409, code: 1043 },
  EMAIL_ALREADY_REGISTERED: { status: 409, code: 1044 },
  PAYLOAD_TOO_LARGE: { status: 413, code: 1050 },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, code: 1051 },
  RATE_LIMITED: { status: 429, code: 1060 },
  LOCKED_OUT: { status: 429, code: 1061 },
  UNAVAILABLE: { status: 503, code: 1070 },
  VAULT_ARCHIVED: { status: 409, code: 1101 },
  WALLET_ARCHIVED: { status: 409, code: 1102 },
  ADDRESS_ALREADY_REGISTERED: { status: 409, code: 1103 },
  NO_SIGNER_KEY_AVAILABLE: { status: 409, code: 1104 },
  INVALID_OWNERSHIP_PROOF: { status: 400, code: 1105 },
  NETWORK_MISMATCH: { status: 400, code: 1106 },
  UNKNOWN_ASSET: { status: 400, code: 1107 },
  WATCH_ONLY_SOURCE: { status: 400, code: 1201 },
  INVALID_SIGNATURE: { status: 400, code: 1202 },
  INVALID_TRANSACTION_STATE: { status: 409, code: 1203 },
  INVALID_ADDRESS: { status: 400, code: 1204 },
  INSUFFICIENT_ROLE: { status: 403, code: 1301 },
  LAST_OWNER: { status: 409, code: 1302 },
  PASSKEY_REQUIRED: { status: 409, code: 1303 },
  SELF_APPROVAL_FORBIDDEN: { status: 403, code: 1401 },
  NOT_AN_APPROVER: { status: 403, code: 1402 },
  ADDRESS_ALREADY_LISTED: { status: 409, code: 1501 },
};

// The documented additions (docs/decisions/foundation.md): the flat body for a wrong method, and
// the refusal of a cookie-authenticated state change another site made the browser send.
const ADDITIONS: Record<string, { status: number; code: number }> = {
  METHOD_NOT_ALLOWED: { status: 405, code: 1031 },
  CROSS_SITE_REQUEST: { status: 403, code: 1025 },
};

const codeAndStatus = (name: string) => {
  const { code, status } = ERROR_CODES[name as keyof typeof ERROR_CODES];
  return { status, code };
};

describe("AppError", () => {
  it("has every row of CONTRACT §2 with its code and status", () => {
    for (const [name, row] of Object.entries(CONTRACT_TABLE)) expect(codeAndStatus(name), name).toEqual(row);
  });

  it("has nothing beyond CONTRACT §2 but the documented additions", () => {
    expect(Object.keys(ERROR_CODES).sort()).toEqual([...Object.keys(CONTRACT_TABLE), ...Object.keys(ADDITIONS)].sort());
    for (const [name, row] of Object.entries(ADDITIONS)) expect(codeAndStatus(name), name).toEqual(row);
    const codes = Object.values(ERROR_CODES).map((e) => e.code);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it("carries the table's code and status on each instance", () => {
    for (const [name, row] of Object.entries({ ...CONTRACT_TABLE, ...ADDITIONS })) {
      const error = new AppError(name as keyof typeof ERROR_CODES, "m");
      expect({ code: error.code, status: error.status }, name).toEqual(row);
    }
  });

  it("groups the errors by category into the sets the OpenAPI document, idempotency and the job runner read", () => {
    const sorted = (names: readonly string[]) => [...names].sort();
    expect(sorted(GUARD_ERRORS)).toEqual(
      sorted(["VALIDATION_FAILED", "KEY_MATERIAL_REJECTED", "PAYLOAD_TOO_LARGE", "UNSUPPORTED_MEDIA_TYPE", "INTERNAL", "UNAVAILABLE"]),
    );
    const authentication = [
      "UNAUTHENTICATED",
      "CREDENTIAL_EXPIRED",
      "CREDENTIAL_ROTATED",
      "CREDENTIAL_REVOKED",
      "INSUFFICIENT_SCOPE",
      "INSUFFICIENT_ROLE",
      "IP_NOT_ALLOWED",
      "RATE_LIMITED",
      "LOCKED_OUT",
    ];
    expect(sorted(AUTHENTICATION_ERRORS)).toEqual(sorted(authentication));
    const idempotency = ["IDEMPOTENCY_KEY_REQUIRED", "IDEMPOTENCY_KEY_IN_USE", "IDEMPOTENCY_KEY_MISMATCH"];
    expect(sorted(NOT_EXECUTED_ERRORS)).toEqual(sorted([...GUARD_ERRORS, ...authentication, "TENANT_NOT_VERIFIED", ...idempotency]));
    expect(sorted(TRANSIENT_ERRORS)).toEqual(sorted(["UNAVAILABLE", "RATE_LIMITED", "INTERNAL", "IDEMPOTENCY_KEY_IN_USE"]));
    expect(sorted(MOVED_ON_ERRORS)).toEqual(sorted(["CONFLICT", "INVALID_TRANSACTION_STATE"]));
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

describe("toAppError and PostgreSQL's refusals of client values", () => {
  const t = useTestDatabase();

  /** The error a real query raises, wrapped by drizzle exactly as a service would see it. */
  async function refusal(query: ReturnType<typeof sql>): Promise<unknown> {
    try {
      await t.db.execute(query);
    } catch (error) {
      return error;
    }
    throw new Error("the query was expected to fail");
  }

  it.each([
    ["NUL in text (22021)", () => sql`select ${"a\u0000b"}::text`, "22021"],
    ["\\u0000 in jsonb (22P05)", () => sql`select ${JSON.stringify({ k: "a\u0000" })}::jsonb`, "22P05"],
    ["an unpaired surrogate in jsonb (22P02)", () => sql`select ${JSON.stringify({ k: "\ud800" })}::jsonb`, "22P02"],
    ["too long for a varchar column (22001)", () => sql`insert into rate_limits (key, points) values (${"x".repeat(300)}, 0)`, "22001"],
    ["integer out of range (22003)", () => sql`select ${"99999999999"}::int`, "22003"],
  ])("maps %s to VALIDATION_FAILED", async (_name, query, sqlState) => {
    const error = await refusal(query());
    const mapped = toAppError(error);
    expect(mapped).toMatchObject({ error: "VALIDATION_FAILED", status: 400 });
    expect(mapped.details?.fields?.[0]?.path).toBe("(request)");
    expect(mapped.cause).toBe(error);
    // The SQLSTATE sits on the driver's error under drizzle's wrapper.
    expect((error as { cause?: { code?: string } }).cause?.code).toBe(sqlState);
  });

  it("maps stack depth exceeded (54001) to VALIDATION_FAILED", async () => {
    const deep = "[".repeat(50_000) + "]".repeat(50_000);
    const error = await refusal(sql`select ${deep}::jsonb`);
    expect((error as { cause?: { code?: string } }).cause?.code).toBe("54001");
    expect(toAppError(error).error).toBe("VALIDATION_FAILED");
  });

  it("keeps other database errors INTERNAL", async () => {
    const error = await refusal(sql`select * from no_such_table`);
    expect(toAppError(error)).toMatchObject({ error: "INTERNAL", message: "internal error" });
  });
});
