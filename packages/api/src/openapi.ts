import { AUTHENTICATION_ERRORS, ERROR_CODES, ERROR_NAMES, GUARD_ERRORS, type ErrorName } from "@qc/core";
import { MEMBER_ACTIONS } from "@qc/domain";
import type { AnyTRPCProcedure } from "@trpc/server";
import { generateOpenApiDocument, type OpenApiRouter } from "trpc-to-openapi";
import { z } from "zod";
import { ERROR_DOCS, errorCodesMarkdown, exampleErrorBody } from "./openapi-errors";
import { ndjsonLineSchema } from "./schemas/ndjson";
import { authedProcedure, requiredAction, type Meta, type SuccessStatus } from "./trpc";

const ERROR_SCHEMA = {
  type: "object",
  description: "Every error has this one flat body. Branch on `error` (or its numeric `code`), never on `message`.",
  required: ["error", "code", "message", "requestId"],
  properties: {
    error: { type: "string", enum: ERROR_NAMES, description: "Stable error name (see Errors in the API description)." },
    code: { type: "integer", description: "Stable numeric code of `error`." },
    message: { type: "string", description: "Human-readable explanation; never echoes a secret." },
    requestId: { type: "string", description: "The request's `X-Request-ID`; quote it when reporting a problem." },
    details: {
      type: "object",
      description:
        "Optional context: `fields` for VALIDATION_FAILED, `reason` for INVALID_OWNERSHIP_PROOF, the ids involved for " + "conflicts.",
      properties: {
        fields: {
          type: "array",
          items: {
            type: "object",
            required: ["path", "message"],
            properties: { path: { type: "string", example: "metadata.desk" }, message: { type: "string" } },
          },
        },
      },
      additionalProperties: true,
    },
  },
  additionalProperties: false,
  example: exampleErrorBody("VALIDATION_FAILED"),
} as const;

const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });
const ERROR_CONTENT_SCHEMA = { $ref: "#/components/schemas/Error" } as const;

const HEADERS = {
  "X-Request-ID": {
    description: "The request's id: the one the client sent when valid (1–128 characters of `[A-Za-z0-9._:-]`), otherwise a generated one.",
    required: true,
    schema: { type: "string" },
  },
  "RateLimit-Limit": {
    description: "Requests per second the tenant's token bucket refills with.",
    required: true,
    schema: { type: "integer" },
  },
  "RateLimit-Remaining": { description: "Requests left in the tenant's bucket right now.", required: true, schema: { type: "integer" } },
  "RateLimit-Reset": { description: "Seconds until the bucket is full again.", required: true, schema: { type: "integer" } },
  "Retry-After": {
    description: "Seconds to wait before retrying (always sent with 429; with 503 when the wait is known).",
    required: false,
    schema: { type: "integer" },
  },
  "Idempotent-Replayed": {
    description:
      "`true` when this is the stored answer to an earlier request with the same `X-Idempotency-Key` and body; " + "absent otherwise.",
    required: false,
    schema: { type: "string", enum: ["true"] },
  },
} as const;

const REQUEST_ID_PARAMETER = {
  name: "X-Request-ID",
  in: "header",
  required: false,
  description:
    "Your id for this request (1–128 characters of `[A-Za-z0-9._:-]`); echoed in `X-Request-ID` and in error " +
    "bodies. Another value is replaced by a generated id.",
  schema: { type: "string", pattern: "^[A-Za-z0-9._:-]{1,128}$" },
  example: "order-7f3a-attempt-1",
} as const;

const TAGS = [
  { name: "signup", description: "Create a tenant and its first member, its OWNER, and verify their email address." },
  { name: "auth", description: "Dashboard sessions: log in and out." },
  { name: "onboarding", description: "Identity verification (KYC/KYB), which enables the value-moving routes." },
  { name: "credentials", description: "API keys: list and rotate. Keys are created and revoked in the dashboard." },
  { name: "settings", description: "Tenant settings: the IP allowlist for API keys, and whether address-book additions need approval." },
  { name: "members", description: "The tenant's members and their roles, which limit what each member's sessions and keys may do." },
  {
    name: "approvals",
    description: "Approval quorums: approver groups that policy rules require, and the approvals of transfers held for them.",
  },
  { name: "audit", description: "The append-only audit trail." },
  { name: "vaults", description: "Vault accounts: one network each; they hold wallets." },
  { name: "wallets", description: "Wallets: signer-managed, registered with an ownership proof, or watch-only." },
  { name: "assets", description: "The native asset of each network and the tenant's ERC-20 tokens." },
  {
    name: "transactions",
    description:
      "Outbound transfers: submitted here, signed in your signer, broadcast and followed to completion by the service. " +
      "Deposits: every incoming transfer to one of your wallets, recorded by the service as it follows the chain " +
      "(`type: DEPOSIT`, `direction: INBOUND`), confirmed and announced like any transaction.",
  },
  { name: "policies", description: "Transaction policies: the ordered rules that allow or block a transfer before it is signed." },
  {
    name: "address-book",
    description:
      "The address book: destinations that policy rules may match with `destination`, each counting only after its " +
      "activation delay — and, when the tenant requires it, after an approver group's quorum.",
  },
  {
    name: "signer",
    description:
      "For your signer: the pool of public keys it enrolls for new wallets, and the transactions waiting for its " + "signature.",
  },
  { name: "webhooks", description: "Signed event notifications (Standard Webhooks) to your endpoints, with delivery history and retries." },
  { name: "contracts", description: "Audited contract templates and their deployment through the transaction pipeline." },
  { name: "development", description: "Development helpers; not served in production." },
];

const IDEMPOTENCY_ERRORS: ErrorName[] = ["IDEMPOTENCY_KEY_IN_USE", "IDEMPOTENCY_KEY_MISMATCH"];

const SUCCESS_DESCRIPTIONS: Record<SuccessStatus, string> = { 200: "OK", 201: "Created", 202: "Accepted", 204: "No Content" };

/** How a procedure is reached: read from its middlewares, so that no tier can be forgotten. */
export interface ProcedureTier {
  /** Behind the credentials, allowlist, scope and rate-limit middleware. */
  authenticated: boolean;
  /** Refused before KYC as well: the authentication middleware enforces the meta's `valueMoving`. */
  valueMoving: boolean;
}

const AUTHENTICATE = authedProcedure._def.middlewares.at(-1);

/**
 * A built procedure's `_def` keeps its builder's middleware list, though tRPC's exported Procedure
 * type does not declare it (the builder's does): a reach-in, listed in
 * docs/decisions/library-internals.md. Should an upgrade move it, this throws and every document
 * build and openapi.test.ts fail, rather than documenting every route as unauthenticated.
 */
export function procedureTier(procedure: unknown): ProcedureTier {
  const { middlewares, meta } = (procedure as AnyTRPCProcedure)._def as AnyTRPCProcedure["_def"] & { middlewares?: unknown };
  if (!Array.isArray(middlewares))
    throw new Error(
      "@trpc/server no longer keeps a procedure's middlewares in _def.middlewares: see " + "docs/decisions/library-internals.md",
    );
  const authenticated = middlewares.includes(AUTHENTICATE);
  return { authenticated, valueMoving: authenticated && (meta as Meta | undefined)?.valueMoving === true };
}

/** Every error an operation can answer: its own, then those of its tier, in the code table's order. */
export function operationErrors(meta: Meta, tier: ProcedureTier): ErrorName[] {
  const names = new Set<ErrorName>([...(meta.errors ?? []), ...GUARD_ERRORS]);
  if (tier.authenticated) AUTHENTICATION_ERRORS.forEach((name) => names.add(name));
  if (tier.valueMoving) names.add("TENANT_NOT_VERIFIED");
  if (meta.idempotencyKey) IDEMPOTENCY_ERRORS.forEach((name) => names.add(name));
  if (meta.idempotencyKey === "required") names.add("IDEMPOTENCY_KEY_REQUIRED");
  return ERROR_NAMES.filter((name) => names.has(name));
}

/** The success statuses an operation declares: its default first, then its alternatives. */
export function successStatuses(meta: Meta): SuccessStatus[] {
  const main = meta.successStatus ?? 200;
  const others = Object.keys(meta.otherSuccess ?? {}).map(Number) as SuccessStatus[];
  return [main, ...others.filter((status) => status !== main)];
}

function errorResponse(status: number, names: ErrorName[]) {
  return {
    // The first line names every error, because renderers show it as the response's title.
    description: [
      names.join(", "),
      "",
      ...names.map((name) => `- \`${name}\` (${ERROR_CODES[name].code}): ${ERROR_DOCS[name].meaning}`),
    ].join("\n"),
    headers: {
      "X-Request-ID": headerRef("X-Request-ID"),
      ...(status === 429 || status === 503 ? { "Retry-After": headerRef("Retry-After") } : {}),
    },
    content: {
      "application/json": {
        schema: ERROR_CONTENT_SCHEMA,
        examples: Object.fromEntries(
          names.map((name) => [name, { summary: `${name} (${ERROR_CODES[name].code})`, value: exampleErrorBody(name) }]),
        ),
      },
    },
  };
}

interface Parameter {
  name: string;
  in: string;
  example?: unknown;
  [key: string]: unknown;
}
interface MediaType {
  schema?: unknown;
  example?: unknown;
  [key: string]: unknown;
}
interface Operation {
  summary?: string;
  description?: string;
  parameters?: (Parameter | { $ref: string })[];
  requestBody?: { content: Record<string, MediaType> };
  responses: Record<string, { description?: string; content?: Record<string, MediaType> }>;
  security?: unknown[];
  [key: string]: unknown;
}

interface DocumentedProcedure {
  meta: Meta;
  tier: ProcedureTier;
  /** The schema of one line, for a route that streams NDJSON. */
  ndjsonLine: z.ZodType | undefined;
}

function documentedProcedures(router: OpenApiRouter): Map<string, DocumentedProcedure> {
  const procedures = new Map<string, DocumentedProcedure>();
  for (const procedure of Object.values(router._def.procedures as Record<string, AnyTRPCProcedure>)) {
    const meta = procedure._def.meta as Meta | undefined;
    if (meta?.openapi && meta.openapi.enabled !== false) {
      procedures.set(`${meta.openapi.method.toLowerCase()} ${meta.openapi.path}`, {
        meta,
        tier: procedureTier(procedure),
        ndjsonLine: ndjsonLineSchema(procedure),
      });
    }
  }
  return procedures;
}

function apiDescription(): string {
  return `Non-custodial digital-asset custody for the post-quantum QUANTUM networks (\`QUANTUM_MAINNET\`, chain id 20803, and \`QUANTUM_SANDBOX\`, 20804). The service never holds a signing key: every outbound transaction is approved and signed with ML-DSA-87 in your own signer.

## Authentication

Send \`Authorization: Bearer <keyId>:<secret>\` with an API key created in the dashboard, or a dashboard session token (\`qs_…\` from \`POST /v1/auth/login\`). Scopes are ordered, \`read\` ⊂ \`write\` ⊂ \`admin\`, and \`signer\` stands beside them: it includes \`read\` and is the only scope (besides full access) for the signer's routes (enrolling keys, registering wallets, the signing queue, signatures and rejections), and neither \`write\` nor \`admin\` includes it. A key without scopes has full access, \`signer\` included. Each operation names the scope it needs as \`x-scope\`. A request also needs the member's role to allow the operation's action, named as \`x-action\` (one of ${MEMBER_ACTIONS.map((action) => `\`${action}\``).join(", ")}): a session acts with its user's role, an API key with the current role of the member who created it; refused, 403 \`INSUFFICIENT_ROLE\`. The API is served over HTTPS only: a plain-HTTP request is redirected (308) and processes nothing, and an API key sent that way is marked exposed and must be rotated.

## Conventions

JSON in camelCase. Ids are UUIDs. Timestamps are RFC 3339 in UTC with milliseconds. Amounts are decimal integer strings in base units (a JSON number is refused). Addresses are accepted as 40 hex digits with an optional \`0x\` (mixed case must pass the EIP-55 checksum) and always returned lower-case with \`0x\`. Lists take \`limit\` (1–200, default 50) and an opaque \`cursor\`, are newest first, and answer \`page: {nextCursor, hasMore}\`.

## Request ids

Every response carries \`X-Request-ID\`: the value you sent when it is valid (1–128 characters of \`[A-Za-z0-9._:-]\`), otherwise a generated one. Error bodies repeat it as \`requestId\`.

## Rate limits and lockout

Authenticated requests draw on a per-tenant token bucket; answers carry \`RateLimit-Limit\`, \`RateLimit-Remaining\` and \`RateLimit-Reset\`. Past the limit the answer is 429 \`RATE_LIMITED\` with \`Retry-After\` in seconds. Signup is limited per source address. Repeated failed credential checks from one source address lock that address out (429 \`LOCKED_OUT\`, with \`Retry-After\`), even with good credentials.

## Idempotency

A POST that lists the \`X-Idempotency-Key\` header (1–255 characters, kept 24 hours per tenant) executes once per key: the same key with the same body replays the first answer, same status and body, with \`Idempotent-Replayed: true\`; the same key with another body is 422 \`IDEMPOTENCY_KEY_MISMATCH\`; while the first request still runs, 409 \`IDEMPOTENCY_KEY_IN_USE\`. A request refused before it executes (authentication, validation, rate limit) stores nothing, so it can be fixed and retried with the same key. An answer that holds a secret shown once (a rotated API key's, a webhook's) is never stored: its replay is 409 \`CONFLICT\` saying the secret was shown once.

## Request guards

Before any operation runs, on every route: a body must be \`application/json\` (415), at most 1 MB (413), well-formed and not nested too deep (400 \`VALIDATION_FAILED\`), and must not contain private key material such as a private key, seed or mnemonic (400 \`KEY_MATERIAL_REJECTED\`, audited without the value). An unknown path is 404 \`NOT_FOUND\`; a known path with another method is 405 \`METHOD_NOT_ALLOWED\` with \`Allow\`.

## Errors

Every error has the same flat body, the \`Error\` schema: \`{error, code, message, requestId, details?}\`. Each operation lists, per status, the errors it can answer. Every error, with its HTTP status and code:

${errorCodesMarkdown()}
`;
}

/**
 * The OpenAPI 3.1 document of every /v1 route, generated from the routers and completed from
 * their meta: the declared success status (the one the REST adapter sends), every error status
 * the operation can answer (its own errors and its tier's) with the one flat Error body and an
 * example per error, the headers, the examples and each operation's required scope (`x-scope`) and action (`x-action`).
 */
export function buildOpenApiDocument(router: OpenApiRouter, baseUrl: string) {
  const document = generateOpenApiDocument<Meta>(router, {
    title: "Quantum Custody API",
    description: apiDescription(),
    version: "1.0.0",
    baseUrl,
    securitySchemes: {
      bearer: { type: "http", scheme: "bearer", description: "`<keyId>:<secret>` of an API key, or a `qs_` dashboard session token." },
    },
  });
  const procedures = documentedProcedures(router);
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(item as Record<string, Operation>)) {
      const procedure = procedures.get(`${method} ${path}`);
      if (!procedure) throw new Error(`no procedure documents ${method.toUpperCase()} ${path}`);
      completeOperation(operation, procedure);
    }
  }
  // trpc-to-openapi registers a schema per tRPC error code (`error.NOT_FOUND`, …) in another shape
  // than the service's; nothing refers to them once the responses are rewritten.
  const schemas = Object.fromEntries(Object.entries(document.components?.schemas ?? {}).filter(([name]) => !name.startsWith("error.")));
  document.components = {
    ...document.components,
    schemas: { ...schemas, Error: ERROR_SCHEMA as never },
    headers: HEADERS as never,
    parameters: { RequestId: REQUEST_ID_PARAMETER as never },
  };
  document.tags = TAGS;
  return document;
}

/**
 * A streamed route's success content: `application/x-ndjson`, the schema of one line (OpenAPI 3.1
 * has no item schema for a stream; the description says so), and the example's lines as the text
 * a client reads.
 */
function ndjsonContent(line: z.ZodType, example: unknown): Record<string, MediaType> {
  const { $schema: _, ...schema } = z.toJSONSchema(line, { target: "draft-2020-12", io: "output" });
  return {
    "application/x-ndjson": {
      schema: { ...schema, description: "Each line of the body is one JSON value of this schema, followed by a line feed." },
      ...(Array.isArray(example) ? { example: example.map((item) => `${JSON.stringify(item)}\n`).join("") } : {}),
    },
  };
}

function completeOperation(operation: Operation, { meta, tier, ndjsonLine }: DocumentedProcedure): void {
  if (tier.authenticated) {
    operation.security = [{ bearer: [] }];
    operation["x-scope"] = meta.scope ?? "admin";
    operation["x-action"] = requiredAction(meta);
  } else {
    delete operation.security;
  }
  if (tier.valueMoving) operation["x-value-moving"] = true;

  const input = meta.example?.input ?? {};
  for (const parameter of operation.parameters ?? []) {
    if ("name" in parameter && parameter.name in input) parameter.example = input[parameter.name];
  }
  operation.parameters = [...(operation.parameters ?? []), { $ref: "#/components/parameters/RequestId" }];
  if (meta.idempotencyKey) {
    operation.parameters.push({
      name: "X-Idempotency-Key",
      in: "header",
      required: meta.idempotencyKey === "required",
      description: "Executes the request at most once per key (see Idempotency in the API description).",
      schema: { type: "string", minLength: 1, maxLength: 255 },
      example: "payout-2026-11-21-0001",
    });
  }
  const json = operation.requestBody?.content["application/json"];
  if (json) {
    // A body-less POST (logout, start KYC) takes an empty object: its example says so.
    const inPath = new Set((operation.parameters ?? []).flatMap((p) => ("in" in p && p.in === "path" ? [p.name] : [])));
    json.example = Object.fromEntries(Object.entries(input).filter(([name]) => !inPath.has(name)));
  }

  const schema = operation.responses["200"]?.content?.["application/json"]?.schema;
  const successHeaders = {
    "X-Request-ID": headerRef("X-Request-ID"),
    ...(tier.authenticated
      ? {
          "RateLimit-Limit": headerRef("RateLimit-Limit"),
          "RateLimit-Remaining": headerRef("RateLimit-Remaining"),
          "RateLimit-Reset": headerRef("RateLimit-Reset"),
        }
      : {}),
    ...(meta.idempotencyKey ? { "Idempotent-Replayed": headerRef("Idempotent-Replayed") } : {}),
  };
  const responses: Operation["responses"] = {};
  const [main, ...others] = successStatuses(meta);
  responses[String(main)] = {
    description: meta.openapi?.successDescription ?? SUCCESS_DESCRIPTIONS[main!],
    headers: successHeaders,
    // 204 has no body (the procedure's output is void).
    ...(main === 204
      ? {}
      : ndjsonLine
        ? { content: ndjsonContent(ndjsonLine, meta.example?.output) }
        : { content: { "application/json": { schema, ...(meta.example ? { example: meta.example.output } : {}) } } }),
  } as never;
  for (const status of others) {
    responses[String(status)] = {
      description: meta.otherSuccess![status],
      headers: successHeaders,
      content: { "application/json": { schema, ...(meta.example ? { example: meta.example.output } : {}) } },
    } as never;
  }
  const byStatus = new Map<number, ErrorName[]>();
  for (const name of operationErrors(meta, tier)) {
    const status = ERROR_CODES[name].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), name]);
  }
  for (const status of [...byStatus.keys()].sort((a, b) => a - b)) responses[String(status)] = errorResponse(status, byStatus.get(status)!);
  operation.responses = responses;
}
