import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";

const VALID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The client's X-Request-ID when valid (CONTRACT §1), otherwise a fresh one. */
export function resolveRequestId(req: IncomingMessage): string {
  const sent = req.headers["x-request-id"];
  const value = Array.isArray(sent) ? sent[0] : sent;
  return value !== undefined && VALID.test(value) ? value : randomUUID();
}
