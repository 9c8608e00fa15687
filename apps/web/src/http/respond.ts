import type { ServerResponse } from "node:http";
import { errorBody, type AppError } from "@qc/core";

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const payload = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader("Content-Type", "application/json; charset=utf-8");
  res.setHeader("Content-Length", Buffer.byteLength(payload));
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.end(payload);
}

/** The contract's flat error body (CONTRACT §2), with Retry-After when the error carries one. */
export function sendError(res: ServerResponse, error: AppError, requestId: string, headers: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const extra = { ...headers };
  if (error.retryAfter !== undefined) extra["Retry-After"] = String(Math.max(1, Math.ceil(error.retryAfter)));
  sendJson(res, error.status, errorBody(error, requestId), extra);
}
