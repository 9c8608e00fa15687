import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "@qc/core";
import { z } from "zod";
import { text } from "../../schemas/common";

/** Trimmed and lower-cased before the format check: one account per address, whatever its case. */
export const emailAddress = text()
  .trim()
  .toLowerCase()
  .max(254, "at most 254 characters")
  .pipe(z.email("must be a valid email address"))
  .meta({ example: "alice@example.com" });

/** A password being chosen (signup, reset): CONTRACT §3, 12 to 256 characters. */
export const newPassword = text()
  .min(PASSWORD_MIN_LENGTH, `at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, `at most ${PASSWORD_MAX_LENGTH} characters`);
