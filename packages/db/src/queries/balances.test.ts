import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { insertTransactionWithTrail } from "../hot-path/transaction-with-trail";
import { newRowId } from "../ids";
import { assets, tenants, vaults, walletNetworkLinks, wallets } from "../schema";
import { useTestDatabase } from "../testing";
import { listBalancePlacements, listWalletFlowBlocks, sumDailyFlows } from "./balances";
import { insertDeposits } from "./deposits";
import { newTransactionRow, updateTransactionWhereStatus } from "./transactions";

const NATIVE_SANDBOX = "011620ab-6fee-5894-b105-6c22053cf11e";
const hex = (bytes: number) => `0x${randomBytes(bytes).toString("hex")}`;

describe("balance and flow queries", () => {
  const t = useTestDatabase();

  /** A tenant with two sandbox vaults, a wallet in each (the first tracking a token), and the token. */
  async function custody(name: string) {
    const [tenant] = await t.db.insert(tenants).values({ name }).returning();
    const tenantId = tenant!.id;
    const [token] = await t.db
      .insert(assets)
      .values({
        tenantId,
        networkCode: "QUANTUM_SANDBOX",
        kind: "TOKEN",
        symbol: "TKN",
        name: "Token",
        decimals: 6,
        contractAddress: hex(20),
      })
      .returning();
    const walletList: { id: string; address: string; vaultId: string }[] = [];
    for (const [i, vaultName] of ["treasury", "operations"].entries()) {
      const [vault] = await t.db.insert(vaults).values({ tenantId, networkCode: "QUANTUM_SANDBOX", name: vaultName }).returning();
      const address = hex(20);
      const [wallet] = await t.db
        .insert(wallets)
        .values({
          tenantId,
          vaultId: vault!.id,
          type: "REGISTERED",
          address,
          publicKey: hex(32),
          assetIds: i === 0 ? [NATIVE_SANDBOX, token!.id] : [NATIVE_SANDBOX],
        })
        .returning();
      await t.db.insert(walletNetworkLinks).values({ tenantId, walletId: wallet!.id, networkCode: "QUANTUM_SANDBOX", vaultId: vault!.id });
      walletList.push({ id: wallet!.id, address, vaultId: vault!.id });
    }
    return { tenantId, tokenId: token!.id, wallets: walletList };
  }

  /** An outbound transfer as created, then mined (`block`) and ended in `status` at `at`. */
  async function outbound(
    tenantId: string,
    source: { id: string; address: string },
    input: { assetId: string; amount: bigint; status: "COMPLETED" | "FAILED"; at: Date; block: number },
  ) {
    const row = newTransactionRow(
      {
        tenantId,
        networkCode: "QUANTUM_SANDBOX",
        chainId: 20804,
        sourceWalletId: source.id,
        sourceAddress: source.address,
        destinationAddress: hex(20),
        assetId: input.assetId,
        amount: input.amount.toString(),
        requiredConfirmations: 2,
        status: "SUBMITTED",
      },
      new Date(input.at.getTime() - 60_000),
    );
    const actor = { actorType: "system", actorId: "balances.test" } as const;
    await t.db.transaction((tx) =>
      insertTransactionWithTrail(tx, {
        row,
        history: { id: newRowId(), ...actor },
        audit: {
          id: newRowId(),
          tenantId,
          ...actor,
          action: "transaction.created",
          targetType: "transaction",
          targetId: row.id,
          actorUserId: null,
          requestId: null,
          ip: null,
          details: {},
        },
        event: { id: newRowId(), tenantId, type: "transaction.created", aggregateType: "transaction", aggregateId: row.id, data: {} },
      }),
    );
    await updateTransactionWhereStatus(t.db, { tenantId, transactionId: row.id }, ["SUBMITTED"], {
      status: input.status,
      chainTxHash: hex(32),
      blockNumber: input.block,
      confirmations: 2,
      completedAt: input.status === "COMPLETED" ? input.at : null,
    });
  }

  /** A native deposit as the follower writes it, completed at `at`. */
  async function deposit(tenantId: string, wallet: { id: string; address: string }, amount: bigint, at: Date, block: number) {
    const [row] = await insertDeposits(t.db, {
      networkCode: "QUANTUM_SANDBOX",
      blockNumber: block,
      blockHash: hex(32),
      at,
      deposits: [
        {
          tenantId,
          walletId: wallet.id,
          chainId: 20804,
          sourceAddress: hex(20),
          destinationAddress: wallet.address,
          tokenAddress: null,
          logIndex: null,
          amount: amount.toString(),
          chainTxHash: hex(32),
          requiredConfirmations: 2,
        },
      ],
    });
    await updateTransactionWhereStatus(t.db, { tenantId, transactionId: row!.id }, ["CONFIRMING"], {
      status: "COMPLETED",
      confirmations: 2,
      completedAt: at,
    });
  }

  it("lists every placement with the native asset and the wallet's tracked tokens, the tenant's only", async () => {
    const mine = await custody("placements");
    await custody("someone else");
    const rows = await listBalancePlacements(t.db, { tenantId: mine.tenantId, limit: 100 });
    const seen = rows.map((r) => [r.walletId, r.vaultId, r.assetId, r.assetKind]).sort();
    expect(seen).toEqual(
      [
        [mine.wallets[0]!.id, mine.wallets[0]!.vaultId, NATIVE_SANDBOX, "NATIVE"],
        [mine.wallets[0]!.id, mine.wallets[0]!.vaultId, mine.tokenId, "TOKEN"],
        [mine.wallets[1]!.id, mine.wallets[1]!.vaultId, NATIVE_SANDBOX, "NATIVE"],
      ].sort(),
    );
    expect(rows.find((r) => r.assetKind === "TOKEN")).toMatchObject({ symbol: "TKN", decimals: 6, vaultName: "treasury" });
    expect(await listBalancePlacements(t.db, { tenantId: mine.tenantId, limit: 2 })).toHaveLength(2);
  });

  it("sums completed outflows and deposits per UTC day and asset exactly, as strings", async () => {
    const {
      tenantId,
      tokenId,
      wallets: [a, b],
    } = await custody("flows");
    const other = await custody("other tenant's flows");
    const day1 = new Date("2026-11-20T00:00:00.000Z");
    const day2 = new Date("2026-11-21T23:59:59.999Z");
    // Beyond 2^53 and beyond a double's 17 digits: a float would round these.
    const big = 10n ** 30n + 1n;
    await outbound(tenantId, a!, { assetId: NATIVE_SANDBOX, amount: big, status: "COMPLETED", at: day1, block: 10 });
    await outbound(tenantId, b!, {
      assetId: NATIVE_SANDBOX,
      amount: 2n,
      status: "COMPLETED",
      at: new Date("2026-11-20T23:59:59.999Z"),
      block: 11,
    });
    await outbound(tenantId, a!, { assetId: NATIVE_SANDBOX, amount: 5n, status: "FAILED", at: day1, block: 12 });
    await outbound(tenantId, a!, { assetId: tokenId, amount: 7_000_000n, status: "COMPLETED", at: day2, block: 13 });
    await deposit(tenantId, b!, 3n * 10n ** 18n, day2, 14);
    await deposit(tenantId, a!, 1n, new Date("2026-11-19T23:59:59.999Z"), 9); // before the window
    await outbound(other.tenantId, other.wallets[0]!, { assetId: NATIVE_SANDBOX, amount: 99n, status: "COMPLETED", at: day1, block: 15 });

    const flows = await sumDailyFlows(t.db, { tenantId, since: day1 });
    const shape = (f: { day: string; assetId: string; symbol: string; decimals: number; outflow: string; inflow: string }) => [
      f.day,
      f.assetId,
      f.symbol,
      f.decimals,
      f.outflow,
      f.inflow,
    ];
    expect(flows.map(shape)).toEqual(
      [
        ["2026-11-20", NATIVE_SANDBOX, "Q", 18, (big + 2n).toString(), "0"],
        ["2026-11-21", NATIVE_SANDBOX, "Q", 18, "0", "3000000000000000000"],
        ["2026-11-21", tokenId, "TKN", 6, "7000000", "0"],
      ].sort((x, y) => `${x[0]}${x[1]}`.localeCompare(`${y[0]}${y[1]}`)),
    );

    // A wallet's days: the lowest and highest block of its completed moves, either side.
    expect(await listWalletFlowBlocks(t.db, { tenantId, walletId: a!.id, networkCode: "QUANTUM_SANDBOX", since: day1 })).toEqual([
      { day: "2026-11-20", firstBlock: 10, lastBlock: 10 },
      { day: "2026-11-21", firstBlock: 13, lastBlock: 13 },
    ]);
    expect(await listWalletFlowBlocks(t.db, { tenantId, walletId: b!.id, networkCode: "QUANTUM_SANDBOX", since: day1 })).toEqual([
      { day: "2026-11-20", firstBlock: 11, lastBlock: 11 },
      { day: "2026-11-21", firstBlock: 14, lastBlock: 14 },
    ]);
  });
});
