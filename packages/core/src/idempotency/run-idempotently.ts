import { hasWritesAtCommit, isUniqueViolation, pipelinedTransaction, type Transaction } from "@qc/db";
import {
  deleteExpiredIdempotencyKey,
  IDEMPOTENCY_KEY_TAKEN,
  idempotencyKeyInsert,
  lockIdempotencyKey,
  transactionHasWritten,
  type IdempotencyKeyRow,
  type LockedIdempotencyKey,
} from "@qc/db/queries";
import type { ServiceDeps } from "../deps/service-deps";
import { AppError, ERROR_CODES, NOT_EXECUTED_ERRORS, toAppError, type ErrorDetails, type ErrorName } from "../errors";
import { assertTenantVerified, assertValueMovingAllowed } from "../kyc/assert-tenant-verified";
import { IDEMPOTENCY_KEY_RETENTION_MS, idempotencyRequestHash } from "./idempotency-key";

export interface IdempotentRequest {
  tenantId: string;
  key: string;
  method: string;
  /** The request path as the client sent it (REST: /v1/…, tRPC: /api/trpc/<procedure>). */
  path: string;
  /** The procedure's raw input (path, query and body fields): hashed in canonical form. */
  input: unknown;
}

/** What the first execution answered, kept for replays. */
export type StoredAnswer =
  | { kind: "success"; status: number; body: unknown }
  | { kind: "error"; status: number; error: ErrorName; message: string; details?: ErrorDetails };

export type IdempotentOutcome<T> =
  /** Executed now (this request holds the key); its answer is stored. */
  | { replayed: false; value: T }
  /** Executed earlier with this key and the same request: its stored answer. */
  | { replayed: true; answer: StoredAnswer };

/**
 * Errors that mean the request was refused before it executed, or failed and rolled back
 * (CONTRACT §6): nothing is stored, the key is free again and the client may retry with it.
 * Every other AppError is a business answer of a request that executed, stored and replayed.
 * Read from the error table's categories (../errors).
 */
const NOT_EXECUTED: ReadonlySet<ErrorName> = new Set(NOT_EXECUTED_ERRORS);

type Executed<T> = { replayed: false; value: T } | { replayed: true; answer: StoredAnswer } | { failed: unknown };

/**
 * What is stored, instead of the body, for a success that handed out a secret shown once (a new
 * API key secret, a webhook's `whsec_`): the table would otherwise hold the secret in clear for
 * 24 h, for anyone with a dump or a replica, and a replay would hand it out a second time
 * (security review M1). Nothing of the body is kept: which of its fields are secret is the
 * route's business, and the marker needs no such knowledge.
 */
export const SECRET_WITHHELD = { secretWithheld: true } as const;

/** The replay of an answer that held a secret: 409 CONFLICT (the request ran; its secret is gone). */
export const SECRET_SHOWN_ONCE =
  "the secret was shown once: the request with this idempotency key already ran, and its answer held a secret " +
  "that is not kept; list the resource to see what it created, and rotate its secret again if it was lost";

export interface RunIdempotentlyOptions {
  /**
   * The success answer holds a secret shown once: store `SECRET_WITHHELD` instead of its body,
   * and answer a replay with 409 CONFLICT (`SECRET_SHOWN_ONCE`) instead of the stored success.
   * Error answers hold no secret and are stored and replayed as any other.
   */
  issuesSecret?: boolean;
  /**
   * The request moves value (spec Rule 4, CONTRACT §3): refuse it with 403 TENANT_NOT_VERIFIED
   * unless the tenant is VERIFIED, from the status read in the key's lock statement, before
   * anything else is answered (the key in use, a mismatch, a replay).
   */
  requireVerifiedTenant?: boolean;
}

/**
 * Executes `execute` at most once per (tenant, key) for 24 h (CONTRACT §6).
 *
 * Everything happens in one database transaction that `execute` runs inside: it gets that
 * transaction (or a savepoint in it) as `tx`, typed so; a service called with `{ ...deps, db: tx }`
 * runs its statements there, and its `withinTransaction` opens nothing more. One statement takes
 * the key's transaction-scoped advisory lock without waiting and reads the key's stored answer and the tenant's status. With
 * `requireVerifiedTenant`, a tenant that is not VERIFIED is refused first (403
 * TENANT_NOT_VERIFIED: nothing is stored, the key stays free), as a separate check before this
 * one would have refused it. Then: lock taken elsewhere → 409 IDEMPOTENCY_KEY_IN_USE (the first
 * request is still running); a stored answer is replayed (or 422 IDEMPOTENCY_KEY_MISMATCH for
 * another request); otherwise the request executes and its answer is inserted under the unique
 * (tenant, key) index in the same commit as everything it changed. So an answer is stored if and
 * only if the change it reports committed: a crash or a rollback leaves neither, and the key free
 * for a retry; two instances can never both execute one key.
 *
 * Round trips are the cost of a create, so the common case takes as few as it can:
 * - the tenant's status, the lock and the key's read are one statement, whose snapshot may
 *   predate the lock (see `lockIdempotencyKey`): when another request's answer was committed in
 *   that instant, the insert of ours violates the unique index, everything this attempt wrote
 *   rolls back, and a second attempt (which reads the status again) replays the answer that won;
 * - `execute` runs on the key's transaction itself, without a savepoint. A business error is
 *   stored in that transaction only if the execution wrote nothing (the transaction has no
 *   transaction id yet: `transactionHasWritten`); otherwise everything rolls back and the
 *   request is attempted again with the savepoint, which undoes exactly what it wrote;
 * - BEGIN is sent with the lock statement and COMMIT with the answer's insert, each pair in one
 *   round trip (`pipelinedTransaction`); with the create's row sent together with its job
 *   (`createTransfer`), a create is four round trips, not seven.
 */
export async function runIdempotently<T>(
  deps: Pick<ServiceDeps, "db" | "now">,
  request: IdempotentRequest,
  execute: (tx: Transaction) => Promise<{ value: T; status: number; body: unknown }>,
  options: RunIdempotentlyOptions = {},
): Promise<IdempotentOutcome<T>> {
  let requestHash: string;
  try {
    requestHash = idempotencyRequestHash(request);
  } catch (error) {
    // An input that cannot be hashed fails before the lock statement reads the tenant's status:
    // the status is read on its own then, so that the refusal still comes first.
    if (options.requireVerifiedTenant) await assertTenantVerified(deps.db, request.tenantId);
    throw error;
  }
  const attempt = {
    requestHash,
    requireVerifiedTenant: options.requireVerifiedTenant === true,
    issuesSecret: options.issuesSecret === true,
  };
  try {
    return await attemptIdempotently(deps, request, execute, { ...attempt, savepoint: false });
  } catch (error) {
    if (!(error instanceof AttemptWithSavepoint) && !isUniqueViolation(error, IDEMPOTENCY_KEY_TAKEN)) throw error;
    return attemptIdempotently(deps, request, execute, { ...attempt, savepoint: true });
  }
}

/** A business error after the execution wrote something: roll back, and run it in a savepoint. */
class AttemptWithSavepoint extends Error {}

async function attemptIdempotently<T>(
  deps: Pick<ServiceDeps, "db" | "now">,
  request: IdempotentRequest,
  execute: (tx: Transaction) => Promise<{ value: T; status: number; body: unknown }>,
  options: { requestHash: string; requireVerifiedTenant: boolean; issuesSecret: boolean; savepoint: boolean },
): Promise<IdempotentOutcome<T>> {
  const ref = { tenantId: request.tenantId, key: request.key };
  const { requestHash } = options;
  // BEGIN travels with the lock statement and COMMIT with the stored answer (pipelinedTransaction).
  const outcome = await pipelinedTransaction<LockedIdempotencyKey, Executed<T>>(deps.db, {
    first: (tx) => lockIdempotencyKey(tx, ref),
    rest: async (tx, { locked, row: existing, tenantStatus }) => {
      // The tenant's status before the key's own answers: the refusal takes precedence over the
      // key in use, a mismatch and a replay, as when it was a read of its own before this tier.
      if (options.requireVerifiedTenant) assertValueMovingAllowed(tenantStatus);
      if (!locked)
        throw new AppError("IDEMPOTENCY_KEY_IN_USE", "a request with this idempotency key is still being processed; retry later");
      const now = deps.now();
      if (existing && existing.expiresAt > now) {
        if (existing.requestHash !== requestHash) {
          throw new AppError("IDEMPOTENCY_KEY_MISMATCH", "this idempotency key was used with a different request", {
            details: { method: existing.method, path: existing.path },
          });
        }
        return { value: { replayed: true, answer: storedAnswer(existing, options.issuesSecret) } };
      }
      if (existing) await deleteExpiredIdempotencyKey(tx, { ...ref, now });

      let answer: StoredAnswer;
      let result: Executed<T>;
      try {
        // With a savepoint, whatever `execute` wrote is undone if it fails, and the outer
        // transaction stays usable to store a business error's answer.
        const executed = options.savepoint ? await tx.transaction((savepoint) => execute(savepoint)) : await execute(tx);
        answer = { kind: "success", status: executed.status, body: options.issuesSecret ? SECRET_WITHHELD : executed.body };
        result = { replayed: false, value: executed.value };
      } catch (error) {
        const appError = toAppError(error);
        if (NOT_EXECUTED.has(appError.error)) throw error;
        // Writes queued for the commit (`writeAtCommit`) count as written: they would leave with the answer.
        if (!options.savepoint && (hasWritesAtCommit(tx) || (await transactionHasWritten(tx)))) throw new AttemptWithSavepoint();
        answer = {
          kind: "error",
          status: appError.status,
          error: appError.error,
          message: appError.message,
          ...(appError.details ? { details: appError.details } : {}),
        };
        result = { failed: error };
      }
      // Sent with COMMIT: a unique violation here (another request's answer won) fails the
      // transaction, whose COMMIT then rolls everything back.
      const last = idempotencyKeyInsert({
        tenantId: request.tenantId,
        key: request.key,
        requestHash,
        method: request.method.toUpperCase(),
        path: request.path,
        responseStatus: answer.status,
        responseBody:
          answer.kind === "success"
            ? answer.body
            : { error: answer.error, message: answer.message, ...(answer.details ? { details: answer.details } : {}) },
        createdAt: now,
        completedAt: deps.now(),
        expiresAt: new Date(now.getTime() + IDEMPOTENCY_KEY_RETENTION_MS),
      });
      return { value: result, last };
    },
  });
  if ("failed" in outcome) throw outcome.failed;
  return outcome;
}

function storedAnswer(row: IdempotencyKeyRow, issuesSecret: boolean): StoredAnswer {
  const status = row.responseStatus ?? 500;
  // Decided by the route, not by the stored body: a row written before the route said so (or
  // by any other path) is never replayed as a success either.
  if (status < 400 && issuesSecret)
    return { kind: "error", status: ERROR_CODES.CONFLICT.status, error: "CONFLICT", message: SECRET_SHOWN_ONCE };
  if (status < 400) return { kind: "success", status, body: row.responseBody };
  const body = row.responseBody as { error: ErrorName; message: string; details?: ErrorDetails };
  return { kind: "error", status, error: body.error, message: body.message, ...(body.details ? { details: body.details } : {}) };
}

/** The AppError a stored error answer stands for: thrown again on replay, same code, message and details. */
export function replayedError(answer: Extract<StoredAnswer, { kind: "error" }>): AppError {
  return new AppError(answer.error, answer.message, answer.details ? { details: answer.details } : {});
}
