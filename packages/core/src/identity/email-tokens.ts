import type { Executor } from "@qc/db";
import { consumeEmailTokenRow, expireEmailTokenRows, insertEmailToken, type EmailTokenPurpose } from "@qc/db/queries";
import { generateEmailToken, hashToken } from "../auth/tokens";

/** What an emailed token is good for; a token of one purpose never works for another. */
export type { EmailTokenPurpose } from "@qc/db/queries";

/**
 * Issues a single-use emailed token: 32 random bytes, base64url, stored only as its SHA-256.
 * Returns the plaintext, which must go into the email and nowhere else.
 */
export async function issueEmailToken(
  tx: Executor,
  input: { userId: string; purpose: EmailTokenPurpose; now: Date; ttlMs: number },
): Promise<string> {
  const token = generateEmailToken();
  await insertEmailToken(tx, {
    userId: input.userId,
    purpose: input.purpose,
    tokenHash: hashToken(token),
    expiresAt: new Date(input.now.getTime() + input.ttlMs),
  });
  return token;
}

/**
 * Uses a token up (single use, see consumeEmailTokenRow). Unknown, used, expired and
 * other-purpose tokens all give undefined: the caller cannot tell them apart either.
 */
export function consumeEmailToken(
  tx: Executor,
  input: { token: string; purpose: EmailTokenPurpose; now: Date },
): Promise<{ userId: string } | undefined> {
  return consumeEmailTokenRow(tx, { tokenHash: hashToken(input.token), purpose: input.purpose, usedAt: input.now });
}

/** Ends the user's outstanding tokens of one purpose (a newer link, or the job got done). */
export function expireEmailTokens(tx: Executor, input: { userId: string; purpose: EmailTokenPurpose; now: Date }): Promise<void> {
  return expireEmailTokenRows(tx, input);
}
