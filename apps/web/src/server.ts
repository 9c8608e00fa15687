import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo, Socket } from "node:net";
import { randomUUID } from "node:crypto";
import { AppError, errorBody, markExposedCredentials, toAppError } from "@qc/core";
import { createRequestHandler, type AppOptions } from "./app";
import { clientAddress, proxyTrust } from "./guards/client-address";
import { httpsRedirectTarget } from "./guards/https-redirect";
import { resolveRequestId } from "./guards/request-id";
import { sendError } from "./http/respond";
import type { TlsMaterial } from "./tls";

export interface WebServerOptions extends Omit<AppOptions, "redirectTarget" | "publicUrl" | "allowedOrigin"> {
  tls: TlsMaterial;
  host: string;
  httpsPort: number;
  httpPort: number;
  publicUrl?: string;
}

export interface WebServer {
  httpsUrl: string;
  httpUrl: string;
  httpsPort: number;
  httpPort: number;
  close(): Promise<void>;
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve((server.address() as AddressInfo).port));
  });
}

/**
 * Requests node's HTTP parser refuses before any handler runs (a header block over its 16 KB
 * limit, a malformed request line, a connection that stalls before its headers are in) still
 * get the contract's flat error body and a request id, not node's bare 431/400.
 */
function answerClientError(err: NodeJS.ErrnoException, socket: Socket): void {
  if (!socket.writable || err.code === "ECONNRESET") return void socket.destroy();
  const requestId = randomUUID();
  const timedOut = err.code === "ERR_HTTP_REQUEST_TIMEOUT";
  const message =
    err.code === "HPE_HEADER_OVERFLOW"
      ? "request headers exceed 16 KB"
      : timedOut
        ? "request not received in time"
        : "malformed HTTP request";
  const body = JSON.stringify(errorBody(new AppError("VALIDATION_FAILED", message), requestId));
  socket.end(
    `HTTP/1.1 ${timedOut ? "408 Request Timeout" : "400 Bad Request"}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Request-ID: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** What one request's handler left unanswered (it should not: app.ts catches everything) still ends. */
function answerUnhandled(res: ServerResponse, error: unknown, log: AppOptions["deps"]["log"]): void {
  const requestId = randomUUID();
  log.error({ err: error, requestId }, "request handler failed");
  try {
    sendError(res, toAppError(error), requestId);
  } catch {
    res.destroy();
  }
}

/** A client that stalls (slowloris) is cut off: its headers within 20 s, the whole request within 2 min. */
function boundSlowClients(server: Server): void {
  server.headersTimeout = 20_000;
  server.requestTimeout = 120_000;
}

/**
 * HTTPS with the full pipeline, and a plain-HTTP listener that processes nothing: every
 * request is answered 308 to the same path on HTTPS (400 when its target cannot be one).
 */
export async function startWebServer(options: WebServerOptions): Promise<WebServer> {
  let httpsPort = options.httpsPort;
  const redirectTarget = (req: IncomingMessage) => httpsRedirectTarget(req, { publicUrl: options.publicUrl, httpsPort });
  const publicUrlFor = () => options.publicUrl ?? `https://localhost:${httpsPort}`;
  const { log } = options.deps;
  // Wired once the HTTPS port is known (port 0 picks one), which the handler's URLs need.
  const wired: { handler?: ReturnType<typeof createRequestHandler> } = {};
  const https = createHttpsServer({ cert: options.tls.cert, key: options.tls.key }, (req, res) => {
    if (wired.handler) return void wired.handler(req, res).catch((error: unknown) => answerUnhandled(res, error, log));
    res.statusCode = 503; // listening, not yet wired: only possible during start-up
    res.end();
  });
  https.keepAliveTimeout = 65_000;
  boundSlowClients(https);
  https.on("clientError", answerClientError);
  const proxies = proxyTrust(options.trustProxyHops, options.trustedProxies);
  const http = createHttpServer((req, res) => {
    req.resume(); // read nothing into memory; the body is discarded
    try {
      const requestId = resolveRequestId(req);
      res.setHeader("X-Request-ID", requestId);
      res.setHeader("Cache-Control", "no-store");
      const authorization = req.headers.authorization;
      if (authorization) {
        // CONTRACT §10: a key sent in clear is compromised; mark it so the dashboard asks for rotation.
        markExposedCredentials(options.deps, { authorization, ip: clientAddress(req, proxies), requestId })
          .then((key) => key && log.warn({ keyId: key.keyId, tenantId: key.tenantId }, "API key sent over plain HTTP: marked exposed"))
          .catch((err: unknown) => log.error({ err }, "could not record exposed credentials"));
      }
      const location = redirectTarget(req);
      if (location === undefined) return sendError(res, new AppError("VALIDATION_FAILED", "malformed request target or Host"), requestId);
      res.statusCode = 308;
      res.setHeader("Location", location);
      res.end();
    } catch (error) {
      answerUnhandled(res, error, log);
    }
  });
  boundSlowClients(http);
  http.on("clientError", answerClientError);
  httpsPort = await listen(https, options.httpsPort, options.host);
  const httpPort = await listen(http, options.httpPort, options.host);
  wired.handler = createRequestHandler({
    ...options,
    redirectTarget,
    publicUrl: publicUrlFor(),
    allowedOrigin: options.publicUrl ? new URL(options.publicUrl).origin : undefined,
  });
  const displayHost = options.host === "0.0.0.0" || options.host === "::" ? "localhost" : options.host;
  return {
    httpsUrl: `https://${displayHost}:${httpsPort}`,
    httpUrl: `http://${displayHost}:${httpPort}`,
    httpsPort,
    httpPort,
    close: async () => {
      const closing = [https, http].map((s) => new Promise<void>((resolve) => s.close(() => resolve())));
      https.closeIdleConnections();
      http.closeIdleConnections();
      setTimeout(() => {
        https.closeAllConnections();
        http.closeAllConnections();
      }, 5_000).unref();
      await Promise.all(closing);
    },
  };
}
