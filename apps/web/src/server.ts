import { createServer as createHttpServer, type IncomingMessage, type Server } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { randomUUID } from "node:crypto";
import { AppError, errorBody, markExposedCredentials } from "@qc/core";
import { createRequestHandler, type AppOptions } from "./app";
import { clientAddress } from "./guards/client-address";
import { resolveRequestId } from "./guards/request-id";
import type { TlsMaterial } from "./tls";

export interface WebServerOptions extends Omit<AppOptions, "redirectTarget" | "publicUrl"> {
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
  // Requests node's HTTP parser refuses before any handler runs (a header block over its 16 KB
  // limit, a malformed request line) still get the contract's flat error body and a request id,
  // not node's bare 431/400.
  https.on("clientError", (err: NodeJS.ErrnoException, socket) => {
    if (!socket.writable || err.code === "ECONNRESET") return void socket.destroy();
    const requestId = randomUUID();
    const message = err.code === "HPE_HEADER_OVERFLOW" ? "request headers exceed 16 KB" : "malformed HTTP request";
    const body = JSON.stringify(errorBody(new AppError("VALIDATION_FAILED", message), requestId));
    socket.end(
      `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-ID: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
  const http = createHttpServer((req, res) => {
    const authorization = req.headers.authorization;
    if (authorization) {
      // CONTRACT §10: a key sent in clear is compromised; mark it so the dashboard asks for rotation.
      const { log } = options.deps;
      markExposedCredentials(options.deps, { authorization, ip: clientAddress(req, options.trustProxyHops), requestId: resolveRequestId(req) })
        .then((key) => key && log.warn({ keyId: key.keyId, tenantId: key.tenantId }, "API key sent over plain HTTP: marked exposed"))
        .catch((err: unknown) => log.error({ err }, "could not record exposed credentials"));
    }
    req.resume(); // read nothing into memory; the body is discarded
    res.statusCode = 308;
    res.setHeader("Location", redirectTarget(req));
    res.setHeader("Cache-Control", "no-store");
    res.end();
  });
  httpsPort = await listen(https, options.httpsPort, options.host);
  const httpPort = await listen(http, options.httpPort, options.host);
  wired.handler = createRequestHandler({ ...options, redirectTarget, publicUrl: publicUrlFor() });
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
