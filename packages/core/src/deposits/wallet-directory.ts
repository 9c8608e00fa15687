import { randomUUID } from "node:crypto";
import type { NetworkCode } from "@qc/chain";
import { createNotificationListener, type Database, type NotificationListener } from "@qc/db";
import { findFollowedLinks, listFollowedLinkPage, notifyChannel, WALLET_LINKS_CHANNEL, type FollowedLinkRow } from "@qc/db/queries";
import type { Logger } from "../logger";

export interface FollowedWallet {
  tenantId: string;
  walletId: string;
  address: string;
  placedAt: Date;
}

export interface WalletDirectory {
  /** The wallets at this canonical address on this network (several tenants may hold one address). */
  lookup(networkCode: NetworkCode, address: string): readonly FollowedWallet[];
  /** Loads every placement, then keeps up with new ones through LISTEN; rejects when the first load fails. */
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Placements held (a wallet placed on two networks counts twice). */
  size(): number;
  /**
   * Whether the directory is known to hold every committed placement but those announced a moment
   * ago: LISTEN is up, and the full load after the latest (re)connect is done. While false, a
   * placement made meanwhile may be missing (its notification was lost); a reload is under way.
   */
  readonly current: boolean;
  /**
   * Resolves once every placement committed before the call is in the directory: a marker sent on
   * the channel comes back after all earlier commits' notifications (PostgreSQL delivers them in
   * commit order), then the loads they asked for are done. Waits through a reconnect and its reload;
   * rejects after `timeoutMs` (default 10 s). For the follower, before it reads a block.
   */
  sync(timeoutMs?: number): Promise<void>;
}

export interface WalletDirectoryDeps {
  db: Database;
  databaseUrl: string;
  log: Logger;
  /** Rows per read of the full load (default 20,000). */
  pageSize?: number;
  /** Listener reconnect backoff (tests shorten it). */
  backoff?: { minMs: number; maxMs: number };
}

const SYNC_PREFIX = "sync:";
const RETRY_MS = 1_000;
const LINK_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The chain follower's O(1) match: (network, canonical address) → the wallets followed there,
 * one Map per network, for every wallet type and every placement (wallet_network_links), archived
 * wallets included — a deposit to an archived wallet is still recorded (the funds arrived; the
 * wallet only stops being a source). Placements are never removed, so the directory only grows.
 *
 * Kept current on every daemon instance: `insertNetworkLink` announces each new placement on
 * WALLET_LINKS_CHANNEL in the transaction that makes it; the directory LISTENs (its own connection,
 * reconnected with backoff by createNotificationListener), loads the announced links by id in one
 * read per burst, and loads everything again each time LISTEN is (re)established, since
 * notifications sent while it was down are lost. Loads run one at a time, in order: a full load
 * replaces the maps when done; links announced during it are loaded after it.
 */
export function createWalletDirectory(deps: WalletDirectoryDeps): WalletDirectory {
  const pageSize = deps.pageSize ?? 20_000;
  const log = deps.log;
  let byNetwork = new Map<NetworkCode, Map<string, FollowedWallet[]>>();
  let held = 0;
  let listener: NotificationListener | undefined;
  let stopped = false;
  /** A full load is owed: set on every (re)connect, cleared when one completes. */
  let reloadOwed = false;
  let reloading = false;
  const pendingLinkIds = new Set<string>();
  let draining: Promise<void> | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  /** Resolvers of `sync()` calls, by marker, and the reload waiters. */
  const markers = new Map<string, () => void>();
  let idleWaiters: (() => void)[] = [];

  function add(target: Map<NetworkCode, Map<string, FollowedWallet[]>>, row: FollowedLinkRow): boolean {
    let network = target.get(row.networkCode);
    if (!network) target.set(row.networkCode, (network = new Map()));
    const wallets = network.get(row.address);
    const wallet: FollowedWallet = { tenantId: row.tenantId, walletId: row.walletId, address: row.address, placedAt: row.placedAt };
    if (!wallets) {
      network.set(row.address, [wallet]);
      return true;
    }
    // A wallet has at most one placement per network: a link announced again is already here.
    if (wallets.some((held) => held.walletId === row.walletId)) return false;
    // Copy on write: a caller iterating an earlier answer keeps a stable array.
    network.set(row.address, [...wallets, wallet]);
    return true;
  }

  async function loadAll(): Promise<void> {
    const started = performance.now();
    const next = new Map<NetworkCode, Map<string, FollowedWallet[]>>();
    let count = 0;
    let afterLinkId: string | undefined;
    for (;;) {
      const page = await listFollowedLinkPage(deps.db, { afterLinkId, limit: pageSize });
      for (const row of page) if (add(next, row)) count++;
      if (page.length < pageSize) break;
      afterLinkId = page[page.length - 1]!.linkId;
    }
    byNetwork = next;
    held = count;
    log.info({ links: count, ms: Math.round(performance.now() - started) }, "wallet directory loaded");
  }

  async function loadLinks(linkIds: string[]): Promise<void> {
    const rows = await findFollowedLinks(deps.db, { linkIds });
    for (const row of rows) if (add(byNetwork, row)) held++;
  }

  /** Runs the owed loads one at a time until none is left; a failed load is retried after RETRY_MS. */
  function drain(): Promise<void> {
    draining ??= (async () => {
      try {
        while (!stopped && (reloadOwed || pendingLinkIds.size > 0)) {
          if (reloadOwed) {
            // Links announced from here on are loaded after this load, whether it saw them or not.
            pendingLinkIds.clear();
            reloadOwed = false;
            reloading = true;
            try {
              await loadAll();
            } catch (error) {
              reloadOwed = true;
              throw error;
            } finally {
              reloading = false;
            }
          } else {
            // At most a page at a time: a burst of placements stays within a statement's parameters.
            const linkIds = [...pendingLinkIds].slice(0, pageSize);
            for (const linkId of linkIds) pendingLinkIds.delete(linkId);
            try {
              await loadLinks(linkIds);
            } catch (error) {
              for (const linkId of linkIds) pendingLinkIds.add(linkId);
              throw error;
            }
          }
        }
        const waiters = idleWaiters;
        idleWaiters = [];
        for (const resolve of waiters) resolve();
      } finally {
        draining = undefined;
      }
    })();
    return draining;
  }

  function drainInBackground(): void {
    drain().catch((error: unknown) => {
      if (stopped) return;
      log.warn({ err: error }, "wallet directory load failed; retrying");
      clearTimeout(retryTimer);
      retryTimer = setTimeout(drainInBackground, RETRY_MS);
      retryTimer.unref();
    });
  }

  /** Resolves when no load is owed (now or after the owed ones). */
  function idle(): Promise<void> {
    if (!reloadOwed && pendingLinkIds.size === 0 && !draining) return Promise.resolve();
    return new Promise((resolve) => idleWaiters.push(resolve));
  }

  function onNotification(payload: string): void {
    if (payload.startsWith(SYNC_PREFIX)) {
      markers.get(payload.slice(SYNC_PREFIX.length))?.();
      return;
    }
    // Anything but a link id would fail its load again and again: ignored.
    if (!LINK_ID.test(payload)) return log.warn({ payload }, "wallet directory: a notification that names no link, ignored");
    pendingLinkIds.add(payload);
    drainInBackground();
  }

  async function stop(): Promise<void> {
    stopped = true;
    clearTimeout(retryTimer);
    await listener?.close();
    await draining?.catch(() => {});
  }

  return {
    lookup(networkCode, address) {
      return byNetwork.get(networkCode)?.get(address) ?? [];
    },
    size: () => held,
    get current() {
      return (listener?.listening ?? false) && !reloadOwed && !reloading;
    },
    async start() {
      if (listener) throw new Error("wallet directory already started");
      listener = createNotificationListener({
        url: deps.databaseUrl,
        channel: WALLET_LINKS_CHANNEL,
        applicationName: "qc-wallet-directory",
        backoff: deps.backoff,
        onNotification,
        onListening: () => {
          reloadOwed = true;
          drainInBackground();
        },
        onLost: (err) => log.warn({ err }, "wallet directory listener lost; it reloads every placement once it listens again"),
        onReconnectFailed: (err) => log.warn({ err }, "wallet directory listener reconnect failed; retrying"),
      });
      try {
        await listener.start();
        // The first full load, its failure the caller's (later ones are retried in the background).
        await drain();
      } catch (error) {
        await stop();
        throw error;
      }
    },
    stop,
    async sync(timeoutMs = 10_000) {
      const marker = randomUUID();
      const deadline = performance.now() + timeoutMs;
      const arrived = new Promise<void>((resolve) => markers.set(marker, resolve));
      try {
        // Sent again until it arrives: a marker sent while LISTEN was down is lost like any notification.
        let came = false;
        while (!came) {
          const left = deadline - performance.now();
          if (left <= 0 || stopped) throw new Error(`wallet directory not in sync after ${timeoutMs} ms`);
          await notifyChannel(deps.db, { channel: WALLET_LINKS_CHANNEL, payload: `${SYNC_PREFIX}${marker}` });
          came = await within(arrived, Math.min(left, 1_000));
        }
        if (!(await within(idle(), deadline - performance.now()))) throw new Error(`wallet directory not in sync after ${timeoutMs} ms`);
      } finally {
        markers.delete(marker);
      }
    },
  };
}

/** Whether `promise` resolved within `ms`. */
async function within(promise: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise.then(() => true),
      new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), Math.max(ms, 0));
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
