import { addressBookSettingsSchema, getAddressBookSettings, replaceAddressBookSettings } from "@qc/core";
import { z } from "zod";
import { authedProcedure } from "../../trpc";

const EXAMPLE_SETTINGS = {
  additionsRequireApproval: { groupId: "0194f2c6-3b4c-7d5e-8f60-7a8b9c0d1e2f", quorum: 2 },
  updatedAt: "2026-11-21T10:05:00.000Z",
} as const;

export const getAddressBookSettingsProcedure = authedProcedure
  .meta({
    scope: "read",
    action: "read",
    openapi: {
      method: "GET",
      path: "/v1/settings/address-book",
      tags: ["settings"],
      summary: "Get the address book's settings",
      description:
        "`additionsRequireApproval`: the approver group and quorum every new address-book entry needs before its " +
        "activation delay starts, or null.",
      protect: true,
    },
    example: { output: EXAMPLE_SETTINGS },
  })
  .input(z.object({}).optional())
  .output(addressBookSettingsSchema)
  .query(({ ctx }) => getAddressBookSettings(ctx.deps, { tenantId: ctx.auth.tenantId }));

export const replaceAddressBookSettingsProcedure = authedProcedure
  .meta({
    scope: "admin",
    action: "administer",
    openapi: {
      method: "PUT",
      path: "/v1/settings/address-book",
      tags: ["settings"],
      summary: "Replace the address book's settings",
      description:
        "`additionsRequireApproval: {groupId, quorum}` makes every new entry wait AWAITING_APPROVAL for that many " +
        "approvals from the group's members; null turns it off (entries already waiting keep their requirement). A " +
        "group that is not one of the tenant's (`additionsRequireApproval.groupId`) or a quorum above its size " +
        "(`additionsRequireApproval.quorum`) is 400 `VALIDATION_FAILED`. The group is then held: deleting it or " +
        "shrinking it below the quorum is 409 `CONFLICT` naming this setting. Audited.",
      protect: true,
    },
    // Turning it off: an example that is valid for any tenant (the one turning it on names a group: GET's example).
    example: {
      input: { additionsRequireApproval: null },
      output: { additionsRequireApproval: null, updatedAt: EXAMPLE_SETTINGS.updatedAt },
    },
  })
  .input(
    z.object({
      additionsRequireApproval: z
        .object({
          groupId: z.uuid().meta({ description: "one of the tenant's approver groups" }),
          quorum: z.number().int().min(1).max(1000).meta({ description: "1 ≤ quorum ≤ the group's size now" }),
        })
        .nullable(),
    }),
  )
  .output(addressBookSettingsSchema)
  .mutation(({ ctx, input }) =>
    replaceAddressBookSettings(ctx.deps, {
      tenantId: ctx.auth.tenantId,
      actor: ctx.actor,
      additionsRequireApproval: input.additionsRequireApproval,
    }),
  );
