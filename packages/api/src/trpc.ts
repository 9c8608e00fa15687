import { getTRPCErrorFromUnknown, initTRPC, type TRPCError } from "@trpc/server";
import {
  actorFromPrincipal,
  AppError,
  assertTenantVerified,
  authenticateOperator,
  errorBody,
  hasScope,
  idempotencyKeyFromHeaders,
  ipAllowed,
  replayedError,
  runIdempotently,
  toAppError,
  type Actor,
  type ErrorBody,
  type Logger,
  type Principal,
} from "@qc/core";
import { middlewareMarker, type MiddlewareResult } from "@trpc/server/unstable-core-do-not-import";
import superjson from "superjson";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { Context } from "./context";
import { deferredChild } from "./deferred-logger";
import { appErrorFromTrpc, toTrpcError } from "./errors";
import { rateLimitHeaders } from "./http-headers";

export type { Scope } from "@qc/core";
import type { ErrorName, Scope } from "@qc/core";
import { roleAllows, type MemberAction } from "@qc/domain";

/** The statuses a successful REST call can answer with. */
export type SuccessStatus = 200 | 201 | 202 | 204;

export type Meta = OpenApiMeta<{
  /** Least scope an API key needs (CONTRACT §3). Shown in the OpenAPI document as x-scope. */
  scope?: Scope;
  /**
   * What the route does in CONTRACT §14's permission table: the member's current role must allow
   * it (a session's user, an API key's creator). Shown in the OpenAPI document as x-action. Every
   * authenticated procedure declares one (the role matrix test fails for one that does not); an
   * undeclared one needs `manage_owners`, so forgetting it fails closed.
   */
  action?: MemberAction;
  /** POST /v1/transactions, signature submission, deployment: refused before KYC. */
  valueMoving?: boolean;
  /**
   * The REST status of a success (default 200). The REST adapter answers with it and the
   * OpenAPI document declares it: one value, so the wire and the document cannot disagree.
   * tRPC always answers 200.
   */
  successStatus?: SuccessStatus;
  /**
   * Other success statuses the procedure picks at run time through `ctx.response.status`, each
   * with when it does (e.g. 200 when the resource already existed).
   */
  otherSuccess?: Partial<Record<SuccessStatus, string>>;
  /**
   * The errors the procedure itself answers (its services and its own middlewares). Those of
   * its tier (credentials, scope, rate limit, KYC, body guards, 500/503) are added by the
   * document builder, which reads the tier from the procedure's middlewares.
   */
  errors?: ErrorName[];
  /** The POST honours `X-Idempotency-Key` (CONTRACT §6): required, or used when sent. */
  idempotencyKey?: "required" | "optional";
  /**
   * The success answer holds a secret shown once (an API key's or a webhook's). With an
   * idempotency key, the stored answer keeps no body and a replay is 409 CONFLICT (`runMutation`,
   * review M1). A test fails for a mutation whose output has a `secret` and not this flag.
   */
  issuesSecret?: boolean;
  /**
   * A valid input (path, query and body fields in one object) and the output it gets, shown as
   * the operation's examples; a test parses both with the procedure's own schemas.
   */
  example?: { input?: Record<string, unknown>; output: unknown };
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
function normalisedError(ctx: Context, path: string, error: TRPCError): TRPCError {
  const appError = appErrorFromTrpc(error);
  if (appError.error === "INTERNAL") {
    ctx.log.error({ err: toAppError(error).cause ?? error, path }, "procedure failed");
  } else if (appError.error === "VALIDATION_FAILED" && appError.cause !== undefined) {
    // The database refused a client value that the input schema let through (toAppError):
    // the client gets its 400, and the missing rule shows up in the log.
    ctx.log.warn({ err: appError.cause, path }, "input refused by the database; the input schema lacks a rule");
  }
  return toTrpcError(appError);
}

const normaliseErrors = t.middleware(async ({ ctx, next, path }) => {
  const result = await next();
  if (result.ok) return result;
  throw normalisedError(ctx, path, result.error);
});

export const publicProcedure = t.procedure.use(normaliseErrors);

function header(ctx: Context, name: string): string | undefined {
  const value = ctx.request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** What the authenticated tier adds to the context: the caller, as audit rows name it, and its logger. */
interface CallerContext {
  auth: Principal;
  actor: Actor;
  log: Logger;
}

/** The action a procedure's caller's role must allow: its meta's, or `manage_owners` when it declares none (fails closed). */
export const requiredAction = (meta: Meta | undefined): MemberAction => meta?.action ?? "manage_owners";

/**
 * The one place credentials, allowlist, scope, role, rate limit and the value-moving rule are
 * enforced, in that order. The scope and the action come from the procedure's meta (shown in the
 * OpenAPI document); a procedure that declares no scope needs `admin` and one that declares no
 * action needs `manage_owners`, so forgetting either fails closed.
 *
 * `tenantStatusWithKey`: a value-moving mutation with an idempotency key has the rule applied by
 * `runMutation` instead, on the status read in the key's lock statement (one round trip fewer
 * per create); it still comes before anything the key can answer.
 */
async function authenticate(ctx: Context, meta: Meta | undefined, tenantStatusWithKey: boolean): Promise<CallerContext> {
  const { authenticator, rateLimits } = ctx.deps;
  const principal = await authenticator.authenticate({
    authorization: header(ctx, "authorization"),
    cookie: header(ctx, "cookie"),
    ip: ctx.request.ip,
    requestId: ctx.request.requestId,
    userAgent: header(ctx, "user-agent"),
  });
  // Sessions too: a phished password used from elsewhere must not get past the tenant's allowlist
  // (docs/decisions/access-control.md, "IP allowlist").
  if (!ipAllowed(ctx.request.ip, await authenticator.allowlist(principal.tenantId))) {
    audit(ctx, principal, "auth.ip_not_allowed", { ip: ctx.request.ip });
    throw new AppError("IP_NOT_ALLOWED", "requests from this address are not allowed for this tenant");
  }
  const required: Scope = meta?.scope ?? "admin";
  if (!hasScope(principal.scopes, required)) {
    audit(ctx, principal, "auth.insufficient_scope", { required, granted: principal.scopes, path: ctx.request.path });
    throw new AppError("INSUFFICIENT_SCOPE", `this route needs the ${required} scope`);
  }
  // The member's current role, after the key's scope (CONTRACT §14: a request needs both).
  const action = requiredAction(meta);
  if (principal.role === null || !roleAllows(principal.role, action)) {
    audit(ctx, principal, "auth.insufficient_role", { action, role: principal.role, path: ctx.request.path });
    throw new AppError(
      "INSUFFICIENT_ROLE",
      principal.role === null ? "this credential acts for no member of the tenant" : `a ${principal.role} may not ${action}`,
    );
  }
  const limits = await rateLimits.consumeTenant(principal.tenantId);
  for (const [name, value] of Object.entries(rateLimitHeaders(limits))) ctx.responseHeaders.set(name, value);
  if (meta?.valueMoving && !tenantStatusWithKey) await assertTenantVerified(ctx.deps.db, principal.tenantId);
  return {
    auth: principal,
    actor: actorFromPrincipal(principal, ctx.request),
    log: deferredChild(ctx.log, { tenantId: principal.tenantId }),
  };
}

/** A refused request of an identified caller: recorded through the audit buffer (no state changed). */
function audit(
  ctx: Context,
  principal: Principal,
  action: "auth.ip_not_allowed" | "auth.insufficient_scope" | "auth.insufficient_role",
  details: Record<string, unknown>,
) {
  const actor = actorFromPrincipal(principal, ctx.request);
  ctx.deps.authenticator.recordRefusal({
    action,
    actorType: actor.type,
    actorId: actor.id,
    tenantId: principal.tenantId,
    requestId: ctx.request.requestId,
    ip: ctx.request.ip,
    details,
  });
}

type TierResult = MiddlewareResult<CallerContext>;

/**
 * A mutation's idempotency key as its headers carry it, read once: the key (undefined when none
 * is sent), or the refusal of a malformed one, thrown only where the key is used, after the
 * caller's credentials, scope, rate limit and KYC status.
 */
type IdempotencyKeyHeader = { key: string | undefined } | { refusal: unknown };

function idempotencyKeyHeader(ctx: Context): IdempotencyKeyHeader {
  try {
    return {
      key: idempotencyKeyFromHeaders({ xIdempotencyKey: header(ctx, "x-idempotency-key"), idempotencyKey: header(ctx, "idempotency-key") }),
    };
  } catch (refusal) {
    return { refusal };
  }
}

/**
 * Idempotency keys for every mutation of the authenticated tier (CONTRACT §6), REST and tRPC
 * alike: after credentials, scope, rate limit and KYC status, so a refused request stores
 * nothing. The rules live in @qc/core `runIdempotently`; this only adapts them to tRPC: the
 * procedure runs on the key's database transaction (its answer is stored in the same commit), and
 * a stored answer is replayed with `Idempotent-Replayed: true`, its status and body, or its error.
 * A procedure whose meta says `issuesSecret` never has its success stored: its replay is 409.
 *
 * With `tenantStatusWithKey` (a value-moving mutation that sent a key), `authenticate` left the
 * KYC status to this step: `runIdempotently` reads it in the key's lock statement and refuses a
 * tenant that is not VERIFIED before the key in use, a mismatch or a replay.
 */
async function runMutation(
  { ctx, meta, path, getRawInput }: { ctx: Context; meta: Meta | undefined; path: string; getRawInput: () => Promise<unknown> },
  caller: CallerContext,
  keyHeader: IdempotencyKeyHeader,
  tenantStatusWithKey: boolean,
  next: (ctx: CallerContext & { deps?: Context["deps"] }) => Promise<TierResult>,
): Promise<TierResult> {
  if ("refusal" in keyHeader) throw keyHeader.refusal;
  const { key } = keyHeader;
  if (key === undefined) {
    if (meta?.idempotencyKey === "required")
      throw new AppError("IDEMPOTENCY_KEY_REQUIRED", "this route requires an X-Idempotency-Key header");
    return next(caller);
  }
  let input: unknown;
  try {
    input = await getRawInput();
  } catch (error) {
    // An input that cannot be read (a malformed tRPC envelope) fails before the lock statement
    // reads the tenant's status: the status is read on its own then, so that its refusal still
    // comes first.
    if (tenantStatusWithKey) await assertTenantVerified(ctx.deps.db, caller.auth.tenantId);
    throw error;
  }
  let executed: TierResult | undefined;
  const outcome = await runIdempotently(
    ctx.deps,
    {
      tenantId: caller.auth.tenantId,
      key,
      method: ctx.request.method,
      path: ctx.request.transport === "rest" ? ctx.request.path : `/api/trpc/${path}`,
      input,
    },
    async (db) => {
      const result = await next({ ...caller, deps: { ...ctx.deps, db } });
      if (!result.ok) throw result.error;
      executed = result;
      return { value: result, status: ctx.response.status ?? meta?.successStatus ?? 200, body: result.data };
    },
    { requireVerifiedTenant: tenantStatusWithKey, issuesSecret: meta?.issuesSecret === true },
  );
  if (!outcome.replayed) return executed!;
  ctx.responseHeaders.set("Idempotent-Replayed", "true");
  if (outcome.answer.kind === "error") throw replayedError(outcome.answer);
  ctx.response.status = outcome.answer.status;
  // The stored answer, as the procedure would have returned it, without running the procedure:
  // tRPC has no public way for a middleware to answer by itself, so the result is built by hand
  // (docs/decisions/library-internals.md; apps/web/test/idempotency.test.ts replays it).
  return { ok: true, data: outcome.answer.body, ctx, marker: middlewareMarker } as unknown as TierResult;
}

/**
 * The authenticated tier in one middleware: error normalisation (as `publicProcedure`), then
 * credentials, allowlist, scope, rate limit and KYC status, then, for mutations, the idempotency
 * key (whose lock statement reads the KYC status of a value-moving mutation that sent one). One
 * level of tRPC's middleware chain instead of three: each level costs the authenticated read a
 * copy of the call's options and a promise (docs/performance/request-path.md). A failure anywhere in it
 * reaches the normalisation as it would have through the separate levels: as the TRPCError
 * tRPC makes of it. The OpenAPI document recognises the tier by this middleware.
 */
const authenticatedTier = t.middleware(async (opts): Promise<TierResult> => {
  const { ctx, type, next } = opts;
  let result: TierResult;
  try {
    if (type === "mutation") {
      const keyHeader = idempotencyKeyHeader(ctx);
      const tenantStatusWithKey = opts.meta?.valueMoving === true && "key" in keyHeader && keyHeader.key !== undefined;
      const caller = await authenticate(ctx, opts.meta, tenantStatusWithKey);
      result = await runMutation(opts, caller, keyHeader, tenantStatusWithKey, (extension) => next({ ctx: extension }));
    } else {
      // Only a mutation runs in the key's transaction: anything else that says `valueMoving`
      // (none does today) keeps the status read of its own, failing closed.
      result = await next({ ctx: await authenticate(ctx, opts.meta, false) });
    }
  } catch (cause) {
    throw normalisedError(ctx, opts.path, getTRPCErrorFromUnknown(cause));
  }
  if (result.ok) return result;
  throw normalisedError(ctx, opts.path, result.error);
});

/** API key or dashboard session, with the scope the meta declares. */
export const authedProcedure = t.procedure.use(authenticatedTier);

/** Dashboard session only (e.g. issuing API keys: a key cannot mint keys). */
export const sessionProcedure = authedProcedure.use(({ ctx, next }) => {
  if (ctx.auth.kind !== "session") throw new AppError("INSUFFICIENT_SCOPE", "this operation needs a dashboard session");
  return next({ ctx: { ...ctx, userId: ctx.auth.userId! } });
});

/**
 * The operators' console: only the operator cookie authenticates here, never a tenant session or
 * API key (and the operator cookie is nothing to the tiers above). No tenant, no scope: the
 * console's procedures read queues and daemons, not tenant data.
 */
export const operatorProcedure = publicProcedure.use(async ({ ctx, next }) => {
  const operator = await authenticateOperator(ctx.deps, { cookie: header(ctx, "cookie") });
  return next({ ctx: { ...ctx, operator, log: ctx.log.child({ operatorId: operator.operatorId }) } });
});

export { t as trpcRoot };
