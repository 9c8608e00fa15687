import { TRPCError } from "@trpc/server";
import { AppError, ERROR_CODES, PAYLOAD_TOO_LARGE_MESSAGE, toAppError, type FieldError } from "@qc/core";
import { ZodError } from "zod";

type TrpcCode = ConstructorParameters<typeof TRPCError>[0]["code"];

// HTTP status (from the one table in @qc/core) → the tRPC code whose HTTP status is the same,
// so that both adapters answer with the contract's status.
const TRPC_CODE_BY_STATUS: Record<number, TrpcCode> = {
  400: "BAD_REQUEST",
  401: "UNAUTHORIZED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  405: "METHOD_NOT_SUPPORTED",
  409: "CONFLICT",
  413: "PAYLOAD_TOO_LARGE",
  415: "UNSUPPORTED_MEDIA_TYPE",
  422: "UNPROCESSABLE_CONTENT",
  429: "TOO_MANY_REQUESTS",
  500: "INTERNAL_SERVER_ERROR",
  503: "SERVICE_UNAVAILABLE",
};

export function trpcCodeFor(error: AppError): TrpcCode {
  return TRPC_CODE_BY_STATUS[error.status] ?? "INTERNAL_SERVER_ERROR";
}

export function fieldErrorsFromZod(error: ZodError): FieldError[] {
  return error.issues.map((issue) => ({
    path: issue.path.map(String).join(".") || "(body)",
    message: issue.message,
  }));
}

/** Whatever a procedure or an adapter raised, as the contract error it stands for. */
export function appErrorFromTrpc(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (!(error instanceof TRPCError)) return toAppError(error);
  const cause = error.cause;
  if (cause instanceof AppError) return cause;
  // Only the input's validation is the client's error (tRPC raises it as BAD_REQUEST); an
  // output that breaks its own schema is ours (INTERNAL_SERVER_ERROR): a 500, and logged.
  if (error.code === "BAD_REQUEST" && (cause instanceof ZodError || (cause as { name?: string } | undefined)?.name === "ZodError")) {
    return new AppError("VALIDATION_FAILED", "request validation failed", {
      details: { fields: fieldErrorsFromZod(cause as ZodError) },
    });
  }
  switch (error.code) {
    case "NOT_FOUND":
      return new AppError("NOT_FOUND", "no such route");
    case "PARSE_ERROR":
      return new AppError("VALIDATION_FAILED", "malformed JSON body");
    case "BAD_REQUEST":
      return new AppError("VALIDATION_FAILED", "bad request");
    case "PAYLOAD_TOO_LARGE":
      return new AppError("PAYLOAD_TOO_LARGE", PAYLOAD_TOO_LARGE_MESSAGE);
    case "UNSUPPORTED_MEDIA_TYPE":
      return new AppError("UNSUPPORTED_MEDIA_TYPE", "request body must be application/json");
    case "METHOD_NOT_SUPPORTED":
      return new AppError("METHOD_NOT_ALLOWED", "method not allowed");
    case "UNAUTHORIZED":
      return new AppError("UNAUTHENTICATED", "authentication required");
    default:
      // A procedure's unexpected failure arrives wrapped as INTERNAL_SERVER_ERROR.
      return toAppError(error);
  }
}

export function toTrpcError(error: AppError): TRPCError {
  // Like AppError: an expected refusal needs no stack (INTERNAL keeps one, through its cause).
  const limit = Error.stackTraceLimit;
  if (error.error !== "INTERNAL") Error.stackTraceLimit = 0;
  try {
    return new TRPCError({ code: trpcCodeFor(error), message: error.message, cause: error });
  } finally {
    Error.stackTraceLimit = limit;
  }
}

export { ERROR_CODES };
