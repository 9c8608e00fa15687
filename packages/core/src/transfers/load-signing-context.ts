import type { Executor } from "@qc/db";
import { findTransactionForSigning } from "@qc/db/queries";
import { AppError } from "../errors";
import type { SigningContext } from "./verify-transaction-signature";

/** The tenant's transaction with its source wallet's key and its asset; 404 NOT_FOUND otherwise (also for another tenant's id). */
export async function loadSigningContext(db: Executor, input: { tenantId: string; transactionId: string }): Promise<SigningContext> {
  const context = await findTransactionForSigning(db, input);
  if (!context) throw new AppError("NOT_FOUND", "transaction not found");
  return context;
}
