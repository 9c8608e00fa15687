import type { NetworkCode } from "@qc/chain";
import { listFollowers } from "@qc/db/queries";
import type { ServiceDeps } from "../deps/service-deps";

export interface DepositFollowerStatus {
  networkCode: NetworkCode;
  /** The instance holding the lease, and until when (null: given up, or never taken). */
  holder: string | null;
  leaseExpiresAt: Date | null;
  /** The last recorded block (null: no follower has started). */
  cursor: number | null;
  /** The node's head now (null: the network cannot be reached). */
  head: number | null;
  /** head − cursor (null when either is unknown): the `/metrics` gauge of blocks behind. */
  blocksBehind: number | null;
}

/**
 * Where each followed network's chain follower stands, for any process (the figures come from the
 * database and the node, not from the daemon that follows): cursor and lease from
 * `chain_followers`, the head from the network's RPC. One entry per network with an RPC endpoint.
 */
export async function readDepositFollowers(deps: Pick<ServiceDeps, "db" | "chain">): Promise<DepositFollowerStatus[]> {
  const rows = new Map((await listFollowers(deps.db)).map((row) => [row.networkCode, row]));
  return Promise.all(
    deps.chain.networks().map(async (networkCode) => {
      const row = rows.get(networkCode);
      const head = await deps.chain
        .client(networkCode)
        .getBlockNumber({ cacheTime: 0 })
        .then(Number)
        .catch(() => null);
      const cursor = row?.blockNumber ?? null;
      return {
        networkCode,
        holder: row?.holder ?? null,
        leaseExpiresAt: row?.leaseExpiresAt ?? null,
        cursor,
        head,
        blocksBehind: head !== null && cursor !== null ? Math.max(0, head - cursor) : null,
      };
    }),
  );
}
