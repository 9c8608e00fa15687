import { initTRPC } from "@trpc/server";
import { errorBody, toAppError, type ErrorBody } from "@qc/core";
import superjson from "superjson";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { Context } from "./context";
import { appErrorFromTrpc, toTrpcError } from "./errors";

export type Scope = "read" | "write" | "admin";

export type Meta = OpenApiMeta<{
  /** Least scope an API key needs (CONTRACT §3). Shown in the OpenAPI document as x-scope. */
  scope?: Scope;
  /** POST /v1/transactions, signature submission, deployment: refused before KYC. */
  valueMoving?: boolean;
}>;

/**
 * The tRPC error shape is the contract's flat error body plus tRPC's `data` (which the tRPC
 * client needs); REST bodies are rebuilt from the same AppError by the REST adapter.
 */
export type ErrorShape = ErrorBody & { data: { httpStatus: number } };

const t = initTRPC
  .context<Context>()
  .meta<Meta>()
  .create({
    transformer: superjson,
    errorFormatter({ error, ctx }): ErrorShape {
      const appError = appErrorFromTrpc(error);
      return { ...errorBody(appError, ctx?.request.requestId ?? "unknown"), data: { httpStatus: appError.status } };
    },
  });

export const createRouter = t.router;
export const mergeRouters = t.mergeRouters;
export const createCallerFactory = t.createCallerFactory;

/**
 * Every failure, whether an AppError from a service, a zod input error or anything unexpected,
 * leaves a procedure as a TRPCError whose cause is the AppError it stands for, so both adapters
 * answer with the contract's status and body. Unexpected errors are logged here with the
 * requestId; their messages never reach the client.
 */
const normaliseErrors = t.middleware(async ({ ctx, next, path }) => {
  const result = await next();
  if (result.ok) return result;
  const appError = appErrorFromTrpc(result.error);
  if (appError.error === "INTERNAL") {
    ctx.log.error({ err: toAppError(result.error).cause ?? result.error, path }, "procedure failed");
  }
  throw toTrpcError(appError);
});

export const publicProcedure = t.procedure.use(normaliseErrors);

export { t as trpcRoot };
