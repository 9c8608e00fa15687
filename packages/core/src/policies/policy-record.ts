import type { PolicyRow } from "@qc/db/queries";
import { policyDocumentSchema, type PolicyDocument, type PolicyRecord } from "./policy-document";

/** What applies while a tenant has never set a policy: every transfer is allowed (docs/decisions/transfers.md). */
export const NO_POLICY: PolicyDocument = { defaultAction: "ALLOW", rules: [] };

/** A stored version's document, parsed again: a row that no longer parses fails closed (everything blocked). */
export function storedPolicyDocument(row: PolicyRow | undefined): PolicyDocument {
  if (!row) return NO_POLICY;
  const parsed = policyDocumentSchema.safeParse(row.document);
  return parsed.success ? parsed.data : { defaultAction: "BLOCK", rules: [] };
}

export function toPolicyRecord(row: PolicyRow | undefined): PolicyRecord {
  const document = storedPolicyDocument(row);
  return {
    version: row?.version ?? 0,
    defaultAction: document.defaultAction,
    rules: document.rules,
    updatedAt: row ? row.createdAt.toISOString() : null,
    updatedBy: row?.createdBy ?? null,
  };
}
