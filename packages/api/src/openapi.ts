import { ERROR_NAMES } from "@qc/core";
import { generateOpenApiDocument, type OpenApiRouter } from "trpc-to-openapi";
import type { Meta } from "./trpc";

const ERROR_SCHEMA = {
  type: "object",
  description: "CONTRACT §2: every error body is flat.",
  required: ["error", "code", "message", "requestId"],
  properties: {
    error: { type: "string", enum: ERROR_NAMES },
    code: { type: "integer" },
    message: { type: "string" },
    requestId: { type: "string" },
    details: {
      type: "object",
      properties: {
        fields: {
          type: "array",
          items: { type: "object", required: ["path", "message"], properties: { path: { type: "string" }, message: { type: "string" } } },
        },
      },
      additionalProperties: true,
    },
  },
  additionalProperties: false,
} as const;

type Operation = { responses?: Record<string, { description?: string; content?: unknown }>; [key: string]: unknown };

/**
 * The OpenAPI 3.1 document of every /v1 route, generated from the routers, with the error
 * responses rewritten to the contract's error body (trpc-to-openapi documents its own shape)
 * and each operation's required scope as `x-scope`.
 */
export function buildOpenApiDocument(router: OpenApiRouter, baseUrl: string) {
  const document = generateOpenApiDocument<Meta>(router, {
    title: "Quantum Custody API",
    description: "Non-custodial digital-asset custody for the QUANTUM networks. Errors follow CONTRACT §2.",
    version: "1.0.0",
    baseUrl,
    securitySchemes: {
      bearer: { type: "http", scheme: "bearer", description: "`<keyId>:<secret>` API key, or a `qs_` session token" },
    },
  });
  document.components ??= {};
  document.components.schemas = { ...document.components.schemas, Error: ERROR_SCHEMA as never };
  const scopes = new Map<string, Meta>();
  for (const [, procedure] of Object.entries(router._def.procedures)) {
    const meta = (procedure as { _def: { meta?: Meta } })._def.meta;
    if (meta?.openapi) scopes.set(`${meta.openapi.method.toLowerCase()} ${meta.openapi.path}`, meta);
  }
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const [method, op] of Object.entries(item as Record<string, Operation>)) {
      const meta = scopes.get(`${method} ${path}`);
      if (meta?.scope) op["x-scope"] = meta.scope;
      if (meta?.valueMoving) op["x-value-moving"] = true;
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        if (Number(status) >= 400 || status === "default") {
          response.content = { "application/json": { schema: { $ref: "#/components/schemas/Error" } } };
        }
      }
      op.responses ??= {};
      op.responses["400"] ??= { description: "Invalid input", content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } };
      op.responses["500"] ??= { description: "Internal error", content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } };
    }
  }
  return document;
}
