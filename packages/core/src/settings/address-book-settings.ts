import { findAddressBookSettings, lockApproverGroupSizes, upsertAddressBookSettings } from "@qc/db/queries";
import { z } from "zod";
import { auditAction, type Actor } from "../audit/actor";
import type { ServiceDeps } from "../deps/service-deps";
import { AppError } from "../errors";
import { timestampSchema } from "../records/record-schemas";

/** `GET|PUT /v1/settings/address-book` (CONTRACT §16): whether an addition needs an approver group's quorum. */
export const addressBookSettingsSchema = z.object({
  additionsRequireApproval: z
    .object({ groupId: z.uuid(), quorum: z.number().int().min(1) })
    .nullable()
    .meta({
      description:
        "an approver group and how many of its members must approve each new entry before its activation delay starts; " +
        "null: additions need no approval",
    }),
  updatedAt: timestampSchema.nullable().meta({ description: "when the setting was last replaced; null: never set" }),
});
export type AddressBookSettings = z.infer<typeof addressBookSettingsSchema>;

const toSettings = (row: Awaited<ReturnType<typeof findAddressBookSettings>>): AddressBookSettings => ({
  additionsRequireApproval:
    row?.approvalGroupId && row.approvalQuorum ? { groupId: row.approvalGroupId, quorum: row.approvalQuorum } : null,
  updatedAt: row ? row.updatedAt.toISOString() : null,
});

/** `GET /v1/settings/address-book`. */
export async function getAddressBookSettings(deps: Pick<ServiceDeps, "db">, input: { tenantId: string }): Promise<AddressBookSettings> {
  return toSettings(await findAddressBookSettings(deps.db, input));
}

/**
 * `PUT /v1/settings/address-book`: replaces the setting. A group that is not one of the tenant's is
 * 400 VALIDATION_FAILED at `additionsRequireApproval.groupId`, a quorum above its size now at
 * `additionsRequireApproval.quorum` — as `PUT /v1/policies` refuses rules. The group is locked FOR
 * SHARE until the setting commits (a change of the group locks it FOR UPDATE and then reads the
 * setting), so it is never deleted or shrunk below the quorum in between; afterwards the setting
 * holds it (docs/approvals.md). Entries already waiting keep the requirement they were added with.
 * Audited `settings.address_book_replaced` with `before` and `after`.
 */
export async function replaceAddressBookSettings(
  deps: Pick<ServiceDeps, "db" | "now">,
  input: { tenantId: string; actor: Actor; additionsRequireApproval: { groupId: string; quorum: number } | null },
): Promise<AddressBookSettings> {
  const wanted = input.additionsRequireApproval;
  return deps.db.transaction(async (tx) => {
    if (wanted) {
      const size = (await lockApproverGroupSizes(tx, { tenantId: input.tenantId, groupIds: [wanted.groupId] })).get(wanted.groupId);
      const field =
        size === undefined
          ? { path: "additionsRequireApproval.groupId", message: `approver group ${wanted.groupId} is not one of the tenant's groups` }
          : wanted.quorum > size
            ? {
                path: "additionsRequireApproval.quorum",
                message: `quorum ${wanted.quorum} is above the ${size} member(s) approver group ${wanted.groupId} has now`,
              }
            : undefined;
      if (field)
        throw new AppError("VALIDATION_FAILED", `invalid setting: ${field.path}: ${field.message}`, { details: { fields: [field] } });
    }
    const before = toSettings(await findAddressBookSettings(tx, { tenantId: input.tenantId, lock: "update" }));
    const row = await upsertAddressBookSettings(tx, {
      tenantId: input.tenantId,
      approvalGroupId: wanted?.groupId ?? null,
      approvalQuorum: wanted?.quorum ?? null,
      updatedAt: deps.now(),
    });
    const after = toSettings(row);
    await auditAction(tx, input.actor, {
      tenantId: input.tenantId,
      action: "settings.address_book_replaced",
      details: { before: before.additionsRequireApproval, after: after.additionsRequireApproval },
    });
    return after;
  });
}
