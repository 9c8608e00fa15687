import type { IncomingHttpHeaders } from "node:http";
import type { DatabaseHandle } from "@qc/db";
import type { Authenticator, JobQueue, Logger, Principal, RateLimits } from "@qc/core";
import type { NetworkCode, QuantumPublicClient } from "@qc/chain";

export interface AppConfig {
  /** Base of links in emails (CONTRACT §3): PUBLIC_URL. */
  publicUrl: string;
  /** Server pepper for API-key secret hashes. */
  apiKeyPepper: Buffer;
  production: boolean;
  /** SMTP_URL; unset: emails stay in the dev outbox (never in production). */
  smtpUrl?: string;
  /** KYC_PROVIDER ("sandbox" outside production), KYC_WEBHOOK_SECRET, KYC_SANDBOX_DELAY_MS. */
  kyc: { provider: string; webhookSecret: string; sandboxDelayMs: number };
  /** JSON-RPC endpoints per network (QUANTUM_*_RPC_URL, comma-separated for fallback). */
  rpcUrls: Partial<Record<NetworkCode, string[]>>;
}

/** Long-lived dependencies, built once per process and shared by every request. */
export interface AppDeps {
  database: DatabaseHandle;
  log: Logger;
  /** The clock every rule reads (tests control it). */
  now(): Date;
  config: AppConfig;
  authenticator: Authenticator;
  rateLimits: RateLimits;
  jobs: JobQueue;
  /** A viem public client per configured network; 503 UNAVAILABLE for one that is not. */
  chain: ChainClients;
}

export interface ChainClients {
  client(networkCode: NetworkCode): QuantumPublicClient;
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
}

export function createContext(deps: AppDeps, request: RequestInfo): Context {
  const response: { status?: number } = {};
  return {
    deps,
    request,
    log: deps.log.child({ requestId: request.requestId }),
    responseHeaders: new Map(),
    response,
  };
}
