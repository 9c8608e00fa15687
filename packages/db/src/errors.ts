/**
 * True when `error` (or an error it wraps: drizzle and the neon driver wrap the driver's error
 * as `cause`) is a PostgreSQL unique violation (23505), optionally of the named constraint or
 * unique index. Uniqueness lives in the database; services turn this into their conflict error.
 */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  for (
    let current = error, depth = 0;
    current && typeof current === "object" && depth < 8;
    current = (current as { cause?: unknown }).cause, depth++
  ) {
    const { code, constraint: name } = current as { code?: unknown; constraint?: unknown };
    if (code === "23505") return constraint === undefined || name === constraint;
  }
  return false;
}
