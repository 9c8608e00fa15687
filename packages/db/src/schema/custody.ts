import { ASSET_KINDS, VAULT_STATUSES, WALLET_STATUSES, WALLET_TYPES } from "@qc/domain";
import { sql } from "drizzle-orm";
import { check, index, integer, jsonb, pgEnum, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { tenants } from "./identity";
import { createdAt, id, updatedAt } from "./system";

const ts = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });

/**
 * CONTRACT §5: the two QUANTUM networks. The codes are @qc/chain's (NETWORK_CODES, beside the
 * chains they name), spelled here because @qc/db does not depend on the chain package;
 * packages/core/src/assets/native-assets.test.ts holds the two lists equal.
 */
export const networkCode = pgEnum("network_code", ["QUANTUM_MAINNET", "QUANTUM_SANDBOX"]);
export const vaultStatus = pgEnum("vault_status", VAULT_STATUSES);
export const walletStatus = pgEnum("wallet_status", WALLET_STATUSES);
export const walletType = pgEnum("wallet_type", WALLET_TYPES);
export const assetKind = pgEnum("asset_kind", ASSET_KINDS);

/** Canonical address form (CONTRACT §1): lower-case 0x + 40 hex, never padded or cut. */
const CANONICAL_ADDRESS = sql.raw(`'^0x[0-9a-f]{40}$'`);

export const vaults = pgTable(
  "vaults",
  {
    id: id(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id),
    networkCode: networkCode("network_code").notNull(),
    name: text("name").notNull(),
    status: vaultStatus("status").notNull().default("ACTIVE"),
    metadata: jsonb("metadata")
      .$type<Record<string, string>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    archivedAt: ts("archived_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("vaults_tenant_idx").on(t.tenantId, t.id)],
);

/**
 * Assets per network: the native asset of each network is global (tenant_id null, seeded by
 * sql/020_seed_native_assets.sql with the UUIDv5 of `<networkCode>:native`); tokens belong to
 * the tenant that added them.
 */
export const assets = pgTable(
  "assets",
  {
    id: id(),
    tenantId: uuid("tenant_id").references(() => tenants.id),
    networkCode: networkCode("network_code").notNull(),
    kind: assetKind("kind").notNull(),
    symbol: text("symbol").notNull(),
    name: text("name").notNull(),
    decimals: integer("decimals").notNull(),
    contractAddress: text("contract_address"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("assets_tenant_network_contract_unique").on(t.tenantId, t.networkCode, t.contractAddress),
    uniqueIndex("assets_native_network_unique")
      .on(t.networkCode)
      .where(sql`${t.kind} = 'NATIVE'`),
    check(
      "assets_kind_shape",
      sql`(${t.kind} = 'NATIVE' and ${t.tenantId} is null and ${t.contractAddress} is null) or (${t.kind} = 'TOKEN' and ${t.tenantId} is not null and ${t.contractAddress} ~ ${CANONICAL_ADDRESS})`,
    ),
    check("assets_decimals_range", sql`${t.decimals} between 0 and 255`),
  ],
);

/**
 * A wallet is one address of one tenant (unique), with a home vault (`vault_id`, whose network
 * is the wallet's home network) and its placements in `wallet_network_links`.
 */
export const wallets = pgTable(
  "wallets",
  {
    id: id(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id),
    vaultId: uuid("vault_id")
      .notNull()
      .references(() => vaults.id),
    type: walletType("type").notNull(),
    status: walletStatus("status").notNull().default("ACTIVE"),
    address: text("address").notNull(),
    /** ML-DSA-87 public key, lower-case 0x hex; null for WATCH_ONLY. */
    publicKey: text("public_key"),
    /**
     * CONTRACT §5's ownership proof of `publicKey` for this tenant and address (lower-case 0x hex),
     * as given at registration or at the key's enrolment: shown in a transfer's evidence (CONTRACT
     * §19). Null for WATCH_ONLY and for wallets whose key was proven before this column existed.
     */
    ownershipProof: text("ownership_proof"),
    label: text("label"),
    assetIds: uuid("asset_ids")
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    archivedAt: ts("archived_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("wallets_tenant_address_unique").on(t.tenantId, t.address),
    index("wallets_tenant_idx").on(t.tenantId, t.id),
    check("wallets_address_canonical", sql`${t.address} ~ ${CANONICAL_ADDRESS}`),
    check("wallets_public_key_by_type", sql`(${t.type} = 'WATCH_ONLY') = (${t.publicKey} is null)`),
  ],
);

/** Placements: at most one vault per network for a wallet; the home vault is one of them. */
export const walletNetworkLinks = pgTable(
  "wallet_network_links",
  {
    id: id(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id),
    walletId: uuid("wallet_id")
      .notNull()
      .references(() => wallets.id),
    networkCode: networkCode("network_code").notNull(),
    vaultId: uuid("vault_id")
      .notNull()
      .references(() => vaults.id),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("wallet_network_links_wallet_network_unique").on(t.walletId, t.networkCode),
    index("wallet_network_links_vault_wallet_idx").on(t.vaultId, t.walletId),
  ],
);

/**
 * Public keys the tenant's signer enrolled ahead of time for `wallets/generate`. The address
 * (derived from the key) is unique per tenant, which makes the 2592-byte key unique too without
 * indexing it. `generate` takes the oldest unassigned row with FOR UPDATE SKIP LOCKED.
 */
export const signerKeys = pgTable(
  "signer_keys",
  {
    id: id(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id),
    address: text("address").notNull(),
    publicKey: text("public_key").notNull(),
    /** The ownership proof given at enrolment (CONTRACT §5), handed to the wallet generated from this key; null for keys enrolled before it was kept. */
    ownershipProof: text("ownership_proof"),
    walletId: uuid("wallet_id").references(() => wallets.id),
    assignedAt: ts("assigned_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("signer_keys_tenant_address_unique").on(t.tenantId, t.address),
    uniqueIndex("signer_keys_wallet_unique").on(t.walletId),
    index("signer_keys_available_idx")
      .on(t.tenantId, t.id)
      .where(sql`${t.walletId} is null`),
    check("signer_keys_address_canonical", sql`${t.address} ~ ${CANONICAL_ADDRESS}`),
  ],
);
