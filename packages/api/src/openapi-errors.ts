import { ERROR_CODES, MAX_REQUEST_BODY_BYTES, PAYLOAD_TOO_LARGE_MESSAGE, type ErrorName } from "@qc/core";

/**
 * What each error of the code table means to an integrator, and a message of the kind the
 * service sends. Keyed by the table's own names, so a code added to the table without an entry
 * here does not compile; codes and statuses are always read from the table, never copied.
 */
export const ERROR_DOCS: Record<ErrorName, { meaning: string; message: string }> = {
  INTERNAL: { meaning: "Unexpected failure; it is logged with the requestId: quote it when reporting.", message: "internal error" },
  VALIDATION_FAILED: {
    meaning:
      "The body, query or path is invalid (also malformed JSON, or JSON nested too deep); `details.fields` lists " +
      "each field with its problem.",
    message: "name: at most 200 characters",
  },
  KEY_MATERIAL_REJECTED: {
    meaning:
      "The body holds a private key, seed, mnemonic or other secret key material. Nothing was processed; the attempt " +
      "is audited without the value.",
    message: "request body contains private key material; the service never takes custody of keys",
  },
  IDEMPOTENCY_KEY_REQUIRED: { meaning: "The route needs an `X-Idempotency-Key` header.", message: "X-Idempotency-Key is required" },
  INVALID_TOKEN: {
    meaning: "The emailed token is unknown, already used or expired.",
    message: "the verification link is unknown, already used or expired; ask for a new one",
  },
  UNAUTHENTICATED: {
    meaning: "Credentials are missing, malformed or wrong (each wrong attempt counts towards the lockout).",
    message: "invalid credentials",
  },
  CREDENTIAL_EXPIRED: { meaning: "The API key passed its expiry.", message: "credential expired" },
  CREDENTIAL_ROTATED: {
    meaning: "The API key was rotated and its grace period is over: use the new key.",
    message: "credential rotated and grace period expired",
  },
  CREDENTIAL_REVOKED: { meaning: "The API key was revoked in the dashboard.", message: "credential revoked" },
  INSUFFICIENT_SCOPE: {
    meaning: "The API key lacks the scope the route needs (`x-scope`), or the route needs a dashboard session.",
    message: "this route needs the write scope",
  },
  IP_NOT_ALLOWED: {
    meaning: "The source address is outside the tenant's IP allowlist.",
    message: "requests from this address are not allowed for this tenant",
  },
  TENANT_NOT_VERIFIED: {
    meaning: "A value-moving route called before identity verification (KYC/KYB) approved the tenant.",
    message: "identity verification (KYC/KYB) must complete before value can move",
  },
  EMAIL_NOT_VERIFIED: {
    meaning: "Login before the email address was verified.",
    message: "verify your email address first: follow the link we emailed, or ask for a new one",
  },
  INSECURE_TRANSPORT: {
    meaning:
      "Credentials arrived over plain HTTP. The plain-HTTP port itself answers 308 to HTTPS and processes nothing; " +
      "an API key sent that way is marked exposed: rotate it.",
    message: "credentials must be sent over HTTPS",
  },
  CROSS_SITE_REQUEST: {
    meaning:
      "A state-changing request authenticated by the dashboard's session cookie did not come from the dashboard " +
      "itself (`Origin` / `Sec-Fetch-Site`). API keys are not affected.",
    message: "cookie-authenticated state changes must come from this site's own pages (Origin / Sec-Fetch-Site)",
  },
  NOT_FOUND: { meaning: "No such resource for this tenant (another tenant's resource is not found either).", message: "vault not found" },
  METHOD_NOT_ALLOWED: {
    meaning: "The path exists but not with this method; the `Allow` header lists the methods it takes.",
    message: "method not allowed; allowed: GET",
  },
  CONFLICT: { meaning: "The resource's current state does not allow the change.", message: "credential already rotated" },
  IDEMPOTENCY_KEY_IN_USE: {
    meaning: "The first request with this `X-Idempotency-Key` is still running; retry later.",
    message: "a request with this idempotency key is still running",
  },
  IDEMPOTENCY_KEY_MISMATCH: {
    meaning: "The `X-Idempotency-Key` was used before with a different body.",
    message: "the idempotency key was used with a different body",
  },
  DUPLICATE_EXTERNAL_ID: { meaning: "The `externalId` is already used by this tenant.", message: "externalId is already used" },
  EMAIL_ALREADY_REGISTERED: {
    meaning: "Signup with an email address that already has an account.",
    message: "an account with this email already exists",
  },
  PAYLOAD_TOO_LARGE: {
    meaning: `The body is over ${MAX_REQUEST_BODY_BYTES / 2 ** 20} MB (${MAX_REQUEST_BODY_BYTES.toLocaleString("en-US")} bytes); it is refused while streaming.`,
    message: PAYLOAD_TOO_LARGE_MESSAGE,
  },
  UNSUPPORTED_MEDIA_TYPE: { meaning: "A body that is not `application/json`.", message: "request body must be application/json" },
  RATE_LIMITED: {
    meaning: "Too many requests (per tenant, or per source address on signup); wait `Retry-After` seconds.",
    message: "rate limit exceeded for this tenant",
  },
  LOCKED_OUT: {
    meaning:
      "Too many failed credential checks from this source address; it is locked out for `Retry-After` seconds, even " +
      "with good credentials.",
    message: "too many failed authentication attempts from this address",
  },
  UNAVAILABLE: {
    meaning: "A dependency (database, chain RPC, identity provider) is unreachable; retry later.",
    message: "the QUANTUM_SANDBOX network cannot be reached",
  },
  VAULT_ARCHIVED: { meaning: "A write into an archived vault.", message: "the vault is archived and takes no new wallets" },
  WALLET_ARCHIVED: { meaning: "An archived wallet used as a source or placed in a vault.", message: "the wallet is archived" },
  ADDRESS_ALREADY_REGISTERED: {
    meaning: "The address already is a wallet of this tenant.",
    message: "0x4f6a0b9f8e0d35d7c1f0a3f5e4b1c2d3e4f5a6b7 is already a wallet of this tenant",
  },
  NO_SIGNER_KEY_AVAILABLE: {
    meaning: "`wallets/generate` with no enrolled signer key left: enroll more with `POST /v1/signer/keys`.",
    message: "no enrolled signer key is left: enroll more with POST /v1/signer/keys",
  },
  INVALID_OWNERSHIP_PROOF: {
    meaning:
      "The address is not 40 hex digits, does not match the public key, or the ownership proof does not verify; " +
      "`details.reason` says which.",
    message: "signature is not an ownership proof of this address for this tenant",
  },
  NETWORK_MISMATCH: {
    meaning: "The vault, wallet, asset and `networkCode` are not on the same network.",
    message: "the wallet is not placed on QUANTUM_MAINNET",
  },
  UNKNOWN_ASSET: {
    meaning: "The asset is not on that network, not enabled, or (when adding a token) no ERC-20 contract answers at the " + "address.",
    message: "unknown asset",
  },
  WATCH_ONLY_SOURCE: { meaning: "A `WATCH_ONLY` wallet used as a transaction source.", message: "a watch-only wallet cannot send" },
  INVALID_SIGNATURE: {
    meaning: "The signer's signature does not verify; the transaction's status is unchanged.",
    message: "the signature does not verify",
  },
  INVALID_TRANSACTION_STATE: {
    meaning: "The transaction's status does not allow this (e.g. cancel after signing).",
    message: "the transaction can no longer be cancelled",
  },
  INVALID_ADDRESS: { meaning: "The destination is not a valid address.", message: "destinationAddress is not a valid address" },
  INSUFFICIENT_ROLE: {
    meaning:
      "The member's role does not allow the route's action (`x-action`); an API key acts with the current role " +
      "of the member who created it.",
    message: "a VIEWER may not transact",
  },
  LAST_OWNER: { meaning: "The change would leave the tenant without an `OWNER`.", message: "the tenant's last OWNER cannot be demoted" },
  PASSKEY_REQUIRED: {
    meaning: "`requirePasskey` set by a member who has no passkey registered.",
    message: "register a passkey before requiring one",
  },
  SELF_APPROVAL_FORBIDDEN: {
    meaning: "The initiator of a transfer (the member who created it, or whose API key did) may reject it but never approve it.",
    message: "the initiator of a transfer may not approve it",
  },
  NOT_AN_APPROVER: {
    meaning: "The caller is in none of the approver groups the transfer still needs.",
    message: "you are not in an approver group this transfer needs",
  },
  ADDRESS_ALREADY_LISTED: {
    meaning: "The address already has an address-book entry on that network (pending or active); remove it first to list it again.",
    message: "this address is already in the address book for that network",
  },
};

/**
 * Every error of the code table, in the table's order, one line each: HTTP status, name, code,
 * meaning. A list rather than a markdown table: references render the description in a narrow
 * column, where a four-column table breaks every name apart.
 */
export function errorCodesMarkdown(): string {
  return (Object.keys(ERROR_CODES) as ErrorName[])
    .map((name) => `- **${ERROR_CODES[name].status}** \`${name}\` (${ERROR_CODES[name].code}): ${ERROR_DOCS[name].meaning}`)
    .join("\n");
}

/** An example error body, as the service sends it. */
export function exampleErrorBody(name: ErrorName) {
  return {
    error: name,
    code: ERROR_CODES[name].code,
    message: ERROR_DOCS[name].message,
    requestId: "0b9f1c5e-2d4a-4e7b-8c3f-5a6d7e8f9a0b",
  };
}
