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
 * HTTPS with the full pipeline, and a plain-HTTP listener that processes nothing: every
 * request is answered 308 to the same path on HTTPS.
 */
export async function startWebServer(options: WebServerOptions): Promise<WebServer> {
  let httpsPort = options.httpsPort;
  const redirectTarget = (req: IncomingMessage) => {
    if (options.publicUrl) return new URL(req.url ?? "/", options.publicUrl).toString();
    const host = (req.headers.host ?? "localhost").replace(/:\d+$/, "").replace(/^\[(.*)\]$/, "[$1]");
    return `https://${host}:${httpsPort}${req.url ?? "/"}`;
  };
  const publicUrlFor = () => options.publicUrl ?? `https://localhost:${httpsPort}`;
  // Wired once the HTTPS port is known (port 0 picks one), which the handler's URLs need.
  const wired: { handler?: ReturnType<typeof createRequestHandler> } = {};
  const https = createHttpsServer({ cert: options.tls.cert, key: options.tls.key }, (req, res) => {
    if (wired.handler) return void wired.handler(req, res);
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
