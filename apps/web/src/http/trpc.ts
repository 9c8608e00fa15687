import type { IncomingMessage, ServerResponse } from "node:http";
import { createContext, type AppDeps, type RequestInfo } from "@qc/api";
import { AppError, errorBody, MAX_REQUEST_BODY_BYTES } from "@qc/core";
import type { AnyRouter } from "@trpc/server";
import { nodeHTTPRequestHandler } from "@trpc/server/adapters/node-http";
import { sendJson } from "./respond";
import type { RouteTable } from "./routes";

type RequestWithBody = IncomingMessage & { body?: unknown };

/** /api/trpc for the dashboard: same routers, same guards, same context as /v1. */
export function createTrpcHandler(router: AnyRouter, routes: RouteTable, deps: AppDeps) {
  return async (req: RequestWithBody, res: ServerResponse, request: RequestInfo, body: unknown, path: string) => {
    // tRPC refuses an unknown procedure, the wrong method and the content type before it creates
    // the context, so its error body would carry no request id: those refusals are made here,
    // in tRPC's envelope with the contract's body. The guards already read and parsed the body,
    // so its declared type says nothing more to the adapter.
    const method = request.method;
    for (const name of path.split(",")) {
      const type = routes.procedureType(name);
      const allowed = type === "query" ? "GET" : "POST";
      if (type && (method === allowed || (type === "query" && method === "HEAD"))) continue;
      const error = type
        ? new AppError("METHOD_NOT_ALLOWED", `${name} is a ${type}: use ${allowed}`)
        : new AppError("NOT_FOUND", `no procedure ${name}`);
      return sendJson(
        res,
        error.status,
        { error: { json: { ...errorBody(error, request.requestId), data: { httpStatus: error.status } } } },
        type ? { Allow: allowed } : {},
      );
    }
    if (method === "POST") req.headers["content-type"] = "application/json";
    req.body = body;
    const ctx = createContext(deps, request);
    await nodeHTTPRequestHandler({
      router,
      req,
      res,
      path,
      maxBodySize: MAX_REQUEST_BODY_BYTES,
      createContext: () => ctx,
      responseMeta: () => {
        const headers: Record<string, string | string[]> = {};
        ctx.responseHeaders.forEach((value, name) => (headers[name] = value));
        return { headers };
      },
      onError: ({ error }: { error: { code: string; cause?: unknown } }) => {
        if (error.code === "INTERNAL_SERVER_ERROR")
          deps.log.error({ err: error.cause ?? error, requestId: request.requestId }, "trpc request failed");
      },
    } as never);
  };
}
