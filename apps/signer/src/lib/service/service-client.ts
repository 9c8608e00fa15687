import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { isIP } from "node:net";
import type { z } from "zod";
import { SignerError, UsageError } from "../errors";

export type ServiceClientOptions = {
  /** Base URL of the service, e.g. `https://custody.example.com`. */
  url: string;
  /** `<keyId>:<secret>`, sent as `Authorization: Bearer …`. */
  apiKey: string;
  /** PEM certificate(s) to trust instead of the system roots (the development certificate). */
  ca?: string | null;
  timeoutMs?: number;
  /**
   * Keep up to this many connections open and send the requests on them (`signer serve`, which
   * polls several times a second: no TLS handshake per request). Otherwise each request has its own.
   */
  keptConnections?: number;
};

/** The service answered with the contract's flat error body (CONTRACT §2). */
export class ServiceError extends SignerError {
  override name = "ServiceError";
  readonly status: number;
  readonly error: string | undefined;
  readonly code: number | undefined;
  readonly requestId: string | undefined;

  constructor(params: { status: number; error?: string; code?: number; message: string; requestId?: string }) {
    super(params.message);
    this.status = params.status;
    this.error = params.error;
    this.code = params.code;
    this.requestId = params.requestId;
  }
}

const MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

const HINTS: Record<string, string> = {
  UNAUTHENTICATED: "check the API key, or log in again with `signer login`",
  CREDENTIAL_EXPIRED: "create a new API key in the dashboard and log in again",
  CREDENTIAL_ROTATED: "log in again with the rotated API key",
  CREDENTIAL_REVOKED: "create a new API key in the dashboard and log in again",
  INSUFFICIENT_SCOPE: "the signer needs an API key with the signer scope (create one in the dashboard) and `signer login` with it",
  IP_NOT_ALLOWED: "this machine's address is not in the tenant's IP allowlist",
  TENANT_NOT_VERIFIED: "the organization's identity verification is not complete yet",
};

const TLS_TRUST_ERRORS = new Set([
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "UNABLE_TO_GET_ISSUER_CERT",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "CERT_UNTRUSTED",
]);

function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  if (isIP(host) === 4) return host.startsWith("127.");
  if (isIP(host) === 6) return host === "::1" || host === "0:0:0:0:0:0:0:1";
  return false;
}

/**
 * Checks a service base URL: `https` anywhere; plain `http` only to this machine (a test
 * double or a tunnel), because the API key would otherwise cross the network in clear.
 */
export function parseServiceUrl(input: string): URL {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new UsageError(`--url must be an absolute URL such as https://localhost:8443, got "${input}"`);
  }
  if (url.username || url.password) throw new UsageError("--url must not contain credentials; pass the API key with --key");
  if (url.search || url.hash) throw new UsageError("--url must be a base URL without query or fragment");
  if (url.protocol === "https:") return url;
  if (url.protocol === "http:") {
    if (isLoopbackHost(url.hostname)) return url;
    throw new UsageError(`plain http is allowed only for this machine (localhost, 127.0.0.1, ::1); use https for ${url.host}`);
  }
  throw new UsageError(`--url must be https (or http for localhost), got ${url.protocol.replace(/:$/, "")}`);
}

export type ServiceResponse = { status: number; body: unknown; location?: string };

export type ServiceClient = {
  readonly url: URL;
  /** Closes the kept connections, if any (`keptConnections`). */
  close(): void;
  /** Sends one request and returns the parsed body of a 2xx answer, checked by `schema`. */
  send<S extends z.ZodType>(method: "GET" | "POST", path: string, schema: S, body?: unknown): Promise<z.infer<S>>;
};

export function createServiceClient(options: ServiceClientOptions): ServiceClient {
  const base = parseServiceUrl(options.url);
  const timeoutMs = options.timeoutMs ?? 30_000;
  const kept = options.keptConnections ? { keepAlive: true, maxSockets: options.keptConnections } : null;
  const agent = kept ? (base.protocol === "https:" ? new HttpsAgent(kept) : new HttpAgent(kept)) : undefined;

  function exchange(method: string, path: string, body: unknown): Promise<ServiceResponse> {
    const target = new URL(base.pathname.replace(/\/+$/, "") + path, base);
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body), "utf8");
    const headers: Record<string, string | number> = {
      authorization: `Bearer ${options.apiKey}`,
      accept: "application/json",
      "user-agent": "quantum-signer/1",
    };
    if (payload) {
      headers["content-type"] = "application/json";
      headers["content-length"] = payload.length;
    }
    return new Promise((resolve, reject) => {
      const onResponse = (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_RESPONSE_BYTES) {
            req.destroy(new SignerError(`the service's answer to ${method} ${path} is larger than ${MAX_RESPONSE_BYTES} bytes`));
            return;
          }
          chunks.push(chunk);
        });
        res.on("error", reject);
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          let parsed: unknown = undefined;
          if (text.length > 0) {
            try {
              parsed = JSON.parse(text);
            } catch {
              parsed = undefined;
            }
          }
          const location = typeof res.headers.location === "string" ? res.headers.location : undefined;
          resolve({ status: res.statusCode ?? 0, body: parsed, ...(location ? { location } : {}) });
        });
      };
      const common = { method, headers, timeout: timeoutMs, ...(agent ? { agent } : {}) };
      const req =
        target.protocol === "https:"
          ? httpsRequest(target, { ...common, rejectUnauthorized: true, ...(options.ca ? { ca: options.ca } : {}) }, onResponse)
          : httpRequest(target, common, onResponse);
      req.on("timeout", () => req.destroy(new SignerError(`the service did not answer ${method} ${path} within ${timeoutMs / 1000} s`)));
      req.on("error", (error) => reject(transportError(error, base)));
      req.end(payload);
    });
  }

  return {
    url: base,
    close: () => agent?.destroy(),
    async send(method, path, schema, body) {
      const response = await exchange(method, path, body);
      if (response.status >= 200 && response.status < 300) {
        const parsed = schema.safeParse(response.body);
        if (!parsed.success) {
          const issue = parsed.error.issues[0];
          throw new SignerError(
            `the service's answer to ${method} ${path} is not what the contract describes (${issue ? `${issue.path.join(".") || "body"}: ${issue.message}` : "invalid"})`,
          );
        }
        return parsed.data;
      }
      if (response.status >= 300 && response.status < 400) {
        throw new SignerError(
          `the service redirected ${method} ${path}${response.location ? ` to ${response.location}` : ""}; log in with the service's https URL`,
        );
      }
      throw serviceErrorOf(method, path, response);
    },
  };
}

function serviceErrorOf(method: string, path: string, response: ServiceResponse): ServiceError {
  const body = (response.body ?? {}) as { error?: unknown; code?: unknown; message?: unknown; requestId?: unknown };
  const error = typeof body.error === "string" ? body.error : undefined;
  const code = typeof body.code === "number" ? body.code : undefined;
  const requestId = typeof body.requestId === "string" ? body.requestId : undefined;
  const said = typeof body.message === "string" && body.message.length > 0 ? body.message : `HTTP ${response.status}`;
  const hint = error ? HINTS[error] : undefined;
  const tags = [error && code !== undefined ? `${error} ${code}` : error, requestId ? `request ${requestId}` : undefined]
    .filter(Boolean)
    .join(", ");
  return new ServiceError({
    status: response.status,
    error,
    code,
    requestId,
    message: `the service refused ${method} ${path}: ${said}${tags ? ` (${tags})` : ""}${hint ? `; ${hint}` : ""}`,
  });
}

function transportError(error: Error & { code?: string }, base: URL): Error {
  if (error instanceof SignerError) return error;
  const code = error.code ?? "";
  if (TLS_TRUST_ERRORS.has(code)) {
    return new SignerError(
      `cannot verify the TLS certificate of ${base.host} (${code}); for the development server's self-signed certificate, log in again with --ca <pem file>`,
      { cause: error },
    );
  }
  if (code === "ERR_TLS_CERT_ALTNAME_INVALID") {
    return new SignerError(`the TLS certificate of ${base.host} is not valid for that name (${code})`, { cause: error });
  }
  if (code === "CERT_HAS_EXPIRED") return new SignerError(`the TLS certificate of ${base.host} has expired`, { cause: error });
  if (code === "ECONNREFUSED" || code === "ENOTFOUND" || code === "EAI_AGAIN" || code === "ECONNRESET" || code === "EHOSTUNREACH") {
    return new SignerError(`cannot reach the service at ${base.origin} (${code})`, { cause: error });
  }
  return new SignerError(`the request to ${base.origin} failed: ${error.message}`, { cause: error });
}
