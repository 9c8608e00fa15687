import { TRPCError } from "@trpc/server";
import { AppError } from "@qc/core";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { appErrorFromTrpc, toTrpcError, trpcCodeFor } from "./errors";
import { buildOpenApiDocument } from "./openapi";
import { appRouter } from "./router";

type Operation = { security?: unknown[]; "x-scope"?: string; responses: Record<string, { content?: unknown }> };

describe("the OpenAPI document of the real router", () => {
  const document = buildOpenApiDocument(appRouter as never, "https://custody.example");
  const operations = Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    Object.entries(item as Record<string, Operation>).map(([method, op]) => ({ path, method, op })),
  );

  it("declares a scope on every authenticated operation, and public ones are the known few", () => {
    expect(operations.length).toBeGreaterThan(30);
    const publicPaths = operations.filter(({ op }) => !op["x-scope"]).map(({ method, path }) => `${method} ${path}`).sort();
    expect(publicPaths).toEqual(
      ["get /v1/dev/mailbox", "post /v1/auth/login", "post /v1/onboarding/kyc/callback", "post /v1/signup", "post /v1/signup/resend-verification", "post /v1/signup/verify-email"].sort(),
    );
    for (const { op } of operations) if (op["x-scope"]) expect(["read", "write", "admin"]).toContain(op["x-scope"]);
  });

  it("needs at least write for every state-changing route (CONTRACT §3), logout excepted", () => {
    // Ending one's own session changes nothing but that session: any authenticated caller may.
    const readWrites = operations.filter(({ method, op }) => method !== "get" && op["x-scope"] === "read").map(({ path }) => path);
    expect(readWrites).toEqual(["/v1/auth/logout"]);
  });

  it("documents every error response with the contract's flat body", () => {
    for (const { op } of operations) {
      for (const [status, response] of Object.entries(op.responses)) {
        if (Number(status) >= 400) expect(response.content).toEqual({ "application/json": { schema: { $ref: "#/components/schemas/Error" } } });
      }
    }
  });
});

describe("error mapping between AppError and tRPC", () => {
  it("keeps the contract status through the tRPC code", () => {
    expect(trpcCodeFor(new AppError("INVALID_OWNERSHIP_PROOF", "x"))).toBe("BAD_REQUEST");
    expect(trpcCodeFor(new AppError("IDEMPOTENCY_KEY_MISMATCH", "x"))).toBe("UNPROCESSABLE_CONTENT");
    expect(trpcCodeFor(new AppError("UNAVAILABLE", "x"))).toBe("SERVICE_UNAVAILABLE");
    const wrapped = toTrpcError(new AppError("VAULT_ARCHIVED", "archived"));
    expect(wrapped.code).toBe("CONFLICT");
    expect(appErrorFromTrpc(wrapped).error).toBe("VAULT_ARCHIVED");
  });

  it("turns zod input errors into VALIDATION_FAILED with field paths, and anything unknown into INTERNAL", () => {
    const parsed = z.object({ name: z.string(), metadata: z.object({ desk: z.string() }) }).safeParse({ name: 1, metadata: { desk: 2 } });
    const error = appErrorFromTrpc(new TRPCError({ code: "BAD_REQUEST", cause: parsed.error }));
    expect(error.error).toBe("VALIDATION_FAILED");
    expect(error.details?.fields?.map((f) => f.path)).toEqual(["name", "metadata.desk"]);
    const internal = appErrorFromTrpc(new TRPCError({ code: "INTERNAL_SERVER_ERROR", message: "db password=hunter2" }));
    expect(internal.error).toBe("INTERNAL");
    expect(internal.message).toBe("internal error");
  });
});
