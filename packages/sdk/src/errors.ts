import type { components } from "./openapi.js";

/** The API's error names (CONTRACT §2), from the document. */
export type ApiErrorName = components["schemas"]["Error"]["error"];

/** The flat error body every API error carries. */
export type ApiErrorBody = components["schemas"]["Error"];

/** `error` of an answer that is not the API's error body (e.g. a proxy's HTML 502). */
export const UNEXPECTED_RESPONSE = "UNEXPECTED_RESPONSE";

export interface QuantumCustodyErrorFields {
  error: ApiErrorName | typeof UNEXPECTED_RESPONSE;
  code: number;
  status: number;
  requestId: string | undefined;
  message: string;
  details?: Record<string, unknown> | undefined;
  /** Seconds from `Retry-After`, when the answer carried one (429, 503). */
  retryAfterSeconds?: number | undefined;
}

/**
 * Every error answer of the API, as one class: the contract's `error` name and numeric `code`,
 * the HTTP status and the request id (the `X-Request-ID` header, else the body's). Network
 * failures that outlast the retries are no API answer: they throw a plain `Error` naming the
 * request, the attempts and the reason, with fetch's error as its `cause`.
 */
export class QuantumCustodyError extends Error {
  override name = "QuantumCustodyError";
  readonly error: QuantumCustodyErrorFields["error"];
  readonly code: number;
  readonly status: number;
  readonly requestId: string | undefined;
  readonly details: Record<string, unknown> | undefined;
  readonly retryAfterSeconds: number | undefined;

  constructor(fields: QuantumCustodyErrorFields) {
    super(`${fields.error} (${fields.status}): ${fields.message}${fields.requestId ? ` [request ${fields.requestId}]` : ""}`);
    this.error = fields.error;
    this.code = fields.code;
    this.status = fields.status;
    this.requestId = fields.requestId;
    this.details = fields.details;
    this.retryAfterSeconds = fields.retryAfterSeconds;
  }
}

function isErrorBody(value: unknown): value is ApiErrorBody {
  const body = value as Partial<ApiErrorBody> | null;
  return typeof body === "object" && body !== null && typeof body.error === "string" && typeof body.code === "number";
}

/** The error for a non-2xx answer, from its body (when it is the contract's) and headers. */
export function errorFromResponse(
  status: number,
  headers: Headers,
  text: string,
  retryAfterSeconds: number | undefined,
): QuantumCustodyError {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const requestId = headers.get("x-request-id") ?? (isErrorBody(body) ? body.requestId : undefined);
  if (isErrorBody(body)) {
    return new QuantumCustodyError({
      error: body.error,
      code: body.code,
      status,
      requestId,
      message: body.message,
      details: body.details as Record<string, unknown> | undefined,
      retryAfterSeconds,
    });
  }
  return new QuantumCustodyError({
    error: UNEXPECTED_RESPONSE,
    code: 0,
    status,
    requestId,
    message: `HTTP ${status} without the API's error body: ${text.slice(0, 200)}`,
    retryAfterSeconds,
  });
}
