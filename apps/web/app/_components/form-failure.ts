"use client";

import { describeFailure } from "../../src/dashboard/api-error";

/**
 * Splits an API failure between a form's fields and the form itself: each VALIDATION_FAILED
 * field message goes next to its field; an error that names a field (`EMAIL_ALREADY_REGISTERED`
 * → email) goes there too; anything else is the form's, in the contract's words.
 */
export function formFailure(error: unknown, fields: readonly string[], errorFields: Record<string, string> = {}) {
  if (!error) return { field: (_path: string): string | undefined => undefined, form: null as string | null };
  const failure = describeFailure(error);
  const byField: Record<string, string> = {};
  for (const [path, message] of Object.entries(failure.fields)) {
    const known = fields.find((field) => path === field || path.startsWith(`${field}.`));
    if (known) byField[known] ??= message;
  }
  const named = errorFields[failure.error];
  if (named) byField[named] = failure.message;
  const unplaced = Object.entries(failure.fields).filter(
    ([path]) => !fields.some((field) => path === field || path.startsWith(`${field}.`)),
  );
  const handledByFields = Object.keys(byField).length > 0 && unplaced.length === 0;
  const form = handledByFields
    ? null
    : [failure.message, ...unplaced.map(([path, message]) => `${path}: ${message}`)].join(" · ") +
      (failure.retryAfterSeconds !== null ? ` (try again in ${failure.retryAfterSeconds} s)` : "");
  return { field: (path: string) => byField[path], form };
}
