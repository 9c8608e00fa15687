import { isUniqueViolation } from "@qc/db";
import { findCurrentPolicy, insertPolicyVersion } from "@qc/db/queries";
import { assertPolicyApprovalsMeetable } from "../approvals/groups/check-policy-approvals";
import { auditAction, type Actor } from "../audit/actor";
import type { ServiceDeps } from "../deps/service-deps";
import { AppError } from "../errors";
import { policyDocumentSchema, type PolicyDocumentInput, type PolicyRecord } from "./policy-document";
import { toPolicyRecord } from "./policy-record";

/**
 * Replaces the tenant's policy: a new version (previous + 1) holding the whole document,
 * audited with both versions. Earlier versions stay stored; the newest applies to every check
 * that starts after this commits. Two concurrent replacements: the second is 409 CONFLICT. A
 * REQUIRE_APPROVAL rule must name the tenant's approver groups with quorums they can meet now
 * (400 VALIDATION_FAILED at `rules.N.approvals.M`, CONTRACT §15).
 */
export async function replacePolicy(
  deps: Pick<ServiceDeps, "db" | "now">,
  input: { tenantId: string; document: PolicyDocumentInput; actor: Actor },
): Promise<PolicyRecord> {
  const parsed = policyDocumentSchema.safeParse(input.document);
  if (!parsed.success) {
    throw new AppError("VALIDATION_FAILED", "invalid policy", {
      details: { fields: parsed.error.issues.map((i) => ({ path: i.path.join(".") || "(body)", message: i.message })) },
    });
  }
  try {
    return await deps.db.transaction(async (tx) => {
      await assertPolicyApprovalsMeetable(tx, input.tenantId, parsed.data);
      const previous = await findCurrentPolicy(tx, { tenantId: input.tenantId });
      const row = await insertPolicyVersion(tx, {
        tenantId: input.tenantId,
        document: parsed.data,
        createdBy: input.actor.id,
        createdAt: deps.now(),
      });
      await auditAction(tx, input.actor, {
        tenantId: input.tenantId,
        action: "policy.replaced",
        target: { type: "policy", id: row.id },
        details: {
          previousVersion: previous?.version ?? 0,
          version: row.version,
          defaultAction: parsed.data.defaultAction,
          rules: parsed.data.rules.length,
        },
      });
      return toPolicyRecord(row);
    });
  } catch (error) {
    if (isUniqueViolation(error, "policies_tenant_version_unique")) {
      throw new AppError("CONFLICT", "the policy was replaced concurrently; read it again and retry");
    }
    throw error;
  }
}
