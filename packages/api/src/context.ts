import type { IncomingHttpHeaders } from "node:http";
import type { Actor, Authenticator, Logger, Principal, RateLimits, ServiceConfig, ServiceDeps } from "@qc/core";
import { deferredChild } from "./deferred-logger";

/** The web process's configuration: the shared service configuration plus the API-key pepper. */
export interface AppConfig extends ServiceConfig {
  /** Server pepper for API-key secret hashes. */
  apiKeyPepper: Buffer;
}

/**
 * Long-lived dependencies, built once per process and shared by every request: the services'
 * `ServiceDeps` (routers pass `ctx.deps` straight through) plus what only the HTTP edge needs.
 */
export interface AppDeps extends ServiceDeps {
  config: AppConfig;
  authenticator: Authenticator;
  rateLimits: RateLimits;
}

/** Facts about the HTTP request, gathered by the server's guards before any procedure runs. */
export interface RequestInfo {
  requestId: string;
  /** Client address: the socket's, or X-Forwarded-For when TRUST_PROXY_HOPS says so. */
  ip: string;
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** "rest" for /v1, "trpc" for /api/trpc. */
  transport: "rest" | "trpc";
  /** The exact body bytes as received (REST only), for signatures over the raw body. */
  rawBody?: Buffer;
}

export interface Context {
  deps: AppDeps;
  request: RequestInfo;
  log: Logger;
  /** Response headers a procedure wants sent (RateLimit-*, Retry-After, Set-Cookie). */
  responseHeaders: Map<string, string | string[]>;
  /**
   * Status for a successful REST response (201 on create; tRPC always answers 200). An object
   * every copy of the context shares: middlewares that extend the context (authedProcedure)
   * hand the procedure a copy, where a plain field would be lost.
   */
  response: { status?: number };
  /** The authenticated caller; set by the authed procedure tiers. */
  auth?: Principal;
  /** Who is acting, for audit rows and status history; set with `auth`. */
  actor?: Actor;
}

export function createContext(deps: AppDeps, request: RequestInfo): Context {
  const response: { status?: number } = {};
  return {
    deps,
    request,
    log: deferredChild(deps.log, { requestId: request.requestId }),
    responseHeaders: new Map(),
    response,
  };
}
