import { useTestDatabase } from "@qc/db/testing";
import { createFundedAccount, sendNative, useDevnet, type TestAccount } from "@qc/devnet/testing";
import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServiceDeps } from "../deps/service-deps";
import { insertDepositFixture } from "../testing/deposit-fixtures";
import { createTenantFixture } from "../testing/fixtures";
import { createTestServiceDeps } from "../testing/service-deps";
import { createTransferWalletFixture } from "../testing/transfer-fixtures";
import { readBalanceHistory } from "./read-balance-history";

const Q = 10n ** 18n;
const DAY = 86_400_000;

/** A wallet's end-of-day balances, read at past blocks of a real devnet, its moves recorded as the follower records them. */
describe("readBalanceHistory", () => {
  const t = useTestDatabase();
  const devnet = useDevnet();
  const clock = { at: Date.parse("2026-11-28T15:00:00.000Z"), now: () => new Date(clock.at) };
  let deps: ServiceDeps & { close(): Promise<void> };
  let sender: TestAccount;
  beforeAll(async () => {
    deps = await createTestServiceDeps({ database: t, now: clock.now, config: { rpcUrls: { QUANTUM_SANDBOX: [devnet().url] } } });
    sender = await createFundedAccount(devnet(), 100n * Q);
  });
  afterAll(() => deps?.close());

  /** A native deposit mined on the devnet, then recorded COMPLETED at `at` with its real hash and block. */
  async function deposit(tenantId: string, wallet: { walletId: string; address: Address }, amount: bigint, at: number) {
    const chainTxHash = await sendNative(devnet(), sender, wallet.address, amount);
    await devnet().mine(1);
    const receipt = await devnet().publicClient().getTransactionReceipt({ hash: chainTxHash });
    await insertDepositFixture(
      { db: t.db, now: () => new Date(at) },
      { tenantId, walletId: wallet.walletId, amount, chainTxHash, blockNumber: Number(receipt.blockNumber), status: "COMPLETED" },
    );
    // The devnet's state at a past block is the next block's pre-state, so a devnet_fund credit
    // made before the next block would read as part of this one: a block of its own first.
    await devnet().mine(1);
  }

  it("gives 30 days oldest first: the balance before the first move, each move day's close, quiet days carried, today live", async () => {
    const tenantId = (await createTenantFixture({ db: t.db, pepper: Buffer.alloc(32, 8) })).tenantId;
    const wallet = await createTransferWalletFixture(deps, { tenantId });
    await devnet().fund(wallet.address, 10n * Q);
    await devnet().mine(1);
    await deposit(tenantId, wallet, 2n * Q, clock.at - 2 * DAY);
    await deposit(tenantId, wallet, 3n * Q, clock.at - 2 * DAY + 60_000);
    // Not recorded by the service (funds credited outside any block the history names): shows from the next move on.
    await devnet().fund(wallet.address, 1n);
    await deposit(tenantId, wallet, Q, clock.at - DAY + 1);
    await devnet().fund(wallet.address, 7n); // after the last move: only the live balance has it

    const history = await readBalanceHistory(deps, { tenantId, walletId: wallet.walletId, days: 30 });
    expect(history).toMatchObject({ walletId: wallet.walletId, networkCode: "QUANTUM_SANDBOX", symbol: "Q", decimals: 18 });
    expect(history.days).toHaveLength(30);
    expect(history.days[0]!.day).toBe("2026-10-30");
    expect(history.days.at(-1)!.day).toBe("2026-11-28");
    const balances = history.days.map((d) => d.balance);
    expect(balances.slice(0, 27)).toEqual(Array(27).fill((10n * Q).toString()));
    expect(balances.slice(27)).toEqual([(15n * Q).toString(), (16n * Q + 1n).toString(), (16n * Q + 8n).toString()]);
    // Each close is read at a real block, and blocks never go backwards.
    const blocks = history.days.map((d) => d.blockNumber);
    expect([...blocks].sort((x, y) => x - y)).toEqual(blocks);
  });

  it("a wallet without moves shows its live balance every day, and a network that is down is UNAVAILABLE", async () => {
    const tenantId = (await createTenantFixture({ db: t.db, pepper: Buffer.alloc(32, 8) })).tenantId;
    const wallet = await createTransferWalletFixture(deps, { tenantId });
    await devnet().fund(wallet.address, 4n);
    const history = await readBalanceHistory(deps, { tenantId, walletId: wallet.walletId, days: 7 });
    expect(history.days.map((d) => d.balance)).toEqual(Array(7).fill("4"));

    const down = await createTestServiceDeps({
      database: t,
      now: clock.now,
      config: { rpcUrls: { QUANTUM_SANDBOX: ["http://127.0.0.1:9"] } },
    });
    try {
      await expect(readBalanceHistory(down, { tenantId, walletId: wallet.walletId, days: 7 })).rejects.toMatchObject({
        error: "UNAVAILABLE",
        status: 503,
      });
    } finally {
      await down.close();
    }
  });
});
