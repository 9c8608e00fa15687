import { KYC_STATUSES, TENANT_STATUSES } from "@qc/domain";
import { z } from "zod";
import { addressBookEntryRecordSchema } from "../address-book/address-book-entry-record";
import {
  approvalsSchema,
  timestampSchema,
  transactionRecordSchema,
  transactionStatusSchema,
  vaultRecordSchema,
  walletRecordSchema,
} from "../records/record-schemas";

export interface EventDefinition<S extends z.ZodType = z.ZodType> {
  /** What the event is about; its id orders the aggregate's events by `sequence`. */
  aggregate: "transaction" | "wallet" | "vault" | "credential" | "tenant" | "webhook" | "address_book_entry";
  /** The event's `data` (webhook body `{id, type, timestamp, data}`). */
  data: S;
  description: string;
}

const define = <S extends z.ZodType>(definition: EventDefinition<S>) => definition;

const kycCaseSchema = z.object({
  tenantId: z.uuid(),
  status: z.enum(KYC_STATUSES),
  provider: z.string(),
  reference: z.string(),
  startedAt: timestampSchema,
  decidedAt: timestampSchema.nullable(),
  reason: z.string().nullable(),
});

/**
 * Every domain event, declared once (CONTRACT §7): type → aggregate and data schema. Events are
 * written only through `emitEvent`, which validates the data against this catalog in the
 * caller's transaction; the webhook fan-out and docs/webhooks.md read the same table.
 */
export const EVENTS = {
  "transaction.created": define({
    aggregate: "transaction",
    data: z.object({ transaction: transactionRecordSchema }),
    description:
      "A transaction was accepted (status SUBMITTED); or the service created one of its own nonce records, released for signing at once (status PENDING_SIGNATURE, `type` NONCE_FILL, REPLACEMENT or CANCELLATION); or a deposit to one of your wallets was seen in a block (status CONFIRMING, `direction` INBOUND).",
  }),
  "transaction.status_changed": define({
    aggregate: "transaction",
    data: z.object({ transaction: transactionRecordSchema, previousStatus: transactionStatusSchema }),
    description: "A transaction moved from `previousStatus` to `transaction.status`; order a transaction's events by `sequence`.",
  }),
  "transaction.approval_recorded": define({
    aggregate: "transaction",
    data: z.object({ transaction: transactionRecordSchema, decision: approvalsSchema.shape.decisions.element }),
    description:
      "An approver's decision on a transaction awaiting approval was recorded (CONTRACT §15): `decision` is the entry " +
      "added to `transaction.approvals.decisions`. A rejection, or the approval that completes every group's quorum, is " +
      "followed by `transaction.status_changed`.",
  }),
  "transaction.stuck": define({
    aggregate: "transaction",
    data: z.object({ transaction: transactionRecordSchema }),
    description:
      "A transaction has been BROADCASTING for longer than STUCK_AFTER_SECONDS (CONTRACT §17) without being mined: sent " +
      "once per transaction; `transaction.stuck` is true. Speed it up or cancel it on chain.",
  }),
  "wallet.created": define({
    aggregate: "wallet",
    data: z.object({ wallet: walletRecordSchema }),
    description: "A wallet was generated, registered or added as watch-only.",
  }),
  "vault.archived": define({
    aggregate: "vault",
    data: z.object({ vault: vaultRecordSchema }),
    description: "A vault was archived; it takes no new wallets.",
  }),
  "credential.rotated": define({
    aggregate: "credential",
    data: z.object({ oldKeyId: z.string(), newKeyId: z.string(), oldKeyExpiresAt: timestampSchema }),
    description: "An API key was rotated; the old key works until `oldKeyExpiresAt`.",
  }),
  "tenant.verification_changed": define({
    aggregate: "tenant",
    data: z.object({
      tenantId: z.uuid(),
      status: z.enum(TENANT_STATUSES),
      previousStatus: z.enum(TENANT_STATUSES),
      kyc: kycCaseSchema,
    }),
    description: "Identity verification (KYC/KYB) decided; value-moving routes open when `status` is VERIFIED.",
  }),
  "address_book.entry_added": define({
    aggregate: "address_book_entry",
    data: z.object({ entry: addressBookEntryRecordSchema }),
    description:
      "An address-book entry was added (CONTRACT §16), PENDING until `entry.activatesAt`; it does not count in policies " + "before then.",
  }),
  "address_book.entry_activated": define({
    aggregate: "address_book_entry",
    data: z.object({ entry: addressBookEntryRecordSchema }),
    description:
      "An address-book entry became ACTIVE: sent once, by a job scheduled at `entry.activatesAt` (so moments after it), " +
      "unless the entry was removed first. Policies count the entry from `activatesAt` itself, not from this event.",
  }),
  "address_book.entry_approval_recorded": define({
    aggregate: "address_book_entry",
    data: z.object({ entry: addressBookEntryRecordSchema, decision: approvalsSchema.shape.decisions.element }),
    description:
      "A member of the required approver group approved or rejected an address-book entry awaiting approval " +
      "(CONTRACT §16). `entry` is as the decision left it: still AWAITING_APPROVAL, PENDING with `activatesAt` once the " +
      "quorum is met, or REMOVED by a rejection (then `address_book.entry_removed` follows).",
  }),
  "address_book.entry_removed": define({
    aggregate: "address_book_entry",
    data: z.object({ entry: addressBookEntryRecordSchema }),
    description:
      "An address-book entry was removed — deleted, rejected by an approver or past its approval deadline " +
      "(`entry.removalReason`); it stopped counting in policies at once (`entry.status` REMOVED).",
  }),
  "webhook.test": define({
    aggregate: "webhook",
    data: z.object({ webhookId: z.uuid(), message: z.string() }),
    description: "Sent on demand by `POST /v1/webhooks/{id}/test`.",
  }),
} as const;

export type EventType = keyof typeof EVENTS;
export type EventData<T extends EventType> = z.input<(typeof EVENTS)[T]["data"]>;
export const EVENT_TYPES = Object.keys(EVENTS) as EventType[];
