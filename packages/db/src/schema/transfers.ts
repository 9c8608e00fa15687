import {
  type InitiatorType,
  TRANSACTION_STATUSES,
  TRANSACTION_DIRECTIONS,
  TRANSACTION_SUB_STATUSES,
  TRANSACTION_TYPES,
  type ApprovalDecision,
  type PolicyAction,
  type ScreeningDecision,
} from "@qc/domain";
import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  index,
  integer,
  json,
  jsonb,
  numeric,
  pgEnum,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  varchar,
} from "drizzle-orm/pg-core";
import { assets, networkCode, wallets } from "./custody";
import { tenants } from "./identity";
import { createdAt, id, updatedAt } from "./system";

const ts = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });
/** uint256 in PostgreSQL: exact, summable in SQL (velocity windows), read back as a string. */
const uint256 = (name: string) => numeric(name, { precision: 78, scale: 0 });

/** CONTRACT §6: the words are @qc/domain's; the enums only store them. */
export const transactionStatus = pgEnum("transaction_status", TRANSACTION_STATUSES);
export const transactionSubStatus = pgEnum("transaction_sub_status", TRANSACTION_SUB_STATUSES);
export const transactionType = pgEnum("transaction_type", TRANSACTION_TYPES);
export const transactionDirection = pgEnum("transaction_direction", TRANSACTION_DIRECTIONS);

/** The `approvals` column (CONTRACT §15's record field). */
export interface TransactionApprovalsColumn {
  required: { groupId: string; quorum: number }[];
  decisions: {
    userId: string;
    decision: ApprovalDecision;
    groupIds: string[];
    keyId: string | null;
    reason: string | null;
    decidedAt: string;
  }[];
}

/**
 * The `simulation` column (CONTRACT §20's record field): what `eth_simulateV1` said the transfer
 * would do. `delta` is a signed decimal integer string, the fee included in the source's native
 * change; UNSUPPORTED when the node lacks the method (simulation never blocks the pipeline).
 */
export interface TransactionSimulationColumn {
  status: "SUCCESS" | "REVERT" | "UNSUPPORTED";
  revertReason: string | null;
  gasUsed: string | null;
  balanceChanges: { address: string; assetId: string; delta: string }[];
  blockNumber: string | null;
  simulatedAt: string;
  /** UNSUPPORTED only: why no simulation was made (the node lacks the method, or did not answer). */
  reason?: string | null;
}

/**
 * One transaction. OUTBOUND (a TRANSFER or CONTRACT_DEPLOY the service sends): the intent as
 * created (network, source, destination, asset, amount), what the checks decided, the unsigned
 * transaction released for signing (nonce, fee caps, gas), the signature, the raw signed
 * transaction (stored before it is sent) and what the chain said. INBOUND (a DEPOSIT, CONTRACT
 * §21): written by the chain follower when a block moves value to a tenant's wallet — no source
 * wallet, the destination wallet, the sender screened, the block and its confirmations. Every
 * status change is a conditional UPDATE (see @qc/core transitionTransaction).
 */
export const transactions = pgTable(
  "transactions",
  {
    id: id(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id),
    externalId: text("external_id"),
    type: transactionType("type").notNull().default("TRANSFER"),
    /** INBOUND exactly for a DEPOSIT (the check below). */
    direction: transactionDirection("direction").notNull().default("OUTBOUND"),
    networkCode: networkCode("network_code").notNull(),
    chainId: integer("chain_id").notNull(),
    /** The sending wallet of an OUTBOUND transaction; null for a deposit (its sender is `sourceAddress`). */
    sourceWalletId: uuid("source_wallet_id").references(() => wallets.id),
    sourceAddress: text("source_address").notNull(),
    /** The receiving wallet of a deposit; null for an OUTBOUND transaction. */
    destinationWalletId: uuid("destination_wallet_id").references(() => wallets.id),
    /**
     * A deposit's ERC-20 `Transfer` log: its index in the block (null for native value) and the
     * token contract (set for every token deposit; `assetId` is null when the tenant has no asset
     * for that contract).
     */
    logIndex: integer("log_index"),
    tokenAddress: text("token_address"),
    /** Null only for a contract deployment. */
    destinationAddress: text("destination_address"),
    assetId: uuid("asset_id").references(() => assets.id),
    amount: uint256("amount").notNull(),
    note: text("note"),
    status: transactionStatus("status").notNull().default("SUBMITTED"),
    subStatus: transactionSubStatus("sub_status"),
    statusReason: text("status_reason"),
    /** Decisions of the checks: `{decision, ruleId}` and `{provider, decision, riskScore, reasons}`. */
    policy: jsonb("policy").$type<{ decision: PolicyAction; ruleId: string | null }>(),
    screening: jsonb("screening").$type<{ provider: string; decision: ScreeningDecision; riskScore: number | null; reasons: string[] }>(),
    /**
     * When `policy` and `screening` were decided (the checks, or their re-run before release or
     * broadcast once older than RECHECK_AFTER_SECONDS). Null: never decided (or decided before
     * this column existed): taken as stale, so decided again before value moves.
     */
    checkedAt: ts("checked_at"),
    /** Consecutive failed screening attempts since the last verdict (provider down); fail closed after a bound. */
    screeningAttempts: integer("screening_attempts").notNull().default(0),
    /** Released for signing: nonce, fee caps and gas; the calldata (ERC-20 transfer, deployment). */
    nonce: integer("nonce"),
    gasLimit: uint256("gas_limit"),
    maxFeePerGas: uint256("max_fee_per_gas"),
    maxPriorityFeePerGas: uint256("max_priority_fee_per_gas"),
    data: text("data"),
    unsignedTransaction: text("unsigned_transaction"),
    signingHash: text("signing_hash"),
    /** PENDING_SIGNATURE → EXPIRED (SIGNING_TIMEOUT) at this time. */
    signingDeadline: ts("signing_deadline"),
    signature: text("signature"),
    /** The raw signed transaction and its hash, stored before the first send. */
    rawTransaction: text("raw_transaction"),
    chainTxHash: text("chain_tx_hash"),
    sendAttempts: integer("send_attempts").notNull().default(0),
    blockNumber: bigint("block_number", { mode: "number" }),
    blockHash: text("block_hash"),
    confirmations: integer("confirmations").notNull().default(0),
    requiredConfirmations: integer("required_confirmations").notNull(),
    contractAddress: text("contract_address"),
    /**
     * A CONTRACT_DEPLOY's intent: the catalog template and its constructor arguments in canonical
     * form. The creation data is always rebuilt from these and the pinned catalog, never from `data`.
     */
    templateId: text("template_id"),
    constructorArgs: jsonb("constructor_args").$type<Record<string, string | boolean>>(),
    /**
     * Who created it (CONTRACT §15 `initiatedBy`): a member's session (`USER`, the user id) or a
     * member's API key (`API_KEY`, the key id and the member who created the key). Null for rows
     * from before approvals whose creator the history does not tell.
     */
    initiatedByType: text("initiated_by_type").$type<InitiatorType>(),
    initiatedByUserId: uuid("initiated_by_user_id"),
    /** The API key's public id (`qc_…`). */
    initiatedByKeyId: varchar("initiated_by_key_id", { length: 35 }),
    /**
     * CONTRACT §15's `approvals` as the record shows it: the groups required when its checks
     * decided REQUIRE_APPROVAL and every decision taken (without signatures: those are in
     * `transaction_approvals`, written in the same database transaction).
     */
    approvals: jsonb("approvals").$type<TransactionApprovalsColumn>(),
    /** AWAITING_APPROVAL → EXPIRED (APPROVAL_TIMEOUT) at this time. */
    approvalDeadline: ts("approval_deadline"),
    /**
     * CONTRACT §16's `destinationLabel`: the label of the ACTIVE address-book entry the policy
     * found for the destination when it was last decided (written with `policy`); null otherwise.
     */
    destinationLabel: text("destination_label"),
    /**
     * CONTRACT §17: a REPLACEMENT or CANCELLATION names the transaction whose nonce it takes; a
     * transaction that ended because another of its nonce was mined names that one.
     */
    replacesTransactionId: uuid("replaces_transaction_id").references((): AnyPgColumn => transactions.id),
    replacedByTransactionId: uuid("replaced_by_transaction_id").references((): AnyPgColumn => transactions.id),
    /** CONTRACT §17: BROADCASTING for longer than STUCK_AFTER_SECONDS (set once, with one `transaction.stuck` event). */
    stuck: boolean("stuck").notNull().default(false),
    /** CONTRACT §18: the batch this transfer was created in (`POST /v1/transactions/batch`); null otherwise. */
    batchId: uuid("batch_id"),
    /**
     * CONTRACT §20: the pre-sign simulation made when the record entered PENDING_SIGNATURE or
     * AWAITING_APPROVAL (`eth_simulateV1`); `status: "UNSUPPORTED"` when the node lacks the method.
     * Null before then, and for records that never entered either state.
     */
    simulation: jsonb("simulation").$type<TransactionSimulationColumn>(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    signedAt: ts("signed_at"),
    broadcastAt: ts("broadcast_at"),
    completedAt: ts("completed_at"),
  },
  (t) => [
    uniqueIndex("transactions_tenant_external_id_unique")
      .on(t.tenantId, t.externalId)
      .where(sql`${t.externalId} is not null`),
    /** An outbound hash is one transaction; a deposit's hash may be shared (below). */
    uniqueIndex("transactions_network_chain_tx_hash_unique")
      .on(t.networkCode, t.chainTxHash)
      .where(sql`${t.chainTxHash} is not null and ${t.direction} = 'OUTBOUND'`),
    /**
     * CONTRACT §21: one deposit per (chainTxHash, logIndex, wallet), whatever happens — a block
     * read twice (a replay, a follower taken over mid-block) meets this index and adds nothing.
     */
    uniqueIndex("transactions_deposit_unique")
      .on(t.networkCode, t.chainTxHash, sql`coalesce(${t.logIndex}, -1)`, t.destinationWalletId)
      .where(sql`${t.direction} = 'INBOUND'`),
    /** `GET /v1/transactions?walletId=` matches either side: the receiving side's own index. */
    index("transactions_destination_wallet_idx")
      .on(t.tenantId, t.destinationWalletId, t.id)
      .where(sql`${t.destinationWalletId} is not null`),
    /**
     * The block watcher reads a network's outbound transfers in flight once per new block, in id
     * pages (queries/watched-transactions.ts): a small partial index instead of a table scan.
     */
    index("transactions_outbound_watched_idx")
      .on(t.networkCode, t.id)
      .where(sql`${t.direction} = 'OUTBOUND' and ${t.status} in ('BROADCASTING', 'CONFIRMING') and ${t.chainTxHash} is not null`),
    /**
     * The block watcher's sweep reads a network's transactions awaiting a signature past their
     * deadline (queries/watched-transactions.ts, `listOverdueSigning`): only those rows, by deadline.
     */
    index("transactions_pending_signature_deadline_idx")
      .on(t.networkCode, t.signingDeadline)
      .where(sql`${t.status} = 'PENDING_SIGNATURE'`),
    /** The follower moves a network's confirming deposits with each block. */
    index("transactions_inbound_confirming_idx")
      .on(t.networkCode, t.blockNumber)
      .where(sql`${t.direction} = 'INBOUND' and ${t.status} = 'CONFIRMING'`),
    index("transactions_tenant_idx").on(t.tenantId, t.id),
    index("transactions_tenant_status_idx").on(t.tenantId, t.status, t.id),
    /** `GET /v1/transactions?batchId=`: a batch's items in creation order (CONTRACT §18). */
    index("transactions_tenant_batch_idx")
      .on(t.tenantId, t.batchId, t.id)
      .where(sql`${t.batchId} is not null`),
    /**
     * A source's transactions by status, in creation order: the window's slots, and the head of its
     * queue (`status = 'QUEUED' … ORDER BY id LIMIT 1`) read as one index entry instead of the whole
     * queue sorted (docs/performance/nonce-window.md).
     */
    index("transactions_source_status_idx").on(t.sourceWalletId, t.networkCode, t.status, t.id),
    /** A source's transactions by nonce: the window, its gaps, and every transaction of one nonce (CONTRACT §17). */
    index("transactions_source_nonce_idx")
      .on(t.sourceWalletId, t.networkCode, t.nonce)
      .where(sql`${t.nonce} is not null`),
    /**
     * CONTRACT §17's "never two transactions for one (source, nonce) except replacements", kept by
     * the database too: one live or mined transaction per nonce of a source, its REPLACEMENTs and
     * CANCELLATIONs (replaces_transaction_id set) aside. The release decides the nonce under the
     * wallet's lock (docs/transfers.md); a bug that gave one nonce twice fails the release here
     * instead of having a second transaction signed for it.
     */
    uniqueIndex("transactions_source_nonce_unique")
      .on(t.sourceWalletId, t.networkCode, t.nonce)
      .where(
        sql`${t.nonce} is not null and ${t.replacesTransactionId} is null and ${t.status} in ('PENDING_SIGNATURE', 'SIGNED', 'BROADCASTING', 'CONFIRMING', 'COMPLETED')`,
      ),
    /**
     * The tenant's transfers by creation time, every asset: built for the velocity and quota sums,
     * which now read usage buckets (./usage.ts); kept for reads by creation time: the approvals
     * list, and `GET /v1/transactions?createdFrom=&createdTo=` (a window of a busy tenant's list).
     */
    index("transactions_tenant_created_idx").on(t.tenantId, t.createdAt),
    check("transactions_amount_nonnegative", sql`${t.amount} >= 0`),
    check("transactions_source_canonical", sql`${t.sourceAddress} ~ '^0x[0-9a-f]{40}$'`),
    check("transactions_destination_canonical", sql`${t.destinationAddress} is null or ${t.destinationAddress} ~ '^0x[0-9a-f]{40}$'`),
    check(
      "transactions_direction_shape",
      sql`(${t.direction} = 'INBOUND') = (${t.type}::text = 'DEPOSIT') and (${t.direction} = 'INBOUND') = (${t.sourceWalletId} is null) and (${t.direction} = 'INBOUND') = (${t.destinationWalletId} is not null) and (${t.direction} = 'OUTBOUND' or ${t.chainTxHash} is not null)`,
    ),
    check("transactions_token_address_canonical", sql`${t.tokenAddress} is null or ${t.tokenAddress} ~ '^0x[0-9a-f]{40}$'`),
    check("transactions_initiated_by_type_known", sql`${t.initiatedByType} is null or ${t.initiatedByType} in ('USER', 'API_KEY')`),
    // A REPLACEMENT of a deployment carries its original's template and arguments (CONTRACT §17).
    check(
      "transactions_deploy_shape",
      sql`(${t.type}::text <> 'CONTRACT_DEPLOY' or (${t.templateId} is not null and ${t.constructorArgs} is not null)) and (${t.type}::text in ('CONTRACT_DEPLOY', 'REPLACEMENT') or (${t.templateId} is null and ${t.constructorArgs} is null))`,
    ),
    check(
      "transactions_replaces_shape",
      sql`(${t.type}::text in ('REPLACEMENT', 'CANCELLATION')) = (${t.replacesTransactionId} is not null)`,
    ),
  ],
);

/**
 * Every status change of a transaction, in order: the timeline of `GET /v1/transactions/{id}/events`.
 * Written by the same transition that moves the row.
 */
export const transactionStatusHistory = pgTable(
  "transaction_status_history",
  {
    id: id(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id),
    transactionId: uuid("transaction_id")
      .notNull()
      .references(() => transactions.id),
    fromStatus: transactionStatus("from_status"),
    toStatus: transactionStatus("to_status").notNull(),
    subStatus: transactionSubStatus("sub_status"),
    reason: text("reason"),
    actorType: text("actor_type").notNull(),
    actorId: text("actor_id"),
    createdAt: createdAt(),
  },
  (t) => [index("transaction_status_history_tx_idx").on(t.tenantId, t.transactionId, t.id)],
);

/**
 * Idempotency keys (CONTRACT §6), one per (tenant, key), kept 24 h: the unique index is what
 * makes two instances unable to both execute a request.
 */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    id: id(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id),
    key: text("key").notNull(),
    /** SHA-256 of method, path and the canonical JSON body: "same request" means same hash. */
    requestHash: text("request_hash").notNull(),
    method: text("method").notNull(),
    path: text("path").notNull(),
    /** null while the first request runs. */
    responseStatus: integer("response_status"),
    /** `json`, not `jsonb`: kept as written, so a replay is byte-for-byte the first body (jsonb reorders keys). */
    responseBody: json("response_body"),
    createdAt: createdAt(),
    completedAt: ts("completed_at"),
    expiresAt: ts("expires_at").notNull(),
  },
  (t) => [uniqueIndex("idempotency_keys_tenant_key_unique").on(t.tenantId, t.key), index("idempotency_keys_expires_idx").on(t.expiresAt)],
);

/** Transfer policies (CONTRACT §6): every PUT makes a new version; the newest one applies. */
export const policies = pgTable(
  "policies",
  {
    id: id(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id),
    version: integer("version").notNull(),
    document: jsonb("document").$type<Record<string, unknown>>().notNull(),
    createdBy: text("created_by"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("policies_tenant_version_unique").on(t.tenantId, t.version)],
);

/**
 * The tenant's own screening denylist (`GET|PUT /v1/settings/screening-denylist`): destinations
 * the built-in `denylist` provider blocks for this tenant, beside SCREENING_DENYLIST.
 */
export const screeningDenylistEntries = pgTable(
  "screening_denylist_entries",
  {
    id: id(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id),
    /** Canonical form (lower-case 0x + 40 hex), so a lookup is one equality. */
    address: text("address").notNull(),
    label: text("label").notNull().default(""),
    position: integer("position").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("screening_denylist_tenant_address_unique").on(t.tenantId, t.address),
    check("screening_denylist_address_canonical", sql`${t.address} ~ '^0x[0-9a-f]{40}$'`),
  ],
);
