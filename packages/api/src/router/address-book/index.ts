import { addressBookApprovalHash, APPROVAL_CONTEXT } from "@qc/chain";
import {
  addressBookEntryRecordSchema,
  createAddressBookEntry,
  decideAddressBookEntry,
  getAddressBookEntry,
  listAddressBookEntries,
  removeAddressBookEntry,
} from "@qc/core";
import { ADDRESS_BOOK_ENTRY_STATUSES } from "@qc/domain";
import { z } from "zod";
import { EXAMPLE, EXAMPLE_LAST_PAGE } from "../../openapi-examples";
import { networkCode, pageInfo, pageQuery, text, uuid } from "../../schemas/common";
import { authedProcedure, createRouter } from "../../trpc";
import { approvalDecisionFields, refineApprovalDecision, toApprovalDecision } from "../approvals/decide-approval";
import { EXAMPLE_APPROVAL_DECISION } from "../approvals/examples";

const tags = ["address-book"];
const entryIdParam = z.uuid().meta({ description: "the address-book entry's id" });

export const EXAMPLE_ADDRESS_BOOK_ENTRY = {
  id: "0194f2c7-1a2b-7c3d-8e4f-5a6b7c8d9e0f",
  networkCode: "QUANTUM_SANDBOX",
  address: "0x2b5ad5c4795c026514f8317c7a215e218dccd6cf",
  label: "Exchange deposit (Acme)",
  assetIds: null,
  status: "PENDING",
  activatesAt: "2026-11-22T10:00:00.000Z",
  createdAt: EXAMPLE.createdAt,
  createdBy: EXAMPLE.userId,
  removedAt: null,
  removedBy: null,
  removalReason: null,
  approvals: null,
} as const;

/** The example entry added while the tenant's additions need a quorum (CONTRACT §16), with one approval of two. */
export const EXAMPLE_ENTRY_AWAITING_APPROVAL = {
  ...EXAMPLE_ADDRESS_BOOK_ENTRY,
  status: "AWAITING_APPROVAL",
  activatesAt: null,
  approvals: {
    required: [{ groupId: EXAMPLE_APPROVAL_DECISION.groupIds[0], quorum: 2 }],
    decisions: [EXAMPLE_APPROVAL_DECISION],
    approvalHash: addressBookApprovalHash({
      tenantId: EXAMPLE.tenantId,
      entryId: EXAMPLE_ADDRESS_BOOK_ENTRY.id,
      networkCode: EXAMPLE_ADDRESS_BOOK_ENTRY.networkCode,
      address: EXAMPLE_ADDRESS_BOOK_ENTRY.address,
      label: EXAMPLE_ADDRESS_BOOK_ENTRY.label,
      assetIds: null,
      createdAt: EXAMPLE_ADDRESS_BOOK_ENTRY.createdAt,
    }),
    context: APPROVAL_CONTEXT,
    deadline: "2026-11-22T10:00:00.000Z",
    approvedAt: null,
  },
} as const;

const listAddressBookProcedure = authedProcedure
  .meta({
    scope: "read",
    action: "read",
    openapi: {
      method: "GET",
      path: "/v1/address-book",
      tags,
      summary: "List the address book",
      description:
        "The tenant's address-book entries, newest first; `status` keeps those AWAITING_APPROVAL, PENDING, ACTIVE or " +
        "REMOVED now. Paginate with `cursor`.",
      protect: true,
    },
    example: { input: { limit: 50 }, output: { entries: [EXAMPLE_ADDRESS_BOOK_ENTRY], page: EXAMPLE_LAST_PAGE } },
  })
  .input(pageQuery.extend({ status: z.enum(ADDRESS_BOOK_ENTRY_STATUSES).optional() }))
  .output(z.object({ entries: z.array(addressBookEntryRecordSchema), page: pageInfo }))
  .query(({ ctx, input }) => listAddressBookEntries(ctx.deps, { tenantId: ctx.auth.tenantId, ...input }));

const createAddressBookEntryProcedure = authedProcedure
  .meta({
    scope: "admin",
    action: "administer",
    successStatus: 201,
    openapi: {
      method: "POST",
      path: "/v1/address-book",
      tags,
      summary: "Add an address to the address book",
      description:
        "A PENDING entry that becomes ACTIVE at `activatesAt` (now + `ADDRESS_BOOK_ACTIVATION_SECONDS`, one day by " +
        "default): only then does it count for policy rules matching `destination`. `address` is 40 hex digits with " +
        "optional 0x, any case (mixed case must pass EIP-55), stored lower-case. `assetIds` limits the entry to those " +
        "assets of the network (400 `UNKNOWN_ASSET` for another); left out, every asset. An address already listed on " +
        "that network, awaiting approval, pending or active, is 409 `ADDRESS_ALREADY_LISTED`: remove it first. While " +
        "the tenant's setting `additionsRequireApproval` is on (`PUT /v1/settings/address-book`), the entry is " +
        "AWAITING_APPROVAL instead, `activatesAt` null, until its approver group's quorum (`POST " +
        "/v1/address-book/{entryId}/approvals`) starts the delay. Audited; sends `address_book.entry_added`, and " +
        "`address_book.entry_activated` at `activatesAt`.",
      protect: true,
    },
    errors: ["ADDRESS_ALREADY_LISTED", "UNKNOWN_ASSET"],
    example: {
      input: { networkCode: "QUANTUM_SANDBOX", address: EXAMPLE_ADDRESS_BOOK_ENTRY.address, label: EXAMPLE_ADDRESS_BOOK_ENTRY.label },
      output: EXAMPLE_ADDRESS_BOOK_ENTRY,
    },
  })
  .input(
    z.object({
      networkCode,
      address: text().max(200).meta({ description: "40 hex digits with optional 0x, any case; mixed case must pass EIP-55" }),
      label: text().trim().min(1).max(100).meta({ description: "plain text, 1–100 characters; shown as the transfers' destinationLabel" }),
      assetIds: z
        .array(uuid)
        .min(1)
        .max(100)
        .nullish()
        .meta({ description: "assets of the network the entry counts for; left out or null: every asset" }),
    }),
  )
  .output(addressBookEntryRecordSchema)
  .mutation(({ ctx, input }) =>
    createAddressBookEntry(ctx.deps, { tenantId: ctx.auth.tenantId, ...input, assetIds: input.assetIds ?? undefined, actor: ctx.actor }),
  );

const getAddressBookEntryProcedure = authedProcedure
  .meta({
    scope: "read",
    action: "read",
    openapi: {
      method: "GET",
      path: "/v1/address-book/{entryId}",
      tags,
      summary: "Get an address-book entry",
      description:
        "One entry of the tenant's address book with its status now and, when its addition needed approval, " +
        "`approvals`: the quorum required, the `approvalHash` approvers sign, the deadline and every decision taken. " +
        "Another tenant's entry is 404.",
      protect: true,
    },
    errors: ["NOT_FOUND"],
    example: { input: { entryId: EXAMPLE_ADDRESS_BOOK_ENTRY.id }, output: EXAMPLE_ADDRESS_BOOK_ENTRY },
  })
  .input(z.object({ entryId: entryIdParam }))
  .output(addressBookEntryRecordSchema)
  .query(({ ctx, input }) => getAddressBookEntry(ctx.deps, { tenantId: ctx.auth.tenantId, entryId: input.entryId }));

const removeAddressBookEntryProcedure = authedProcedure
  .meta({
    scope: "admin",
    action: "administer",
    successStatus: 204,
    openapi: {
      method: "DELETE",
      path: "/v1/address-book/{entryId}",
      tags,
      summary: "Remove an address-book entry",
      description:
        "The entry is REMOVED at once: the next policy decision no longer counts it, and a pending one is never " +
        "activated. The entry stays readable (`removedAt`, `removedBy`) and its address may be added again, with a new " +
        "delay. Removing a removed entry is 204 again. Audited; sends `address_book.entry_removed`.",
      protect: true,
    },
    errors: ["NOT_FOUND"],
    example: { input: { entryId: EXAMPLE_ADDRESS_BOOK_ENTRY.id }, output: undefined },
  })
  .input(z.object({ entryId: entryIdParam }))
  .output(z.void())
  .mutation(({ ctx, input }) =>
    removeAddressBookEntry(ctx.deps, { tenantId: ctx.auth.tenantId, entryId: input.entryId, actor: ctx.actor }),
  );

const decideAddressBookEntryProcedure = authedProcedure
  .meta({
    scope: "signer",
    action: "approve",
    openapi: {
      method: "POST",
      path: "/v1/address-book/{entryId}/approvals",
      tags,
      summary: "Approve or reject an address-book entry awaiting approval",
      description:
        '`{decision: "APPROVED", keyId, signature}` — an ML-DSA-87 signature by one of your approval keys, context ' +
        "`QUANTUM-APPROVAL-v1`, over the entry's `approvals.approvalHash` (its own domain: no transfer's hash) — or " +
        '`{decision: "REJECTED", reason}`. One decision per member (a second: 409 `CONFLICT`); the member who added the ' +
        "entry may reject but never approve (403 `SELF_APPROVAL_FORBIDDEN`); a member outside the required approver group: " +
        "403 `NOT_AN_APPROVER`; an entry not AWAITING_APPROVAL: 409 `CONFLICT`; an unknown key or a signature that does " +
        "not verify: 400 `INVALID_SIGNATURE`. The approval that completes the quorum moves the entry to PENDING with " +
        "`activatesAt` = that instant + `ADDRESS_BOOK_ACTIVATION_SECONDS`; a rejection removes it (`removalReason`). " +
        "Audited; sends `address_book.entry_approval_recorded`. Answers the entry.",
      protect: true,
    },
    errors: ["NOT_FOUND", "CONFLICT", "SELF_APPROVAL_FORBIDDEN", "NOT_AN_APPROVER", "INVALID_SIGNATURE"],
    example: {
      input: {
        entryId: EXAMPLE_ADDRESS_BOOK_ENTRY.id,
        decision: "APPROVED",
        keyId: EXAMPLE_APPROVAL_DECISION.keyId,
        signature: `0x${"ab".repeat(4627)}`,
      },
      output: EXAMPLE_ENTRY_AWAITING_APPROVAL,
    },
  })
  .input(z.object({ entryId: entryIdParam, ...approvalDecisionFields }).superRefine(refineApprovalDecision))
  .output(addressBookEntryRecordSchema)
  .mutation(({ ctx, input }) =>
    decideAddressBookEntry(ctx.deps, {
      tenantId: ctx.auth.tenantId,
      entryId: input.entryId,
      actor: ctx.actor,
      ...toApprovalDecision(input),
    }),
  );

export const addressBookRouter = createRouter({
  list: listAddressBookProcedure,
  create: createAddressBookEntryProcedure,
  get: getAddressBookEntryProcedure,
  remove: removeAddressBookEntryProcedure,
  decide: decideAddressBookEntryProcedure,
});
