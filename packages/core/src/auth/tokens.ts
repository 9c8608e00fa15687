import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";

export const API_KEY_ID = /^qc_[0-9a-f]{32}$/;
export const API_KEY_SECRET = /^[0-9a-f]{64}$/;
export const SESSION_TOKEN = /^qs_[0-9a-f]{64}$/;

export function generateApiKeyId(): string {
  return `qc_${randomBytes(16).toString("hex")}`;
}

export function generateApiKeySecret(): string {
  return randomBytes(32).toString("hex");
}

/** Keyed hash of an API secret: a database leak alone does not allow offline guessing. */
export function hashApiSecret(pepper: Buffer, secret: string): string {
  return createHmac("sha256", pepper).update(secret, "utf8").digest("hex");
}

export function generateSessionToken(): string {
  return `qs_${randomBytes(32).toString("hex")}`;
}

/** 32 random bytes, base64url: the emailed tokens. */
export function generateEmailToken(): string {
  return randomBytes(32).toString("base64url");
}

/** Tokens with 256 bits of entropy need no pepper or slow hash: SHA-256 is enough to store them. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** Constant-time comparison of two equal-length hex digests (false when lengths differ). */
export function digestsEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, "hex");
  const right = Buffer.from(b, "hex");
  return left.length === right.length && left.length > 0 && timingSafeEqual(left, right);
}

export type ParsedCredentials =
  | { kind: "missing" }
  | { kind: "malformed" }
  | { kind: "api_key"; keyId: string; secret: string }
  | { kind: "session"; token: string };

/** `Authorization: Bearer <keyId>:<secret>` or `Bearer qs_…`; the session cookie as fallback. */
export function parseCredentials(authorization: string | undefined, cookie: string | undefined): ParsedCredentials {
  if (authorization !== undefined) {
    const match = /^Bearer (\S+)$/i.exec(authorization.trim());
    if (!match) return { kind: "malformed" };
    const token = match[1]!;
    if (SESSION_TOKEN.test(token)) return { kind: "session", token };
    const [keyId, secret, extra] = token.split(":");
    if (extra !== undefined || !keyId || !secret || !API_KEY_ID.test(keyId) || !API_KEY_SECRET.test(secret)) return { kind: "malformed" };
    return { kind: "api_key", keyId, secret };
  }
  const session = cookie
    ?.split(";")
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${SESSION_COOKIE}=`))
    ?.slice(SESSION_COOKIE.length + 1);
  if (session !== undefined) return SESSION_TOKEN.test(session) ? { kind: "session", token: session } : { kind: "malformed" };
  return { kind: "missing" };
}

export const SESSION_COOKIE = "qc_session";
