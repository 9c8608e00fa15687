import { AppError } from "./errors";

/**
 * Cursor pagination (CONTRACT §1): newest first by UUIDv7 id, `where id < cursor order by id
 * desc limit n + 1`. A row inserted while a client pages has a larger id than every cursor
 * already handed out, so it never shifts a later page: nothing repeats, nothing is skipped.
 * The cursor is opaque to clients: base64url of the last id of the page.
 */
export interface PageRequest {
  limit: number;
  cursor?: string | undefined;
}

export interface PageInfo {
  nextCursor: string | null;
  hasMore: boolean;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function encodePageCursor(id: string): string {
  return Buffer.from(id, "utf8").toString("base64url");
}

/** The id a cursor stands for; 400 VALIDATION_FAILED (field `cursor`) for anything else. */
export function decodePageCursor(cursor: string | undefined): string | undefined {
  if (cursor === undefined) return undefined;
  const id = /^[A-Za-z0-9_-]+$/.test(cursor) ? Buffer.from(cursor, "base64url").toString("utf8") : "";
  if (!UUID.test(id)) {
    throw new AppError("VALIDATION_FAILED", "cursor is not one this service issued", {
      details: { fields: [{ path: "cursor", message: "invalid cursor" }] },
    });
  }
  return id;
}

/** Rows fetched with `limit + 1`: the page of `limit` rows and whether another follows. */
export function toPage<T extends { id: string }>(rows: T[], limit: number): { items: T[]; page: PageInfo } {
  const hasMore = rows.length > limit;
  const items = hasMore ? rows.slice(0, limit) : rows;
  const last = items.at(-1);
  return { items, page: { nextCursor: hasMore && last ? encodePageCursor(last.id) : null, hasMore } };
}
