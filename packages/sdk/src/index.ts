export { createClient, apiKeyAuthorization, type ClientOptions, type QuantumCustodyClient } from "./client.js";
export {
  QuantumCustodyError,
  UNEXPECTED_RESPONSE,
  type ApiErrorBody,
  type ApiErrorName,
  type QuantumCustodyErrorFields,
} from "./errors.js";
export { DEFAULT_RETRY, type RetryOptions } from "./retry.js";
export type { Method, Operation, PageItem, PaginateOptions, PaginatedPath, PathsFor, RequestOptions, SuccessBody } from "./routes.js";
export {
  verifyWebhook,
  WebhookVerificationError,
  WEBHOOK_PUBLIC_KEY_PREFIX,
  WEBHOOK_TOLERANCE_SECONDS,
  type VerifyWebhookOptions,
  type WebhookEvent,
  type WebhookHeaders,
} from "./webhooks.js";
export type { components, operations, paths } from "./openapi.js";
export {
  AUDIT_GENESIS_HASH,
  AUDIT_SIGNATURE_CONTEXT,
  auditCheckpointDigest,
  auditEventHash,
  auditLogLines,
  verifyAuditLog,
  type AuditCheckpointLine,
  type AuditEventLine,
  type AuditLogRefused,
  type AuditLogVerification,
  type AuditLogVerified,
  type VerifyAuditLogOptions,
} from "./audit.js";
