import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import type { AuditEventRow } from "@qc/db/queries";
import canonicalize from "canonicalize";

/** Who acted, as a chained audit row names them: the actor, the member they acted for, and from where. */
export interface AuditChainActor {
  type: string;
  id: string | null;
  userId: string | null;
  ip: string | null;
  requestId: string | null;
}

/**
 * The fields a chained audit row's hash covers (CONTRACT §19), exactly as the export's event
 * lines carry them: every value here is what a customer's verifier recomputes the hash from.
 */
export interface AuditChainFields {
  tenantId: string;
  sequence: number;
  /** RFC 3339 with milliseconds (the column's precision), UTC. */
  occurredAt: string;
  action: string;
  actor: AuditChainActor;
  target: { type: string | null; id: string | null } | null;
  details: Record<string, unknown>;
  prevHash: string;
}

/**
 * A row's hash: SHA-256 (hex) of the RFC 8785 canonical JSON of its chain fields, by the
 * `canonicalize` package (the RFC's reference implementation for JavaScript). Only the eight
 * fields are hashed, whatever else `fields` carries.
 */
export function auditRowHash(fields: AuditChainFields): string {
  const { tenantId, sequence, occurredAt, action, actor, target, details, prevHash } = fields;
  const json = canonicalize({ tenantId, sequence, occurredAt, action, actor, target, details, prevHash });
  if (json === undefined) throw new Error("an audit row has no canonical JSON");
  return bytesToHex(sha256(utf8ToBytes(json)));
}

/**
 * A stored row's chain fields, given its place in the chain. The actor carries the origin (ip,
 * request id) so that changing them breaks the chain too; `target` is null when the row names none.
 */
export function auditChainFields(row: AuditEventRow, place: { tenantId: string; sequence: number; prevHash: string }): AuditChainFields {
  return {
    tenantId: place.tenantId,
    sequence: place.sequence,
    occurredAt: row.createdAt.toISOString(),
    action: row.action,
    actor: { type: row.actorType, id: row.actorId, userId: row.actorUserId, ip: row.ip, requestId: row.requestId },
    target: row.targetType === null && row.targetId === null ? null : { type: row.targetType, id: row.targetId },
    details: row.details,
    prevHash: place.prevHash,
  };
}
