import type { IncomingHttpHeaders } from "node:http";
import type { DatabaseHandle } from "@qc/db";
import type { Logger } from "@qc/core";

/** Long-lived dependencies, built once per process and shared by every request. */
export interface AppDeps {
  database: DatabaseHandle;
  log: Logger;
  /** The clock every rule reads (tests control it). */
  now(): Date;
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
}

export interface Context {
  deps: AppDeps;
  request: RequestInfo;
  log: Logger;
  /** Response headers a procedure wants sent (RateLimit-*, Retry-After, Set-Cookie). */
  responseHeaders: Map<string, string | string[]>;
  /** Status for a successful response (201 on create); REST only, tRPC always answers 200. */
  responseStatus?: number;
}

export function createContext(deps: AppDeps, request: RequestInfo): Context {
  return {
    deps,
    request,
    log: deps.log.child({ requestId: request.requestId }),
    responseHeaders: new Map(),
  };
}
