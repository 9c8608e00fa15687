import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AnyRouter } from "@trpc/server";
import { buildOpenApiDocument, type AppDeps, type RequestInfo } from "@qc/api";
import { AppError, toAppError } from "@qc/core";
import { clientAddress, clientProtocol, proxyTrust } from "./guards/client-address";
import { rejectKeyMaterial } from "./guards/key-material";
import { HOST } from "./guards/https-redirect";
import { rejectCrossSiteRequest } from "./guards/origin";
import { rejectPrototypeKeys } from "./guards/prototype-keys";
import { parseJsonText, readJsonBody } from "./guards/read-json-body";
import { resolveRequestId } from "./guards/request-id";
import { checkReadiness, type ReadinessProbe } from "./health";
import { API_REFERENCE_PATH, createApiReferenceHandler } from "./http/api-reference";
import { dashboardContentSecurityPolicy } from "./http/content-security-policy";
import { createMetricsHandler, METRICS_PATH } from "./http/metrics";
import { sendError, sendJson } from "./http/respond";
import { createRestHandler } from "./http/rest";
import { createRouteTable } from "./http/routes";
import { createTrpcHandler } from "./http/trpc";

export type PageHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

export interface AppOptions {
  deps: AppDeps;
  router: AnyRouter;
  trustProxyHops: number;
  /** CIDRs whose X-Forwarded-* headers count (TRUSTED_PROXIES); default the loopback addresses. */
  trustedProxies?: readonly string[];
  /**
   * Where plain-HTTP requests are sent: the same path on PUBLIC_URL, or on https://<host>:<httpsPort>;
   * undefined when the request target or Host cannot be made into one (answered 400).
   */
  redirectTarget: (req: IncomingMessage) => string | undefined;
  publicUrl: string;
  /**
   * The origin cookie-authenticated state changes must come from: PUBLIC_URL's when configured;
   * undefined: the origin the client addressed (`https://` + Host).
   */
  allowedOrigin?: string;
  /** Next's handler for the dashboard pages; without it, other paths are 404. */
  pages?: PageHandler;
  /** Next's development server serves the pages (its hot reload needs `eval`): relaxes the CSP for it. */
  pagesDevelopment?: boolean;
  readinessProbes?: ReadinessProbe[];
  /** Bearer token for GET /metrics; without one the route is 404. */
  metricsToken?: string;
}

const TRPC_PREFIX = "/api/trpc/";
const HSTS = "max-age=63072000; includeSubDomains";

/**
 * The request target's path, query and (for absolute-form, `GET http://host/path`, which Node's
 * parser accepts) nothing of the authority. A target that is not a path, an http(s) URL, or
 * whose path's percent-encoding is not UTF-8, is a malformed request: 400, never a throw that
 * escapes the handler.
 */
function parseRequestTarget(target: string): URL {
  const absolute = /^https?:\/\//i.test(target);
  const text = target.startsWith("/") ? `https://localhost${target}` : absolute ? target : undefined;
  if (text === undefined || !URL.canParse(text)) throw new AppError("VALIDATION_FAILED", "malformed request target");
  const url = new URL(text);
  try {
    decodeURIComponent(url.pathname);
  } catch {
    throw new AppError("VALIDATION_FAILED", "malformed percent-encoding in the request path");
  }
  return url;
}

/**
 * The HTTPS request pipeline. Order matters: request id → target → transport → route (404/405)
 * → origin (cookie-authenticated state changes) → body (size, type, JSON) → key material →
 * adapter. Nothing reaches a procedure that has not passed every guard, on /v1 and /api/trpc
 * alike. Everything that reads the request runs inside the one try: whatever a client sends
 * ends in an answer (the contract's error body), never in a rejected promise.
 */
export function createRequestHandler(options: AppOptions) {
  const { deps, router } = options;
  const openApiDocument = buildOpenApiDocument(router as never, options.publicUrl);
  const routes = createRouteTable(router);
  const rest = createRestHandler(router, deps);
  const trpc = createTrpcHandler(router, routes, deps);
  const apiReference = createApiReferenceHandler();
  const metrics = createMetricsHandler(deps, options.metricsToken);
  const proxies = proxyTrust(options.trustProxyHops, options.trustedProxies);

  return async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let requestId: string = randomUUID();
    try {
      requestId = resolveRequestId(req);
      res.setHeader("X-Request-ID", requestId);
      res.setHeader("Strict-Transport-Security", HSTS);
      res.setHeader("X-Content-Type-Options", "nosniff");
      const method = (req.method ?? "GET").toUpperCase();
      // RFC 9112 §3.2: a Host that is not a host[:port] is a 400. The adapters build URLs from it.
      if (req.headers.host !== undefined && !HOST.test(req.headers.host)) throw new AppError("VALIDATION_FAILED", "malformed Host header");
      const target = parseRequestTarget(req.url ?? "/");
      // Everything after this point (the adapters, Next) sees the origin-form target only.
      req.url = target.pathname + target.search;
      const path = target.pathname;
      const request: RequestInfo = {
        requestId,
        ip: clientAddress(req, proxies),
        method,
        path,
        headers: req.headers,
        transport: path.startsWith(TRPC_PREFIX) ? "trpc" : "rest",
      };
      if (clientProtocol(req, proxies, true) === "http") {
        const location = options.redirectTarget(req);
        if (location === undefined) throw new AppError("VALIDATION_FAILED", "malformed request target or Host");
        res.statusCode = 308;
        res.setHeader("Location", location);
        res.end();
        return;
      }
      if (path === "/healthz") {
        if (method !== "GET" && method !== "HEAD") throw methodNotAllowed(["GET", "HEAD"], res);
        return sendJson(res, 200, { status: "ok" }, { "Cache-Control": "no-store" });
      }
      if (path === "/readyz") {
        if (method !== "GET" && method !== "HEAD") throw methodNotAllowed(["GET", "HEAD"], res);
        const readiness = await checkReadiness(deps.database, options.readinessProbes, deps.log);
        const body = { status: readiness.ready ? "ready" : "not_ready", checks: readiness.checks };
        return sendJson(res, readiness.ready ? 200 : 503, body, { "Cache-Control": "no-store" });
      }
      if (path === "/v1/openapi.json") {
        if (method !== "GET") throw methodNotAllowed(["GET"], res);
        return sendJson(res, 200, openApiDocument);
      }
      if (path === "/v1" || path.startsWith("/v1/")) {
        // Paths are case-sensitive: `/v1/Vault/accounts` is 404.
        const match = routes.match(path, method);
        if (!match) throw new AppError("NOT_FOUND", `no route ${path}`);
        if ("allowed" in match) throw methodNotAllowed(match.allowed, res);
        rejectCrossSiteRequest(req, method, options.allowedOrigin);
        const { body, raw } = await readJsonBody(req);
        request.rawBody = raw;
        await rejectKeyMaterial(body, request, deps);
        rejectPrototypeKeys(body);
        // No credentials at all on a route that needs them: refused here with what the
        // authenticate middleware would answer (same 401, same audit row), without building a
        // tRPC request and error for it, so anonymous traffic stays cheap.
        if (req.headers.authorization === undefined && req.headers.cookie === undefined && match.route.needsCredentials) {
          await deps.authenticator.authenticate({ ip: request.ip, requestId, userAgent: req.headers["user-agent"] });
        }
        return await rest(req, res, request, body, match);
      }
      if (path.startsWith(TRPC_PREFIX)) {
        rejectCrossSiteRequest(req, method, options.allowedOrigin);
        const body = method === "GET" ? undefined : (await readJsonBody(req)).body;
        const input = body ?? queryInput(req);
        await rejectKeyMaterial(input, request, deps);
        rejectPrototypeKeys(input);
        return await trpc(req, res, request, body, path.slice(TRPC_PREFIX.length));
      }
      if (path === METRICS_PATH) return await metrics(req, res, method, request.ip);
      // The reference is part of the API, so it is served by API-only instances too.
      if (path === API_REFERENCE_PATH || path.startsWith(`${API_REFERENCE_PATH}/`)) return await apiReference(req, res, method, path);
      if (options.pages && !path.startsWith("/api/")) {
        // A fresh nonce per page: Next reads it from the request's CSP header and puts it on the
        // scripts it renders (docs/dashboard.md, "Content Security Policy").
        const policy = dashboardContentSecurityPolicy({ development: options.pagesDevelopment ?? false });
        req.headers["content-security-policy"] = policy;
        res.setHeader("Content-Security-Policy", policy);
        return await options.pages(req, res);
      }
      throw new AppError("NOT_FOUND", `no route ${path}`);
    } catch (error) {
      const appError = toAppError(error);
      if (appError.error === "INTERNAL") deps.log.error({ err: error, requestId }, "request failed");
      if (appError.error === "PAYLOAD_TOO_LARGE") res.setHeader("Connection", "close");
      sendError(res, appError, requestId);
    }
  };
}

function methodNotAllowed(allowed: string[], res: ServerResponse): AppError {
  res.setHeader("Allow", allowed.join(", "));
  return new AppError("METHOD_NOT_ALLOWED", `method not allowed; allowed: ${allowed.join(", ")}`);
}

/** tRPC queries carry their input as JSON in ?input=; it is limited and scanned like a body. */
function queryInput(req: IncomingMessage): unknown {
  const input = new URL(req.url ?? "/", "https://localhost").searchParams.get("input");
  if (!input) return undefined;
  return parseJsonText(input, "input");
}
