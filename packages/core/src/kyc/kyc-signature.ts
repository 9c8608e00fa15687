import { createHmac, timingSafeEqual } from "node:crypto";

export const KYC_SIGNATURE_HEADER = "x-kyc-signature";

/** `sha256=<hex HMAC-SHA256(secret, raw body)>`, as the provider sends it (CONTRACT §3). */
export function signKycCallback(secret: string, rawBody: Buffer | string): string {
  return `sha256=${createHmac("sha256", secret).update(rawBody).digest("hex")}`;
}

/**
 * Checks the callback signature over the exact bytes received, in constant time. Anything
 * missing or malformed is simply false.
 */
export function verifyKycSignature(secret: string, rawBody: Buffer | undefined, header: string | undefined): boolean {
  if (!rawBody || !header) return false;
  const match = /^sha256=([0-9a-f]{64})$/i.exec(header.trim());
  if (!match) return false;
  const expected = createHmac("sha256", secret).update(rawBody).digest();
  const presented = Buffer.from(match[1]!, "hex");
  return presented.length === expected.length && timingSafeEqual(presented, expected);
}
