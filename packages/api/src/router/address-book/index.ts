import {
  addressBookEntryRecordSchema,
  createAddressBookEntry,
  getAddressBookEntry,
  listAddressBookEntries,
  removeAddressBookEntry,
} from "@qc/core";
import { ADDRESS_BOOK_ENTRY_STATUSES } from "@qc/domain";
import { z } from "zod";
import { EXAMPLE, EXAMPLE_LAST_PAGE } from "../../openapi-examples";
import { networkCode, pageInfo, pageQuery, text, uuid } from "../../schemas/common";
import { authedProcedure, createRouter } from "../../trpc";

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
        "The tenant's address-book entries, newest first; `status` keeps those PENDING, ACTIVE or REMOVED now. Paginate " +
        "with `cursor`.",
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
        "that network, pending or active, is 409 `ADDRESS_ALREADY_LISTED`: remove it first. Audited; sends " +
        "`address_book.entry_added`, and `address_book.entry_activated` at `activatesAt`.",
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
      description: "One entry of the tenant's address book with its status now; another tenant's entry is 404.",
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

export const addressBookRouter = createRouter({
  list: listAddressBookProcedure,
  create: createAddressBookEntryProcedure,
  get: getAddressBookEntryProcedure,
  remove: removeAddressBookEntryProcedure,
});
