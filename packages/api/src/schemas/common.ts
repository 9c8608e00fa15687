import { z } from "zod";

/** RFC 3339 UTC with milliseconds, as every timestamp leaves the service (CONTRACT §1). */
export const timestamp = z.string().meta({ description: "RFC 3339 timestamp, UTC, milliseconds", example: "2026-11-21T10:00:00.000Z" });
export const uuid = z.uuid();
export const scope = z.enum(["read", "write", "admin"]);

/** Cursor pagination query (CONTRACT §1): limit 1..200, default 50; opaque cursor. */
export const pageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().min(1).max(200).optional(),
});

export const pageInfo = z.object({ nextCursor: z.string().nullable(), hasMore: z.boolean() });
