import type { IncomingMessage } from "node:http";
import { AppError } from "@qc/core";

export const MAX_BODY_BYTES = 1_048_576;

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
  if (declared !== undefined && Number(declared) > MAX_BODY_BYTES) {
    throw new AppError("PAYLOAD_TOO_LARGE", `request body exceeds ${MAX_BODY_BYTES} bytes`);
  }
  const type = contentTypeOf(req);
  if (type !== "application/json") {
    throw new AppError("UNSUPPORTED_MEDIA_TYPE", "request body must be application/json");
  }
  const { chunks, size } = await collect(req);
  if (size === 0) return { body: undefined };
  const raw = Buffer.concat(chunks, size);
  try {
    return { body: JSON.parse(raw.toString("utf8")) as unknown, raw };
  } catch {
    throw new AppError("VALIDATION_FAILED", "malformed JSON body");
  }
}

// After the limit is passed the rest of the upload is read and thrown away (so the client can
// read the 413), but only up to this much; past it the connection is cut.
const DISCARD_LIMIT = 16 * MAX_BODY_BYTES;

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
      if (size > MAX_BODY_BYTES) {
        over = true;
        chunks = [];
        reject(new AppError("PAYLOAD_TOO_LARGE", `request body exceeds ${MAX_BODY_BYTES} bytes`));
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve({ chunks, size }));
    req.on("error", reject);
  });
}
