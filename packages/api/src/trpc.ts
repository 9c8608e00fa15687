import { initTRPC } from "@trpc/server";
import { AppError, errorBody, hasScope, ipAllowed, recordAuditEvent, toAppError, type ErrorBody, type Principal } from "@qc/core";
import { eq, schema } from "@qc/db";
import superjson from "superjson";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { Context } from "./context";
import { appErrorFromTrpc, toTrpcError } from "./errors";

export type { Scope } from "@qc/core";
import type { Scope } from "@qc/core";

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
    // Never put stacks in error shapes (CONTRACT §2 bodies carry none), and do not make tRPC
    // render them for every refused request either.
    isDev: false,
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

function header(ctx: Context, name: string): string | undefined {
  const value = ctx.request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The one place credentials, allowlist, scope and rate limit are enforced, in that order.
 * The scope comes from the procedure's meta (shown in the OpenAPI document); a procedure that
 * declares none needs `admin`, so forgetting it fails closed.
 */
const authenticate = t.middleware(async ({ ctx, meta, next }) => {
  const { authenticator, rateLimits } = ctx.deps;
  const principal = await authenticator.authenticate({
    authorization: header(ctx, "authorization"),
    cookie: header(ctx, "cookie"),
    ip: ctx.request.ip,
    requestId: ctx.request.requestId,
    userAgent: header(ctx, "user-agent"),
  });
  if (principal.kind === "api_key" && !ipAllowed(ctx.request.ip, await authenticator.allowlist(principal.tenantId))) {
    await audit(ctx, principal, "auth.ip_not_allowed", { ip: ctx.request.ip });
    throw new AppError("IP_NOT_ALLOWED", "requests from this address are not allowed for this tenant");
  }
  const required: Scope = meta?.scope ?? "admin";
  if (!hasScope(principal.scopes, required)) {
    await audit(ctx, principal, "auth.insufficient_scope", { required, granted: principal.scopes, path: ctx.request.path });
    throw new AppError("INSUFFICIENT_SCOPE", `this route needs the ${required} scope`);
  }
  const limits = await rateLimits.consumeTenant(principal.tenantId);
  for (const [name, value] of Object.entries(limits)) ctx.responseHeaders.set(name, value);
  return next({ ctx: { ...ctx, auth: principal, log: ctx.log.child({ tenantId: principal.tenantId }) } });
});

async function audit(ctx: Context, principal: Principal, action: string, details: Record<string, unknown>) {
  await recordAuditEvent(ctx.deps.database.db, {
    action,
    actorType: principal.kind === "api_key" ? "api_key" : "user",
    actorId: principal.keyId ?? principal.userId ?? null,
    tenantId: principal.tenantId,
    requestId: ctx.request.requestId,
    ip: ctx.request.ip,
    details,
  });
}

/** API key or dashboard session, with the scope the meta declares. */
export const authedProcedure = publicProcedure.use(authenticate);

/** Dashboard session only (e.g. issuing API keys: a key cannot mint keys). */
export const sessionProcedure = authedProcedure.use(({ ctx, next }) => {
  if (ctx.auth.kind !== "session") throw new AppError("INSUFFICIENT_SCOPE", "this operation needs a dashboard session");
  return next({ ctx: { ...ctx, userId: ctx.auth.userId! } });
});

/**
 * Value-moving routes (transfers, signature submission, deployments): refused with
 * TENANT_NOT_VERIFIED until KYC/KYB approves the tenant. Reads the tenant's status fresh,
 * never from a cache, so an approval or a rejection takes effect on the next request.
 */
export const valueMovingProcedure = authedProcedure.use(async ({ ctx, next }) => {
  const [tenant] = await ctx.deps.database.db
    .select({ status: schema.tenants.status })
    .from(schema.tenants)
    .where(eq(schema.tenants.id, ctx.auth.tenantId));
  if (tenant?.status !== "VERIFIED") {
    throw new AppError("TENANT_NOT_VERIFIED", "identity verification (KYC/KYB) must complete before value can move");
  }
  return next();
});

export { t as trpcRoot };
