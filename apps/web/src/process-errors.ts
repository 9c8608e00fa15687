import { AppError, type Logger } from "@qc/core";

/**
 * Node error codes raised while parsing one request or writing one response: the state they
 * can leave behind belongs to that request's socket, which is destroyed anyway.
 */
const REQUEST_SCOPED_CODES = new Set([
  "ERR_INVALID_URL",
  "ERR_INVALID_CHAR",
  "ERR_INVALID_HTTP_TOKEN",
  "ERR_HTTP_INVALID_HEADER_VALUE",
  "ERR_HTTP_HEADERS_SENT",
  "ERR_HTTP_REQUEST_TIMEOUT",
  "ERR_STREAM_WRITE_AFTER_END",
  "ERR_STREAM_DESTROYED",
  "ERR_STREAM_PREMATURE_CLOSE",
  "ECONNRESET",
  "EPIPE",
]);

/** An error known to come from one request's input or output, never from shared state. */
export function isRequestScopedError(error: unknown): boolean {
  if (error instanceof AppError || error instanceof URIError) return true;
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && REQUEST_SCOPED_CODES.has(code);
}

/**
 * The last resort behind the request pipeline (docs/decisions/process-errors.md). Every request
 * path catches its own errors; this only decides what a bug that slips past them costs.
 *
 * - An unhandled rejection is logged and the process keeps serving: the code that failed ran to
 *   its throw in order (finally blocks ran, nothing was left mid-update); Node's default exit
 *   would turn any forgotten `.catch` into an outage one request can trigger.
 * - An uncaught exception (thrown synchronously out of an event callback) may have left an
 *   emitter, stream or pool half-updated, and Node documents resuming after one as unsafe: the
 *   process keeps serving only when the error is of a kind that belongs to one request (above);
 *   anything else is logged as fatal and the process exits 1 for its supervisor to restart
 *   (`./qc start` restarts it).
 */
export function installProcessErrorHandlers(log: Logger, exit: (code: number) => void = (code) => process.exit(code)): void {
  process.on("unhandledRejection", (reason) => {
    log.error({ err: reason, requestScoped: isRequestScopedError(reason) }, "unhandled promise rejection (kept serving)");
  });
  process.on("uncaughtException", (error) => {
    if (isRequestScopedError(error)) {
      log.error({ err: error }, "uncaught exception from one request (kept serving)");
      return;
    }
    log.fatal({ err: error }, "uncaught exception: exiting for the supervisor to restart");
    exit(1);
  });
}
