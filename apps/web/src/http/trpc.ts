import type { IncomingMessage, ServerResponse } from "node:http";
import { createContext, type AppDeps, type RequestInfo } from "@qc/api";
import type { AnyRouter } from "@trpc/server";
import { nodeHTTPRequestHandler } from "@trpc/server/adapters/node-http";

type RequestWithBody = IncomingMessage & { body?: unknown };

/** /api/trpc for the dashboard: same routers, same guards, same context as /v1. */
export function createTrpcHandler(router: AnyRouter, deps: AppDeps) {
  return async (req: RequestWithBody, res: ServerResponse, request: RequestInfo, body: unknown, path: string) => {
    req.body = body;
    const ctx = createContext(deps, request);
    await nodeHTTPRequestHandler({
      router,
      req,
      res,
      path,
      maxBodySize: 1_048_576,
      createContext: () => ctx,
      responseMeta: () => {
        const headers: Record<string, string | string[]> = {};
        ctx.responseHeaders.forEach((value, name) => (headers[name] = value));
        return { headers };
      },
      onError: ({ error }: { error: { code: string; cause?: unknown } }) => {
        if (error.code === "INTERNAL_SERVER_ERROR") deps.log.error({ err: error.cause ?? error, requestId: request.requestId }, "trpc request failed");
      },
    } as never);
  };
}
