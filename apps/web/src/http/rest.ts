import type { IncomingMessage, ServerResponse } from "node:http";
import { appErrorFromTrpc, createContext, type AppDeps, type Meta, type RequestInfo } from "@qc/api";
import { AppError, errorBody } from "@qc/core";
import { callTRPCProcedure, type AnyRouter, type AnyTRPCProcedure } from "@trpc/server";

/**
 * The query string as a route's input sees it: a key given once is a string, a key given more
 * than once an array. Collected into an object without a prototype, where `?__proto__=x` cannot
 * reach Object.prototype (a 500); `__proto__`, which no route declares, is left out.
 */
function queryParameters(target: string): Record<string, string | string[]> {
  // Without a `?` there is no query to read, and no URL to parse (most reads are by id alone).
  if (!target.includes("?")) return {};
  const url = new URL(target, "https://localhost");
  const query = Object.create(null) as Record<string, string[]>;
  for (const [key, value] of url.searchParams) {
    if (key === "__proto__") continue;
    (query[key] ??= []).push(value);
  }
  const input = Object.create(null) as Record<string, string | string[]>;
  for (const key of Object.keys(query)) input[key] = query[key]!.length === 1 ? query[key]![0]! : query[key]!;
  return input;
}

/** A zod (v4) schema as far as routing needs to look into it: its public `def` (zod's introspection API). */
interface ZodLike {
  def?: { type?: string; in?: ZodLike; out?: ZodLike; getter?: () => ZodLike; innerType?: ZodLike; element?: ZodLike };
  shape?: Record<string, ZodLike>;
  unwrap?: () => ZodLike;
  merge?: (other: ZodLike) => ZodLike;
}

const kind = (schema: ZodLike | undefined) => schema?.def?.type;

/** The schema under optional, nullable, default, arrays, lazy and (for inputs) transforms. */
function unwrap(schema: ZodLike, throughPipes: boolean): ZodLike {
  const def = schema.def;
  switch (def?.type) {
    case "array":
      return unwrap(def.element!, throughPipes);
    case "nullable":
    case "optional":
    case "default":
    case "prefault":
      return unwrap(schema.unwrap?.() ?? def.innerType!, throughPipes);
    case "lazy":
      return unwrap(def.getter!(), throughPipes);
    case "pipe":
      if (!throughPipes) return schema;
      return unwrap(kind(def.out) === "transform" ? def.in! : def.out!, throughPipes);
    default:
      return schema;
  }
}

type ScalarKind = "number" | "boolean" | "bigint" | "date";

const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * A query or path value (always a string) as the type its field declares. Only the exact
 * spellings convert (`true`/`false`, a decimal number, an integer, an ISO date); anything else
 * stays a string, so that the route's own schema refuses it with VALIDATION_FAILED rather than
 * guessing (JavaScript's `Boolean("false")` is true).
 */
function coerceValue(value: string, to: ScalarKind): unknown {
  switch (to) {
    case "boolean":
      return value === "true" ? true : value === "false" ? false : value;
    case "number":
      return DECIMAL.test(value) ? Number(value) : value;
    case "bigint":
      return /^[+-]?\d+$/.test(value) ? BigInt(value) : value;
    case "date": {
      const date = new Date(value);
      return Number.isNaN(date.getTime()) ? value : date;
    }
  }
}

/**
 * The fields of an object input that need a string converted when they arrive in a query or a
 * path. The schema is only read: query coercion is applied to the values before the route's own
 * schema validates them, never by switching `coerce` on in a schema that the tRPC procedures and
 * JSON bodies share (that turned a body's `"false"` into `true`).
 */
function scalarFields(objectSchema: ZodLike): Map<string, ScalarKind> {
  const fields = new Map<string, ScalarKind>();
  for (const [name, field] of Object.entries(objectSchema.shape ?? {})) {
    const innerKind = kind(unwrap(field, false));
    if (innerKind === "number" || innerKind === "boolean" || innerKind === "bigint" || innerKind === "date") fields.set(name, innerKind);
  }
  return fields;
}

/** `input` (fresh, from a query or path) with its declared scalar fields converted in place. */
function coerceStrings(input: Record<string, unknown>, fields: Map<string, ScalarKind>, names: Iterable<string>): void {
  for (const name of names) {
    const to = fields.get(name);
    const value = input[name];
    if (to === undefined) continue;
    if (typeof value === "string") input[name] = coerceValue(value, to);
    else if (Array.isArray(value)) input[name] = value.map((item: unknown) => (typeof item === "string" ? coerceValue(item, to) : item));
  }
}

interface Route {
  pattern: RegExp;
  /** The procedure's path in the router, e.g. `vaults.get`. */
  procedure: string;
  type: "query" | "mutation";
  /** Input fields declared as arrays: a query key given once still becomes a one-element array. */
  arrayFields: string[];
  /** Input fields declared as numbers, booleans, bigints or dates: converted from query and path strings. */
  scalarFields: Map<string, ScalarKind>;
  takesInput: boolean;
  successStatus: number;
}

/**
 * The REST routes of the router's OpenAPI procedures, matched in the order trpc-to-openapi
 * matches them (declaration order, case-insensitive, path parameters as named groups). Which
 * fields a query or path string is converted for is read from the input schema once, here.
 */
function restRoutes(router: AnyRouter): Map<string, Route[]> {
  const routes = new Map<string, Route[]>();
  // `_def.procedures` and a procedure's `_def` (type, meta, input parsers) as tRPC's exported types
  // declare them (docs/decisions/library-internals.md).
  for (const [path, procedure] of Object.entries(router._def.procedures as Record<string, AnyTRPCProcedure>)) {
    const meta = procedure._def.meta as Meta | undefined;
    const openapi = meta?.openapi;
    const type = procedure._def.type;
    if (!openapi || openapi.enabled === false || (type !== "query" && type !== "mutation")) continue;
    const inputs = procedure._def.inputs as ZodLike[];
    const input = inputs.length >= 2 ? inputs.reduce((merged, next) => merged.merge!(next)) : inputs[0];
    const schema = input ? unwrap(input, true) : undefined;
    const takesInput = !["void", "undefined", "never"].includes(kind(schema) ?? "");
    const arrayFields: string[] = [];
    let scalars = new Map<string, ScalarKind>();
    if (schema && kind(schema) === "object") {
      for (const [field, fieldSchema] of Object.entries(schema.shape ?? {})) {
        const outer = kind(fieldSchema) === "optional" ? fieldSchema.unwrap!() : fieldSchema;
        if (kind(outer) === "array") arrayFields.push(field);
      }
      scalars = scalarFields(schema);
    }
    const template = `/${openapi.path.replace(/^\/|\/$/g, "")}`;
    const method = openapi.method.toUpperCase();
    const list = routes.get(method) ?? [];
    list.push({
      pattern: new RegExp(`^${template.replace(/\{(.+?)\}/g, (_, name: string) => `(?<${name}>[^/]+)`)}$`, "i"),
      procedure: path,
      type,
      arrayFields,
      scalarFields: scalars,
      takesInput,
      successStatus: meta?.successStatus ?? 200,
    });
    routes.set(method, list);
  }
  return routes;
}

/**
 * `getRawInput` for an input already in hand. Returned rather than written inline, where tsx's
 * keepNames would name the closure with a `defineProperty` on every request.
 */
function rawInput(input: unknown): () => Promise<unknown> {
  return () => Promise.resolve(input);
}

function send(res: ServerResponse, status: number, headers: Map<string, string | string[]> | undefined, payload: string | undefined, extra: Record<string, string> = {}) {
  res.statusCode = status;
  res.setHeader("Content-Type", "application/json");
  headers?.forEach((value, name) => res.setHeader(name, value));
  for (const [name, value] of Object.entries(extra)) res.setHeader(name, value);
  if (payload !== undefined) res.setHeader("Content-Length", Buffer.byteLength(payload));
  res.end(payload);
}

/**
 * /v1: the REST face of the routers, as trpc-to-openapi defines it (its paths, inputs from path,
 * query or body, query coercion) and as the OpenAPI document declares it (success statuses),
 * dispatched here straight to a tRPC caller. Its own Node adapter turns every request into a
 * fetch Request and re-inspects the input schema each time, which cost a third of an
 * authenticated read's CPU (docs/performance.md); the procedures, their middlewares and their
 * validation are the same either way. Every failure leaves as the contract's flat error body
 * built from the AppError behind it, with the status from the one table.
 */
export function createRestHandler(router: AnyRouter, deps: AppDeps) {
  const routes = restRoutes(router);

  return async (req: IncomingMessage, res: ServerResponse, request: RequestInfo, body: unknown): Promise<void> => {
    // The guard pipeline has parsed the URL once already: `request.path` is its pathname.
    const path = `/${request.path.replace(/^\/|\/$/g, "")}`;
    const method = req.method ?? "GET";
    let ctx: ReturnType<typeof createContext> | undefined;
    try {
      let route: Route | undefined;
      let pathInput: Record<string, string> = {};
      for (const candidate of routes.get(method) ?? []) {
        const match = candidate.pattern.exec(path);
        if (match) {
          route = candidate;
          pathInput = { ...match.groups };
          break;
        }
      }
      if (!route) throw new AppError("NOT_FOUND", "no such route");
      const usesBody = method !== "GET" && method !== "DELETE";
      let input: Record<string, unknown> | undefined;
      if (route.takesInput) {
        input = { ...((usesBody ? (body ?? {}) : queryParameters(req.url ?? "/")) as object), ...pathInput };
        if (!usesBody) for (const field of route.arrayFields) if (input[field] !== undefined && !Array.isArray(input[field])) input[field] = [input[field]];
        // Strings from the URL become the declared types; a JSON body keeps its own (a body's
        // `"false"` is a string, and the schema refuses it where a boolean is declared).
        if (route.scalarFields.size > 0) coerceStrings(input, route.scalarFields, usesBody ? Object.keys(pathInput) : Object.keys(input));
      }
      ctx = createContext(deps, request);
      // The procedure with its middlewares and validation, as a server-side caller runs it, without
      // building a caller proxy per request.
      const data = await callTRPCProcedure({ router, path: route.procedure, type: route.type, ctx, getRawInput: rawInput(input), signal: undefined, batchIndex: 0 });
      send(res, ctx.response.status ?? route.successStatus, ctx.responseHeaders, JSON.stringify(data));
    } catch (cause) {
      const error: AppError = appErrorFromTrpc(cause);
      if (error.error === "INTERNAL") deps.log.error({ err: error.cause ?? cause, requestId: request.requestId }, "request failed");
      const extra: Record<string, string> = {};
      if (error.retryAfter !== undefined) extra["Retry-After"] = String(Math.max(1, Math.ceil(error.retryAfter)));
      send(res, error.status, ctx?.responseHeaders, JSON.stringify(errorBody(error, request.requestId)), extra);
    }
  };
}
