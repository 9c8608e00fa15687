/**
 * Root of every error thrown by `@qc/chain`. Modelled on viem's `BaseError`: a one-line
 * `shortMessage` for logs and API errors, the underlying `cause` kept intact, `details`
 * lifted from the deepest cause, and `walk()` to find a specific error in the chain.
 */
export type BaseErrorParameters = {
  cause?: unknown;
  details?: string | undefined;
  metaMessages?: string[] | undefined;
  name?: string | undefined;
};

export type BaseErrorType = BaseError & { name: "QuantumChainError" };

export class BaseError extends Error {
  details: string;
  metaMessages: string[] | undefined;
  shortMessage: string;
  version = "@qc/chain";
  override name = "QuantumChainError";

  constructor(shortMessage: string, args: BaseErrorParameters = {}) {
    const details = args.details ?? detailsOf(args.cause);
    const message = [
      shortMessage || "An error occurred.",
      ...(args.metaMessages?.length ? ["", ...args.metaMessages] : []),
      ...(details && details !== shortMessage ? ["", `Details: ${details}`] : []),
      "",
      "Version: @qc/chain",
    ].join("\n");
    super(message, args.cause === undefined ? undefined : { cause: args.cause });
    this.details = details;
    this.metaMessages = args.metaMessages;
    this.shortMessage = shortMessage;
    if (args.name) this.name = args.name;
  }

  /** The deepest cause, or the first error in the chain (this one included) matching `fn`. */
  walk(): unknown;
  walk(fn: (error: unknown) => boolean): unknown;
  walk(fn?: (error: unknown) => boolean): unknown {
    return walkCauses(this, fn);
  }
}

function detailsOf(cause: unknown): string {
  if (cause === undefined || cause === null) return "";
  if (typeof cause === "object") {
    const c = cause as { details?: unknown; shortMessage?: unknown; message?: unknown };
    if (typeof c.details === "string" && c.details) return c.details;
    if (typeof c.shortMessage === "string" && c.shortMessage) return c.shortMessage;
    if (typeof c.message === "string") return c.message;
  }
  return String(cause);
}

/** Walks `error.cause` links (any error type, not only ours); bounded against cycles. */
export function walkCauses(error: unknown, fn?: (error: unknown) => boolean): unknown {
  let current: unknown = error;
  for (let depth = 0; depth < 32; depth++) {
    if (fn?.(current)) return current;
    const next = current && typeof current === "object" ? (current as { cause?: unknown }).cause : undefined;
    if (next === undefined || next === null || next === current) return fn ? null : current;
    current = next;
  }
  return fn ? null : current;
}
