import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { insertDepositFixture, MEMBER_FIXTURE_PASSWORD } from "@qc/core/testing";
import { useTestDatabase } from "@qc/db/testing";
import { createFundedAccount, sendNative } from "@qc/devnet/testing";
import type { Address } from "viem";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callApi, createSandboxTransfer, fixtureOrganization, fundedSandboxWallet, signerKeystore, type Person } from "./api";
import { launchChromium, logInAs, newDashboardPage, screenshot } from "./browser";
import { startStack, type Stack } from "./stack";

type DepositRecord = Awaited<ReturnType<typeof insertDepositFixture>>;

const Q = 10n ** 18n;
const SENDER = "0xab8483f64d9c6d1ecf9b849ae677dd3315835cb2";
const DESTINATION = "0x5b38da6a701c568545dcfcb03fcb875f56beddc4";
/** A token the organization has no asset for: its deposit shows the contract and base units. */
const UNKNOWN_TOKEN = "0x1111111111111111111111111111111111111111";

/**
 * Deposits in Debian's Chromium against the started stack (CONTRACT §13, §21), with deposits
 * stored by the fixture as the chain follower stores them: the wallet's page lists both sides of
 * the wallet with their direction (In: the sender; Out: the destination) and filters by type; the
 * transactions list does too; a deposit's page names the sender and links the receiving wallet,
 * shows the token contract, the block and its confirmations, and offers no cancel. Leaves
 * docs/screenshots/wallet-deposits.png, transactions-deposits.png and transaction-deposit.png.
 */
describe("deposits in a real browser", () => {
  const t = useTestDatabase();
  let stack: Stack;
  let browser: Browser;
  let admin: Person;
  let page: Page;
  let walletId: string;
  let outboundId: string;
  let native: DepositRecord;
  let token: DepositRecord;

  const walletAddress = async () => (await callApi(stack, admin, "GET", `/v1/wallets/${walletId}`)).json.address as string;
  const go = (path: string) => page.goto(new URL(path, stack.baseUrl).toString());
  const row = (within: Page | ReturnType<Page["getByTestId"]>, id: string) =>
    within.locator(`[data-testid="transaction-row"][data-id="${id}"]`);
  const directionOf = (within: Page | ReturnType<Page["getByTestId"]>, id: string) =>
    row(within, id).getByTestId("transaction-direction").textContent();

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startStack(t.url), launchChromium()]);
    [admin] = await fixtureOrganization(t.db, stack, "Quayside Exchange Ltd", ["ADMIN"]);
    await signerKeystore(stack, admin, join(mkdtempSync(join(tmpdir(), "qc-deposits-")), "keystore.json"), "deposits keystore", 1);
    const funded = await fundedSandboxWallet(stack, admin, "Customer deposits", 10n * Q);
    walletId = funded.walletId;
    const nativeAssetId = funded.nativeAssetId;
    outboundId = await createSandboxTransfer(stack, admin, {
      sourceWalletId: walletId,
      assetId: nativeAssetId,
      destinationAddress: DESTINATION,
      amount: Q,
    });
    // Deposits in the chain's current block, as the follower would see them now.
    const blockNumber = Number(await stack.devnet.publicClient().getBlockNumber());
    native = await insertDepositFixture(
      { db: t.db },
      { tenantId: admin.tenantId, walletId, sourceAddress: SENDER, amount: 2n * Q, blockNumber },
    );
    token = await insertDepositFixture(
      { db: t.db },
      {
        tenantId: admin.tenantId,
        walletId,
        status: "COMPLETED",
        blockNumber,
        token: { address: UNKNOWN_TOKEN, logIndex: 3 },
        amount: 750n,
      },
    );
  }, 600_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  }, 60_000);

  it("the wallet's page lists what it sent and what it received, In and Out, with the counterparty; the type filter keeps deposits", async () => {
    page = await newDashboardPage(browser);
    await logInAs(page, stack.baseUrl, admin.email, MEMBER_FIXTURE_PASSWORD);
    await go(`/wallets/${walletId}`);
    const section = page.getByTestId("wallet-transactions");
    await expect.poll(() => section.getByTestId("transaction-row").count(), { timeout: 20_000 }).toBe(3);
    expect(await directionOf(section, native.id)).toBe("In");
    expect(await directionOf(section, token.id)).toBe("In");
    expect(await directionOf(section, outboundId)).toBe("Out");
    // The counterparty: the sender of a deposit, the destination of a transfer.
    expect(await row(section, native.id).getByTestId("counterparty").textContent()).toContain(`from ${SENDER}`);
    expect(await row(section, outboundId).getByTestId("counterparty").textContent()).toContain(`to ${DESTINATION}`);
    expect(await row(section, native.id).textContent()).toContain("2 Q");
    // A token without an asset: its base units and its contract.
    expect(await row(section, token.id).textContent()).toContain("750 base units");
    const tokenLine = row(section, token.id).getByTestId("row-token-address");
    expect(await tokenLine.textContent()).toBe(`token ${UNKNOWN_TOKEN.slice(0, 6)}…${UNKNOWN_TOKEN.slice(-4)}`);
    expect(await tokenLine.locator("[data-address]").getAttribute("title")).toBe(UNKNOWN_TOKEN);
    // On the wallet's own page a deposit does not repeat the wallet; the transactions list names it.
    expect(await row(section, native.id).getByTestId("counterparty").textContent()).not.toContain("to your wallet");
    await screenshot(page, "wallet-deposits");

    await section.getByLabel("Type", { exact: true }).selectOption("DEPOSIT");
    await expect.poll(() => section.getByTestId("transaction-row").count()).toBe(2);
    expect(await section.locator('[data-testid="transaction-row"][data-type="DEPOSIT"]').count()).toBe(2);
    await section.getByLabel("Type", { exact: true }).selectOption("TRANSFER");
    await expect.poll(() => section.getByTestId("transaction-row").count()).toBe(1);
    expect(await directionOf(section, outboundId)).toBe("Out");
  });

  it("the transactions list shows the direction and filters by type", async () => {
    await go("/transactions");
    await expect.poll(() => page.getByTestId("transaction-row").count(), { timeout: 20_000 }).toBe(3);
    expect(await directionOf(page, native.id)).toBe("In");
    expect(await directionOf(page, outboundId)).toBe("Out");
    const receiving = row(page, native.id).getByTestId("counterparty").getByRole("link");
    expect(await receiving.getAttribute("href")).toBe(`/wallets/${walletId}`);
    await page.getByLabel("Type", { exact: true }).selectOption("DEPOSIT");
    await expect.poll(() => page.getByTestId("transaction-row").count()).toBe(2);
    expect(await directionOf(page, token.id)).toBe("In");
    await screenshot(page, "transactions-deposits");
  });

  it("a deposit's page: the sender, the receiving wallet linked, the token contract, the block and its confirmations, no cancel", async () => {
    await go("/transactions");
    await page.getByLabel("Type", { exact: true }).selectOption("DEPOSIT");
    // The filter is a navigation (?type=DEPOSIT): wait until it has landed, or the click below can
    // meet a list being redrawn and the filter's navigation can land after the click's.
    await expect.poll(() => page.getByTestId("transaction-row").count(), { timeout: 20_000 }).toBe(2);
    await row(page, token.id).getByRole("link").first().click();
    await page.waitForURL(new RegExp(`/transactions/${token.id}$`));
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toContain("Deposit");
    expect(await page.getByTestId("transaction-status").textContent()).toContain("COMPLETED");
    expect(await page.getByTestId("deposit-sender").textContent()).toBe(token.sourceAddress);
    const receiving = page.getByTestId("receiving-wallet").getByRole("link");
    expect(await receiving.textContent()).toBe(token.destinationAddress);
    expect(await receiving.getAttribute("href")).toBe(`/wallets/${walletId}`);
    expect(await page.getByTestId("token-address").textContent()).toContain(UNKNOWN_TOKEN);
    expect(await page.getByTestId("transaction-amount").locator(".amount").textContent()).toBe("750 base units");
    expect(await page.getByTestId("chain-tx-hash").textContent()).toBe(token.chainTxHash);
    expect(await page.getByTestId("block-number").textContent()).toBe(String(token.blockNumber));
    expect(await page.getByTestId("confirmations").textContent()).toBe("2 (2 required)");
    expect(await page.getByTestId("policy-result").textContent()).toContain("not applied");
    expect(await page.getByTestId("transaction-direction").textContent()).toBe("In");
    const timeline = page.getByTestId("timeline");
    await expect.poll(() => timeline.textContent()).toContain("COMPLETED · from CONFIRMING");
    expect(await page.getByRole("button", { name: "Cancel transfer" }).count()).toBe(0);
    await screenshot(page, "transaction-deposit");

    // The receiving wallet's link leads to the wallet, where the deposit is listed.
    await receiving.click();
    await page.waitForURL(new RegExp(`/wallets/${walletId}$`));
    await expect.poll(() => row(page.getByTestId("wallet-transactions"), token.id).count(), { timeout: 20_000 }).toBe(1);

    // A native deposit: no token contract; how far it is (the stack's follower moves it on with each block).
    await go(`/transactions/${native.id}`);
    await expect.poll(() => page.getByTestId("confirmations").textContent()).toMatch(/^\d+ \(2 required\)$/);
    expect(await page.getByTestId("transaction-amount").locator(".amount").textContent()).toBe("2 Q");
    expect(await page.getByTestId("token-address").count()).toBe(0);
  });

  it("a real deposit sent on the devnet appears on the wallet's page by itself: In, from its sender, then COMPLETED", async () => {
    await go(`/wallets/${walletId}`);
    const section = page.getByTestId("wallet-transactions");
    await expect.poll(() => section.getByTestId("transaction-row").count(), { timeout: 20_000 }).toBe(3);
    // An outside key sends 4 Q; the stack's daemon follows the devnet (a block every 150 ms).
    const sender = await createFundedAccount(stack.devnet, 10n * Q);
    const hash = await sendNative(stack.devnet, sender, (await walletAddress()) as Address, 4n * Q);
    await expect.poll(() => section.getByTestId("transaction-row").count(), { timeout: 30_000 }).toBe(4);
    const received = section.locator('[data-testid="transaction-row"][data-type="DEPOSIT"]').first();
    expect(await received.getByTestId("transaction-direction").textContent()).toBe("In");
    expect(await received.getByTestId("counterparty").textContent()).toContain(`from ${sender.address.toLowerCase()}`);
    expect(await received.textContent()).toContain("4 Q");
    await expect.poll(() => received.locator("[data-status]").getAttribute("data-status"), { timeout: 30_000 }).toBe("COMPLETED");
    await received.getByRole("link").first().click();
    await page.waitForURL(/\/transactions\/[0-9a-f-]{36}$/);
    await expect.poll(() => page.getByTestId("chain-tx-hash").textContent()).toBe(hash);
  });
});
