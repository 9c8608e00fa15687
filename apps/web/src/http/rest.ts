import type { IncomingMessage, ServerResponse } from "node:http";
import { appErrorFromTrpc, createContext, type AppDeps, type Context, type RequestInfo } from "@qc/api";
import { errorBody, toAppError, type AppError } from "@qc/core";
import type { AnyRouter } from "@trpc/server";
import { createOpenApiNodeHttpHandler } from "trpc-to-openapi";

type RequestWithBody = IncomingMessage & { body?: unknown };

/**
 * /v1 through trpc-to-openapi's Node adapter. The adapter writes its own error body (it puts
 * the tRPC code string in `code`); the AppError behind every failure is kept from onError and
 * the body rewritten to the contract's on the way out, with the status from the same table.
 */
export function createRestHandler(router: AnyRouter, deps: AppDeps) {
  const failures = new WeakMap<IncomingMessage, AppError>();
  const contexts = new WeakMap<IncomingMessage, Context>();
  const handler = createOpenApiNodeHttpHandler({
    router: router as never,
    createContext: ({ req }: { req: IncomingMessage }) => contexts.get(req),
    responseMeta: ({ ctx, errors }: { ctx?: Context; errors: unknown[] }) => {
      const headers: Record<string, string | string[]> = {};
      ctx?.responseHeaders.forEach((value, name) => (headers[name] = value));
      return errors.length ? { headers } : { headers, status: ctx?.response.status ?? 200 };
    },
    onError: ({ error, req }: { error: unknown; req: IncomingMessage }) => {
      failures.set(req, appErrorFromTrpc(error));
    },
    maxBodySize: 1_048_576,
  } as never) as (req: RequestWithBody, res: ServerResponse) => Promise<void>;

  return async (req: RequestWithBody, res: ServerResponse, request: RequestInfo, body: unknown): Promise<void> => {
    // The guards already read, limited, parsed and scanned the body; the adapter takes it from here.
    req.body = body ?? {};
    if (req.method !== "GET" && req.method !== "HEAD") req.headers["content-type"] = "application/json";
    contexts.set(req, createContext(deps, request));
    const end = res.end.bind(res) as (chunk?: unknown) => ServerResponse;
    res.end = ((chunk?: unknown) => {
      if (res.statusCode < 400) return end(chunk);
      const error = failures.get(req) ?? toAppError(new Error(`adapter answered ${res.statusCode}`));
      if (error.error === "INTERNAL") deps.log.error({ err: error.cause, requestId: request.requestId }, "request failed");
      const payload = JSON.stringify(errorBody(error, request.requestId));
      res.statusCode = error.status;
      res.setHeader("Content-Length", Buffer.byteLength(payload));
      if (error.retryAfter !== undefined) res.setHeader("Retry-After", String(Math.max(1, Math.ceil(error.retryAfter))));
      return end(payload);
    }) as typeof res.end;
    await handler(req, res);
  };
}
