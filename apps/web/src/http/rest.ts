import type { IncomingMessage, ServerResponse } from "node:http";
import { appErrorFromTrpc, createContext, type AppDeps, type RequestInfo } from "@qc/api";
import { AppError, errorBody } from "@qc/core";
import { callTRPCProcedure, type AnyRouter } from "@trpc/server";
import type { RouteMatch, ScalarKind } from "./routes";

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

function send(
  res: ServerResponse,
  status: number,
  headers: Map<string, string | string[]> | undefined,
  payload: string | undefined,
  extra: Record<string, string> = {},
) {
  res.statusCode = status;
  if (payload !== undefined) res.setHeader("Content-Type", "application/json");
  headers?.forEach((value, name) => res.setHeader(name, value));
  for (const [name, value] of Object.entries(extra)) res.setHeader(name, value);
  if (payload !== undefined) res.setHeader("Content-Length", Buffer.byteLength(payload));
  res.end(payload);
}

/** Lines are gathered into writes of about this many characters: one write per chunk, not per line. */
const NDJSON_CHUNK = 64 * 1024;

/** Resolves true once the response can take more, false when the client has gone. */
function drained(res: ServerResponse): Promise<boolean> {
  if (res.destroyed) return Promise.resolve(false);
  return new Promise((resolve) => {
    const settle = (writable: boolean) => () => {
      res.off("drain", onDrain);
      res.off("close", onClose);
      resolve(writable);
    };
    const onDrain = settle(true);
    const onClose = settle(false);
    res.on("drain", onDrain);
    res.on("close", onClose);
  });
}

/**
 * An NDJSON answer: the procedure's async iterable, one JSON line per item, written as the client
 * reads (a full socket buffer pauses the iterable, so a slow reader holds a page, not the whole
 * answer). The first item is pulled before the status is sent: a failure up to there (the
 * procedure's first query) still leaves as the contract's error body. A failure after it can
 * only cut the response short: the connection is destroyed without the final chunk, which every
 * HTTP client reports as an incomplete body, never as a shorter complete one.
 */
async function sendNdjson(
  res: ServerResponse,
  status: number,
  headers: Map<string, string | string[]> | undefined,
  lines: AsyncIterable<unknown>,
  onError: (cause: unknown) => void,
): Promise<void> {
  const iterator = lines[Symbol.asyncIterator]();
  let next = await iterator.next();
  res.statusCode = status;
  res.setHeader("Content-Type", "application/x-ndjson");
  headers?.forEach((value, name) => res.setHeader(name, value));
  let chunk = "";
  try {
    for (; !next.done; next = await iterator.next()) {
      chunk += `${JSON.stringify(next.value)}\n`;
      if (chunk.length < NDJSON_CHUNK) continue;
      const writable = res.write(chunk);
      chunk = "";
      if (!writable && !(await drained(res))) return;
    }
    res.end(chunk);
  } catch (cause) {
    onError(cause);
    res.destroy();
  } finally {
    // The client left, or a line failed: release the iterable (and the query it holds).
    if (!next.done) await iterator.return?.(undefined).catch(() => undefined);
  }
}

/**
 * /v1: the REST face of the routers, as trpc-to-openapi defines it (its paths, inputs from path,
 * query or body, query coercion) and as the OpenAPI document declares it (success statuses),
 * dispatched here straight to a tRPC caller. Its own Node adapter turns every request into a
 * fetch Request and re-inspects the input schema each time, which cost a third of an
 * authenticated read's CPU (docs/performance/request-path.md); the procedures, their middlewares and their
 * validation are the same either way. The route arrives matched: the guards found it in the one
 * route table (./routes.ts) when they answered 404/405, and it is not looked up again. Every
 * failure leaves as the contract's flat error body built from the AppError behind it, with the
 * status from the one error table.
 */
export function createRestHandler(router: AnyRouter, deps: AppDeps) {
  return async (
    req: IncomingMessage,
    res: ServerResponse,
    request: RequestInfo,
    body: unknown,
    { route, params }: RouteMatch,
  ): Promise<void> => {
    const method = request.method;
    let ctx: ReturnType<typeof createContext> | undefined;
    try {
      const usesBody = method !== "GET" && method !== "DELETE";
      let input: Record<string, unknown> | undefined;
      if (route.takesInput) {
        input = { ...((usesBody ? (body ?? {}) : queryParameters(req.url ?? "/")) as object), ...params };
        if (!usesBody)
          for (const field of route.arrayFields)
            if (input[field] !== undefined && !Array.isArray(input[field])) input[field] = [input[field]];
        // Strings from the URL become the declared types; a JSON body keeps its own (a body's
        // `"false"` is a string, and the schema refuses it where a boolean is declared).
        if (route.scalarFields.size > 0) coerceStrings(input, route.scalarFields, usesBody ? Object.keys(params) : Object.keys(input));
      }
      ctx = createContext(deps, request);
      // The procedure with its middlewares and validation, as a server-side caller runs it, without
      // building a caller proxy per request.
      const data = await callTRPCProcedure({
        router,
        path: route.procedure,
        type: route.type,
        ctx,
        getRawInput: () => Promise.resolve(input),
        signal: undefined,
        batchIndex: 0,
      });
      const status = ctx.response.status ?? route.successStatus;
      if (route.ndjson) {
        await sendNdjson(res, status, ctx.responseHeaders, data as AsyncIterable<unknown>, (cause) =>
          deps.log.error({ err: cause, requestId: request.requestId }, "streamed response failed"),
        );
        return;
      }
      send(res, status, ctx.responseHeaders, status === 204 ? undefined : JSON.stringify(data));
    } catch (cause) {
      const error: AppError = appErrorFromTrpc(cause);
      if (error.error === "INTERNAL") deps.log.error({ err: error.cause ?? cause, requestId: request.requestId }, "request failed");
      const extra: Record<string, string> = {};
      if (error.retryAfter !== undefined) extra["Retry-After"] = String(Math.max(1, Math.ceil(error.retryAfter)));
      send(res, error.status, ctx?.responseHeaders, JSON.stringify(errorBody(error, request.requestId)), extra);
    }
  };
}
