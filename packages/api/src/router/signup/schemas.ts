import { z } from "zod";

/** Trimmed and lower-cased before the format check: one account per address, whatever its case. */
export const emailAddress = z
  .string()
  .trim()
  .toLowerCase()
  .max(254, "at most 254 characters")
  .pipe(z.email("must be a valid email address"))
  .meta({ example: "alice@example.com" });
