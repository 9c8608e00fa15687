import type { IncomingMessage } from "node:http";
import { AppError, MAX_REQUEST_BODY_BYTES, PAYLOAD_TOO_LARGE_MESSAGE } from "@qc/core";

/**
 * Deepest nesting of arrays and objects a JSON body (or a tRPC `?input=`) may have. No request
 * of the contract needs more than a handful of levels; the limit is far above that and far below
 * the depth at which a recursive walk (JSON.stringify in the adapters, zod, PostgreSQL's jsonb
 * parser) runs out of stack. See docs/decisions/foundation.md.
 */
export const MAX_JSON_DEPTH = 64;

function contentTypeOf(req: IncomingMessage): string | undefined {
  return req.headers["content-type"]?.split(";")[0]?.trim().toLowerCase();
}

export function hasBody(req: IncomingMessage): boolean {
  const length = req.headers["content-length"];
  if (length !== undefined) return Number(length) > 0;
  return req.headers["transfer-encoding"] !== undefined;
}

/**
 * Reads and parses a JSON body, enforcing the 1 MB limit while streaming: a declared length
 * over the limit is refused before a byte is read, and a stream that passes the limit stops
 * being buffered at that byte. An empty body reads as undefined. The exact bytes are returned
 * too: signed callbacks verify the raw body.
 */
export async function readJsonBody(req: IncomingMessage): Promise<{ body: unknown; raw?: Buffer }> {
  if (!hasBody(req)) return { body: undefined };
  const declared = req.headers["content-length"];
  if (declared !== undefined && Number(declared) > MAX_REQUEST_BODY_BYTES) {
    throw new AppError("PAYLOAD_TOO_LARGE", PAYLOAD_TOO_LARGE_MESSAGE);
  }
  const type = contentTypeOf(req);
  if (type !== "application/json") {
    throw new AppError("UNSUPPORTED_MEDIA_TYPE", "request body must be application/json");
  }
  const { chunks, size } = await collect(req);
  if (size === 0) return { body: undefined };
  const raw = Buffer.concat(chunks, size);
  return { body: parseJsonText(raw.toString("utf8")), raw };
}

/**
 * JSON.parse with the depth limit: 400 VALIDATION_FAILED for malformed or too deeply nested
 * text (a body, or a tRPC query's ?input=). The depth is checked on the text once it parsed,
 * before anything walks the value.
 */
export function parseJsonText(text: string, source: "body" | "input" = "body"): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    throw new AppError("VALIDATION_FAILED", `malformed JSON ${source}`);
  }
  if (nestingExceeds(text, MAX_JSON_DEPTH)) {
    const message = `JSON nested deeper than ${MAX_JSON_DEPTH} levels`;
    throw new AppError("VALIDATION_FAILED", message, { details: { fields: [{ path: `(${source})`, message }] } });
  }
  return value;
}

/**
 * Whether valid JSON text nests arrays and objects deeper than `limit`. One pass over the
 * characters with no recursion; brackets inside strings do not count, and a string is skipped
 * with indexOf so that long values cost next to nothing.
 */
export function nestingExceeds(text: string, limit: number): boolean {
  let depth = 0;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      // The closing quote is the first one not escaped by an odd run of backslashes.
      for (;;) {
        i = text.indexOf('"', i + 1);
        let backslashes = 0;
        while (text.charCodeAt(i - 1 - backslashes) === 0x5c) backslashes++;
        if (backslashes % 2 === 0) break;
      }
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (++depth > limit) return true;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      depth--;
    }
  }
  return false;
}

// After the limit is passed the rest of the upload is read and thrown away (so the client can
// read the 413), but only up to this much; past it the connection is cut.
const DISCARD_LIMIT = 16 * MAX_REQUEST_BODY_BYTES;

function collect(req: IncomingMessage): Promise<{ chunks: Buffer[]; size: number }> {
  return new Promise((resolve, reject) => {
    let chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (over) {
        if (size > DISCARD_LIMIT) req.destroy();
        return;
      }
      if (size > MAX_REQUEST_BODY_BYTES) {
        over = true;
        chunks = [];
        reject(new AppError("PAYLOAD_TOO_LARGE", PAYLOAD_TOO_LARGE_MESSAGE));
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve({ chunks, size }));
    req.on("error", reject);
  });
}
