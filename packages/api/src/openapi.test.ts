import { TRPCError } from "@trpc/server";
import { AppError, ERROR_CODES, type ErrorName } from "@qc/core";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { appErrorFromTrpc, toTrpcError, trpcCodeFor } from "./errors";
import { buildOpenApiDocument, operationErrors, procedureTier, successStatuses } from "./openapi";
import { ndjsonLineSchema } from "./schemas/ndjson";
import { appRouter } from "./router";
import { authedProcedure, createRouter, publicProcedure, type Meta } from "./trpc";

type Response = {
  description: string;
  headers?: Record<string, unknown>;
  content?: Record<
    string,
    { schema?: unknown; example?: unknown; examples?: Record<string, { value: { error: ErrorName; code: number } }> }
  >;
};
type Parameter = { name?: string; in?: string; example?: unknown; $ref?: string; required?: boolean };
type Operation = {
  summary?: string;
  description?: string;
  tags?: string[];
  security?: unknown[];
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { example?: unknown }> };
  "x-scope"?: string;
  "x-action"?: string;
  "x-value-moving"?: boolean;
  responses: Record<string, Response>;
};
type ProcedureDef = { _def: { meta?: Meta; inputs: z.ZodType[]; output?: z.ZodType; middlewares: unknown[] } };

function operationsOf(document: ReturnType<typeof buildOpenApiDocument>) {
  return Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    Object.entries(item as Record<string, Operation>).map(([method, op]) => ({ key: `${method} ${path}`, path, method, op })),
  );
}

function proceduresOf(router: { _def: { procedures: Record<string, unknown> } }) {
  const byOperation = new Map<string, { name: string; def: ProcedureDef["_def"]; procedure: unknown }>();
  for (const [name, procedure] of Object.entries(router._def.procedures)) {
    const def = (procedure as ProcedureDef)._def;
    if (def.meta?.openapi) byOperation.set(`${def.meta.openapi.method.toLowerCase()} ${def.meta.openapi.path}`, { name, def, procedure });
  }
  return byOperation;
}

const errorNamesOf = (response: Response) =>
  Object.values(response.content?.["application/json"]?.examples ?? {}).map((example) => example.value.error);

describe("the OpenAPI document of the real router", () => {
  const document = buildOpenApiDocument(appRouter as never, "https://custody.example");
  const operations = operationsOf(document);
  const procedures = proceduresOf(appRouter as never);

  it("documents every REST procedure, each with the tier its middlewares give it", () => {
    expect(operations.length).toBeGreaterThan(30);
    expect(operations.map((o) => o.key).sort()).toEqual([...procedures.keys()].sort());
    for (const { key, op } of operations) {
      const tier = procedureTier(procedures.get(key)!.procedure);
      expect(op.security, key).toEqual(tier.authenticated ? [{ bearer: [] }] : undefined);
      expect(op["x-scope"], key).toBe(tier.authenticated ? (procedures.get(key)!.def.meta!.scope ?? "admin") : undefined);
      // The action the tier enforces is the one the procedure declares (none is left to the default).
      expect(op["x-action"], key).toBe(tier.authenticated ? procedures.get(key)!.def.meta!.action : undefined);
    }
  });

  it("declares a scope on every authenticated operation, and public ones are the known few", () => {
    const publicPaths = operations
      .filter(({ op }) => !op["x-scope"])
      .map(({ key }) => key)
      .sort();
    expect(publicPaths).toEqual(
      [
        "get /v1/dev/mailbox",
        "post /v1/auth/login",
        "post /v1/auth/login/passkey",
        "post /v1/auth/password-reset",
        "post /v1/auth/password-reset/confirm",
        "post /v1/members/invitations/accept",
        "post /v1/onboarding/kyc/callback",
        "post /v1/signup",
        "post /v1/signup/resend-verification",
        "post /v1/signup/verify-email",
      ].sort(),
    );
    for (const { op } of operations) if (op["x-scope"]) expect(["read", "write", "admin", "signer"]).toContain(op["x-scope"]);
  });

  it("needs at least write for every state-changing route (CONTRACT §3), logout excepted", () => {
    // Ending one's own session changes nothing but that session: any authenticated caller may.
    const readWrites = operations.filter(({ method, op }) => method !== "get" && op["x-scope"] === "read").map(({ path }) => path);
    expect(readWrites).toEqual(["/v1/auth/logout"]);
  });

  it("gives every operation a summary, a description and a known tag", () => {
    const tags = new Set((document.tags ?? []).map((tag) => tag.name));
    for (const { key, op } of operations) {
      expect(op.summary, key).toMatch(/\S/);
      // Statuses belong in the responses, where a client generator reads them, not in prose titles.
      expect(op.summary, key).not.toMatch(/\b[1-5]\d\d\b/);
      expect(op.description?.length ?? 0, key).toBeGreaterThan(40);
      expect(op.tags?.length, key).toBeGreaterThan(0);
      for (const tag of op.tags ?? []) expect(tags, `${key} tag ${tag}`).toContain(tag);
    }
    for (const tag of document.tags ?? []) expect(tag.description, tag.name).toMatch(/\S/);
  });

  it("shows a request and a response example on every operation", () => {
    for (const { key, op } of operations) {
      const success = Object.entries(op.responses).find(([status]) => status.startsWith("2"))!;
      // A 204 has no body, so no example: it must declare no content at all.
      if (success[0] === "204") expect(success[1].content, `${key} 204 content`).toBeUndefined();
      else {
        const content = success[1].content ?? {};
        expect(content["application/json"]?.example ?? content["application/x-ndjson"]?.example, `${key} response example`).toBeDefined();
      }
      if (op.requestBody) expect(op.requestBody.content["application/json"]?.example, `${key} body example`).toBeDefined();
      for (const parameter of op.parameters ?? []) {
        if (parameter.in === "path") expect(parameter.example, `${key} ${parameter.name}`).toBeDefined();
      }
    }
  });

  it("has examples that the procedures' own schemas accept", () => {
    for (const [key, { def }] of procedures) {
      const example = def.meta!.example;
      expect(example, key).toBeDefined();
      for (const input of def.inputs) {
        const parsed = input.safeParse(example!.input);
        expect(parsed.error?.issues ?? [], `${key} input example`).toEqual([]);
      }
      // A streamed route's example is its lines: each must be a line of its schema.
      const line = ndjsonLineSchema({ _def: def });
      const outputs = line ? (example!.output as unknown[]) : [example!.output];
      for (const output of outputs) {
        const parsed = (line ?? def.output!).safeParse(output);
        expect(parsed.error?.issues ?? [], `${key} output example`).toEqual([]);
      }
    }
  });

  it("declares the success status the REST adapter answers with, and no other", () => {
    for (const { key, op } of operations) {
      const successes = Object.keys(op.responses)
        .filter((status) => status.startsWith("2"))
        .sort();
      expect(successes, key).toEqual(successStatuses(procedures.get(key)!.def.meta!).map(String).sort());
    }
    const successesOf = (key: string) =>
      Object.keys(operations.find((o) => o.key === key)!.op.responses).filter((status) => status.startsWith("2"));
    for (const created of [
      "post /v1/signup",
      "post /v1/vault/accounts",
      "post /v1/vault/accounts/{vaultAccountId}/wallets",
      "post /v1/vault/accounts/{vaultAccountId}/wallets/generate",
      "post /v1/vault/accounts/{vaultAccountId}/wallets/watch-only",
      "post /v1/signer/keys",
    ]) {
      expect(successesOf(created), created).toEqual(["201"]);
    }
    for (const createdOrExisting of ["post /v1/assets", "post /v1/onboarding/kyc", "post /v1/wallets/{walletId}/network-links"]) {
      expect(successesOf(createdOrExisting), createdOrExisting).toEqual(["200", "201"]);
    }
    for (const accepted of ["post /v1/signup/resend-verification", "post /v1/auth/password-reset"])
      expect(successesOf(accepted), accepted).toEqual(["202"]);
    expect(successesOf("get /v1/vault/accounts")).toEqual(["200"]);
  });

  it("derives every error response from the operation's own errors and its tier, with the one flat body", () => {
    for (const { key, op } of operations) {
      const { def, procedure } = procedures.get(key)!;
      const declared: ErrorName[] = [];
      for (const [status, response] of Object.entries(op.responses)) {
        if (Number(status) < 400) continue;
        expect(response.content?.["application/json"]?.schema, `${key} ${status}`).toEqual({ $ref: "#/components/schemas/Error" });
        const names = errorNamesOf(response);
        expect(names.length, `${key} ${status}`).toBeGreaterThan(0);
        for (const name of names) {
          expect(ERROR_CODES[name].status, `${key}: ${name} under ${status}`).toBe(Number(status));
          expect(response.description, `${key} ${status}`).toContain(`\`${name}\` (${ERROR_CODES[name].code})`);
          declared.push(name);
        }
      }
      expect(declared.sort(), key).toEqual([...operationErrors(def.meta!, procedureTier(procedure))].sort());
      for (const name of def.meta!.errors ?? []) expect(declared, key).toContain(name);
    }
    const byKey = new Map(operations.map(({ key, op }) => [key, op]));
    const rotate = byKey.get("post /v1/credentials/rotate")!;
    expect(errorNamesOf(rotate.responses["401"]!).sort()).toEqual([
      "CREDENTIAL_EXPIRED",
      "CREDENTIAL_REVOKED",
      "CREDENTIAL_ROTATED",
      "UNAUTHENTICATED",
    ]);
    expect(errorNamesOf(rotate.responses["403"]!).sort()).toEqual(["INSUFFICIENT_ROLE", "INSUFFICIENT_SCOPE", "IP_NOT_ALLOWED"]);
    expect(errorNamesOf(rotate.responses["404"]!)).toEqual(["NOT_FOUND"]);
    expect(errorNamesOf(rotate.responses["409"]!)).toEqual(["CONFLICT"]);
    expect(errorNamesOf(rotate.responses["429"]!).sort()).toEqual(["LOCKED_OUT", "RATE_LIMITED"]);
    expect(errorNamesOf(rotate.responses["400"]!).sort()).toEqual(["KEY_MATERIAL_REJECTED", "VALIDATION_FAILED"]);
    expect(Object.keys(byKey.get("post /v1/signup/resend-verification")!.responses).sort()).toEqual([
      "202",
      "400",
      "413",
      "415",
      "500",
      "503",
    ]);
    expect(errorNamesOf(byKey.get("put /v1/vault/accounts/{vaultAccountId}")!.responses["409"]!)).toEqual(["VAULT_ARCHIVED"]);
  });

  it("describes the request id, rate-limit and retry headers where they are sent", () => {
    expect(Object.keys(document.components?.headers ?? {}).sort()).toEqual(
      ["Idempotent-Replayed", "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset", "Retry-After", "X-Request-ID"].sort(),
    );
    expect(document.components?.parameters?.RequestId).toMatchObject({ name: "X-Request-ID", in: "header", required: false });
    for (const { key, op } of operations) {
      expect(op.parameters, key).toContainEqual({ $ref: "#/components/parameters/RequestId" });
      const authenticated = Boolean(op["x-scope"]);
      for (const [status, response] of Object.entries(op.responses)) {
        const headers = Object.keys(response.headers ?? {});
        expect(headers, `${key} ${status}`).toContain("X-Request-ID");
        if (status.startsWith("2") && authenticated)
          expect(headers, `${key} ${status}`).toEqual(
            expect.arrayContaining(["RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"]),
          );
        if (status === "429" || status === "503") expect(headers, `${key} ${status}`).toContain("Retry-After");
      }
    }
  });

  it("lists every error code of the table with its meaning, and points at no document integrators lack", () => {
    const description = document.info.description ?? "";
    for (const [name, { code, status }] of Object.entries(ERROR_CODES))
      expect(description).toContain(`- **${status}** \`${name}\` (${code}): `);
    expect(JSON.stringify(document)).not.toMatch(/\bCONTRACT\b|§/);
  });

  it("keeps no stray error.* schemas, and every $ref resolves", () => {
    expect(Object.keys(document.components?.schemas ?? {}).filter((name) => name.startsWith("error."))).toEqual([]);
    const refs: string[] = [];
    const walk = (value: unknown): void => {
      if (Array.isArray(value)) value.forEach(walk);
      else if (value && typeof value === "object") {
        for (const [k, v] of Object.entries(value)) {
          if (k === "$ref" && typeof v === "string") refs.push(v);
          else walk(v);
        }
      }
    };
    walk(document.paths);
    expect(refs.length).toBeGreaterThan(operations.length);
    for (const ref of new Set(refs)) {
      const target = ref
        .replace(/^#\//, "")
        .split("/")
        .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], document);
      expect(target, ref).toBeDefined();
    }
  });
});

describe("the document of routes not served yet: value-moving, idempotent, public", () => {
  const router = createRouter({
    send: authedProcedure
      .meta({
        scope: "write",
        valueMoving: true,
        successStatus: 201,
        idempotencyKey: "required",
        errors: ["INVALID_ADDRESS"],
        openapi: {
          method: "POST",
          path: "/v1/things",
          summary: "Send a thing",
          description: "A value-moving, idempotent route for the test.",
        },
        example: { input: { to: "x" }, output: { id: "1" } },
      })
      .input(z.object({ to: z.string() }))
      .output(z.object({ id: z.string() }))
      .mutation(() => ({ id: "1" })),
    ping: publicProcedure
      .meta({
        openapi: { method: "GET", path: "/v1/ping", summary: "Ping", description: "A public route without input, for the test." },
        example: { output: { ok: true } },
      })
      .input(z.object({}).optional())
      .output(z.object({ ok: z.boolean() }))
      .query(() => ({ ok: true })),
  });
  const document = buildOpenApiDocument(router as never, "https://custody.example");
  const send = (document.paths as Record<string, Record<string, Operation>>)["/v1/things"]!.post!;
  const ping = (document.paths as Record<string, Record<string, Operation>>)["/v1/ping"]!.get!;

  it("adds TENANT_NOT_VERIFIED, the idempotency header and its errors from the meta", () => {
    expect(send["x-value-moving"]).toBe(true);
    expect(errorNamesOf(send.responses["403"]!)).toContain("TENANT_NOT_VERIFIED");
    expect(send.parameters).toContainEqual(expect.objectContaining({ name: "X-Idempotency-Key", in: "header", required: true }));
    expect(errorNamesOf(send.responses["400"]!)).toEqual(expect.arrayContaining(["IDEMPOTENCY_KEY_REQUIRED", "INVALID_ADDRESS"]));
    expect(errorNamesOf(send.responses["409"]!)).toEqual(["IDEMPOTENCY_KEY_IN_USE"]);
    expect(errorNamesOf(send.responses["422"]!)).toEqual(["IDEMPOTENCY_KEY_MISMATCH"]);
    expect(Object.keys(send.responses["201"]!.headers ?? {})).toContain("Idempotent-Replayed");
    expect(send.responses["200"]).toBeUndefined();
  });

  it("gives a public route no security, no scope and no authentication errors", () => {
    expect(ping.security).toBeUndefined();
    expect(ping["x-scope"]).toBeUndefined();
    expect(Object.keys(ping.responses).sort()).toEqual(["200", "400", "413", "415", "500", "503"]);
    expect(Object.keys(ping.responses["200"]!.headers ?? {})).toEqual(["X-Request-ID"]);
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
