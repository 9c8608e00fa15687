import type { AppRouter } from "@qc/api";
import { TRPCClientError } from "@trpc/client";

/** An API failure as the dashboard shows it: the contract's error name, code and message (CONTRACT §2). */
export interface ApiFailure {
  /** e.g. `VALIDATION_FAILED`; `NETWORK` when no answer arrived. */
  error: string;
  code: number | null;
  message: string;
  requestId: string | null;
  /** Field path (`email`, `rules.0.id`) → message, from `details.fields`. */
  fields: Record<string, string>;
  retryAfterSeconds: number | null;
}

type Shape = {
  error?: string;
  code?: number;
  message?: string;
  requestId?: string;
  details?: { fields?: { path: string; message: string }[] };
};

export function describeFailure(cause: unknown): ApiFailure {
  if (cause instanceof TRPCClientError) {
    const shape = (cause as TRPCClientError<AppRouter>).shape as Shape | undefined;
    if (shape?.error) {
      const fields: Record<string, string> = {};
      for (const field of shape.details?.fields ?? []) fields[field.path] ??= field.message;
      const retryAfter = (cause.meta?.response as Response | undefined)?.headers?.get("retry-after");
      return {
        error: shape.error,
        code: shape.code ?? null,
        message: shape.message ?? cause.message,
        requestId: shape.requestId ?? null,
        fields,
        retryAfterSeconds: retryAfter ? Number(retryAfter) : null,
      };
    }
    return {
      error: "NETWORK",
      code: null,
      message: `The service did not answer (${cause.message}). Check your connection and try again.`,
      requestId: null,
      fields: {},
      retryAfterSeconds: null,
    };
  }
  const message = cause instanceof Error ? cause.message : String(cause);
  return { error: "NETWORK", code: null, message, requestId: null, fields: {}, retryAfterSeconds: null };
}

/** True for the answers that mean "nobody is logged in" (missing, expired or revoked session). */
export function isUnauthenticated(cause: unknown): boolean {
  const { error } = describeFailure(cause);
  return error === "UNAUTHENTICATED" || error === "CREDENTIAL_EXPIRED" || error === "CREDENTIAL_REVOKED";
}
