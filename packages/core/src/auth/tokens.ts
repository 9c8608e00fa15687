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
  { kind: "missing" } | { kind: "malformed" } | { kind: "api_key"; keyId: string; secret: string } | { kind: "session"; token: string };

/**
 * `Authorization: Bearer <keyId>:<secret>` or `Bearer qs_…`; the session cookie as fallback.
 * Only the `__Host-` cookie counts: a plain `qc_session` may have been planted by a sibling
 * subdomain (cookie tossing) and is ignored; two session cookies are refused as malformed.
 */
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
  const session = hostCookie(cookie, SESSION_COOKIE);
  if (session.kind === "absent") return { kind: "missing" };
  if (session.kind === "one" && SESSION_TOKEN.test(session.value)) return { kind: "session", token: session.value };
  return { kind: "malformed" };
}

export type HostCookie = { kind: "absent" } | { kind: "one"; value: string } | { kind: "duplicate" };

/**
 * The value of the cookie named exactly `name` in a Cookie header. The session cookies carry the
 * `__Host-` prefix, so a browser only keeps them when this origin set them (Secure, Path=/, no
 * Domain): no other host can set or shadow one. There is then never a reason for two, and a
 * header with two is refused rather than guessed at.
 */
export function hostCookie(header: string | undefined, name: string): HostCookie {
  if (header === undefined) return { kind: "absent" };
  let found: string | undefined;
  for (const part of header.split(";")) {
    const pair = part.trim();
    if (!pair.startsWith(`${name}=`)) continue;
    if (found !== undefined) return { kind: "duplicate" };
    found = pair.slice(name.length + 1);
  }
  return found === undefined ? { kind: "absent" } : { kind: "one", value: found };
}

/**
 * The dashboard's session cookie (CONTRACT §3 fixes its attributes, not its name). `__Host-`:
 * browsers accept it only with Secure, Path=/ and no Domain, from this very host.
 */
export const SESSION_COOKIE = "__Host-qc_session";
