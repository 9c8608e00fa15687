import { sql } from "drizzle-orm";
import { bigint, check, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { networkCode } from "./custody";

const ts = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });

/**
 * CONTRACT §21's chain follower, one row per network: who holds the lease (at most one daemon
 * instance follows a network; another takes over once `leaseExpiresAt` passes) and the cursor —
 * the last block whose deposits are recorded. A block's deposits and the cursor's advance commit
 * together, conditional on the holder and the previous cursor, so a block is recorded once.
 */
export const chainFollowers = pgTable("chain_followers", {
  networkCode: networkCode("network_code").primaryKey(),
  holder: text("holder"),
  leaseExpiresAt: ts("lease_expires_at"),
  /** The last block processed (null: not started; the follower starts at the head, no history scan). */
  blockNumber: bigint("block_number", { mode: "number" }),
  blockHash: text("block_hash"),
  updatedAt: ts("updated_at").notNull().defaultNow(),
});

/**
 * The follower's recent blocks (number, hash, parent hash), kept for a bounded depth: a new block
 * whose parent is not the stored hash at its height - 1 is a reorg, found by walking these back to
 * the common ancestor (CONTRACT §21, docs/deposits.md).
 */
export const chainFollowerBlocks = pgTable(
  "chain_follower_blocks",
  {
    networkCode: networkCode("network_code").notNull(),
    blockNumber: bigint("block_number", { mode: "number" }).notNull(),
    blockHash: text("block_hash").notNull(),
    parentHash: text("parent_hash").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.networkCode, t.blockNumber] }),
    check("chain_follower_blocks_hash_shape", sql`${t.blockHash} ~ '^0x[0-9a-f]{64}$' and ${t.parentHash} ~ '^0x[0-9a-f]{64}$'`),
  ],
);
