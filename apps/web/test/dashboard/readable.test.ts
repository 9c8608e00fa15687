import { insertDepositFixture, MEMBER_FIXTURE_PASSWORD } from "@qc/core/testing";
import { useTestDatabase } from "@qc/db/testing";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { UnlockedKeystore } from "../../../signer/src/lib";
import {
  callApi,
  createSandboxTransfer,
  enrolledKeystore,
  fixtureOrganization,
  fundedSandboxWallet,
  signPendingTransfer,
  waitForTransactionStatus,
  type Person,
} from "./api";
import { launchChromium, logInAs, newDashboardPage, screenshot } from "./browser";
import { startStack, type Stack } from "./stack";

const Q = 10n ** 18n;
const DESTINATION = "0x5b38da6a701c568545dcfcb03fcb875f56beddc4";
const SENDER = "0xab8483f64d9c6d1ecf9b849ae677dd3315835cb2";

/**
 * A raw integer of ten digits or more: an amount or fee in base units, which nobody reads at a
 * glance. Digits right after a decimal point are a fraction (`0.0000504000001764 Q`), not one.
 */
const RAW_INTEGER = /(?<![.\d])\b\d{10,}\b/g;

/**
 * The one exception, explicit and narrow: a UUID (an id the page shows whole) may have a last
 * group of twelve decimal digits by chance. Hashes and addresses start with 0x and never match.
 */
const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;

/**
 * Every amount and fee a person reads is readable (issue 38), in Debian's Chromium against the
 * started stack, with a completed transfer, one waiting for its signature and a deposit: no console
 * page that shows money shows a raw integer of ten or more digits; a transfer's page shows its
 * amount in Q, its fee caps in Gqwei per gas and the most its fee can cost in Q, its confirmations
 * as "N (2 required)" and its status in plain words beside the contract's name; hovering an amount
 * exposes its exact base units, and its copy button copies them. Leaves
 * docs/screenshots/transaction-readable.png.
 */
describe("amounts, fees, statuses and times a person can read", () => {
  const t = useTestDatabase();
  let stack: Stack;
  let browser: Browser;
  let admin: Person;
  let page: Page;
  let keystore: UnlockedKeystore;
  let vaultId: string;
  let walletId: string;
  let completedId: string;
  let pendingId: string;
  let depositId: string;

  const go = (path: string) => page.goto(new URL(path, stack.baseUrl).toString());
  const record = async (id: string) => (await callApi(stack, admin, "GET", `/v1/transactions/${id}`)).json;
  const waitForStatus = (id: string, status: string) => waitForTransactionStatus(stack, admin, id, status);

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startStack(t.url), launchChromium()]);
    [admin] = await fixtureOrganization(t.db, stack, "Lantern Treasury Ltd", ["ADMIN"]);
    keystore = await enrolledKeystore(stack, admin);
    const funded = await fundedSandboxWallet(stack, admin, "Treasury", 10n * Q);
    walletId = funded.walletId;
    vaultId = (await callApi(stack, admin, "GET", `/v1/wallets/${walletId}`)).json.vaultId;
    const transfer = { sourceWalletId: walletId, assetId: funded.nativeAssetId, destinationAddress: DESTINATION };

    completedId = await createSandboxTransfer(stack, admin, { ...transfer, amount: (5n * Q) / 4n });
    await waitForStatus(completedId, "PENDING_SIGNATURE");
    await signPendingTransfer(stack, admin, keystore, completedId);
    await waitForStatus(completedId, "COMPLETED");

    pendingId = await createSandboxTransfer(stack, admin, { ...transfer, amount: Q / 2n });
    await waitForStatus(pendingId, "PENDING_SIGNATURE");

    const blockNumber = Number(await stack.devnet.publicClient().getBlockNumber());
    depositId = (
      await insertDepositFixture(
        { db: t.db },
        { tenantId: admin.tenantId, walletId, sourceAddress: SENDER, amount: 2n * Q, status: "COMPLETED", blockNumber },
      )
    ).id;
  }, 600_000);
  afterAll(async () => {
    keystore?.close();
    await browser?.close();
    await stack?.close();
  }, 60_000);

  /** The admin's page, logged in by the first test that needs it (logInAs polls: tests only). */
  async function signedIn(): Promise<void> {
    if (page) return;
    page = await newDashboardPage(browser);
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: new URL(stack.baseUrl).origin });
    await logInAs(page, stack.baseUrl, admin.email, MEMBER_FIXTURE_PASSWORD);
  }

  /** The page's visible text once it has loaded (`ready` shown, no amount still waiting for its asset). */
  async function visibleText(ready: string): Promise<string> {
    await page.locator(ready).first().waitFor();
    await expect.poll(() => page.locator('[aria-busy="true"]').count()).toBe(0);
    return page.locator("body").innerText();
  }

  const pages = () => [
    { path: "/", ready: '[data-testid="transaction-row"]' },
    { path: "/vaults", ready: '[data-testid="vault-row"]' },
    { path: `/vaults/${vaultId}`, ready: '[data-testid="wallet-row"]' },
    { path: `/wallets/${walletId}`, ready: '[data-testid="balance-row"] .amount[data-raw]' },
    { path: "/transactions", ready: '[data-testid="transaction-row"]' },
    { path: `/transactions/${completedId}`, ready: '[data-testid="max-fee-cost"] .amount' },
    { path: `/transactions/${pendingId}`, ready: '[data-testid="max-fee-cost"] .amount' },
    { path: `/transactions/${depositId}`, ready: '[data-testid="transaction-amount"] .amount' },
    { path: "/approvals", ready: "text=Nothing awaits your approval." },
    { path: "/audit", ready: '[data-testid="audit-row"]' },
  ];

  it("the scan catches base units and leaves fractions, hashes and addresses", () => {
    expect("max fee 2200000000 Qwei/gas".match(RAW_INTEGER)).toEqual(["2200000000"]);
    expect("1250000000000000000 base units".match(RAW_INTEGER)).toEqual(["1250000000000000000"]);
    expect("0.0000504000001764 Q · 0x5b38da6a701c568545dcfcb03fcb875f56beddc4 · 2.2 Gqwei/gas".match(RAW_INTEGER)).toBeNull();
    expect("a1b2c3d4-0000-4000-8000-123456789012".replace(UUID, "(uuid)").match(RAW_INTEGER)).toBeNull();
  });

  it("no page that shows money shows a raw integer of ten digits or more", async () => {
    await signedIn();
    const found: string[] = [];
    for (const { path, ready } of pages()) {
      await go(path);
      const text = (await visibleText(ready)).replace(UUID, "(uuid)");
      for (const match of text.matchAll(RAW_INTEGER))
        found.push(`${path}: ${match[0]} in "${text.slice(Math.max(0, match.index - 60), match.index + 30)}"`);
    }
    expect(found).toEqual([]);
  });

  it("a transfer's page: the amount in Q, fee caps in Gqwei/gas, the max fee in Q, confirmations and status in plain words", async () => {
    await signedIn();
    const completed = await record(completedId);
    await go(`/transactions/${completedId}`);
    const amount = page.getByTestId("transaction-amount").locator(".amount");
    await expect.poll(() => amount.textContent()).toBe("1.25 Q");
    // The exact base units on hover, and the copy button copies them.
    await amount.hover();
    expect(await amount.getAttribute("title")).toBe(`${(5n * Q) / 4n} base units`);
    await page.getByRole("button", { name: `Copy ${(5n * Q) / 4n} base units`, exact: true }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(String((5n * Q) / 4n));

    const { gasLimit, maxFeePerGas, maxPriorityFeePerGas } = completed.fee as {
      gasLimit: string;
      maxFeePerGas: string;
      maxPriorityFeePerGas: string;
    };
    for (const [testId, raw] of [
      ["max-fee-per-gas", maxFeePerGas],
      ["max-priority-fee-per-gas", maxPriorityFeePerGas],
    ] as const) {
      const price = page.getByTestId(testId).locator(".gas-price");
      expect(await price.textContent()).toMatch(/^\d+(\.\d+)? Gqwei\/gas$/);
      // Gqwei are 10^9 Qwei: the shown number, its point moved nine places, is the exact price.
      const [whole, fraction = ""] = (await price.textContent())!.replace(" Gqwei/gas", "").split(".");
      expect(BigInt(whole! + fraction.padEnd(9, "0"))).toBe(BigInt(raw));
      expect(await price.getAttribute("title")).toBe(`${raw} Qwei/gas`);
    }
    expect(await page.getByTestId("gas-limit").textContent()).toBe(`${gasLimit} gas`);
    const maxFee = page.getByTestId("max-fee-cost").locator(".amount");
    expect(await maxFee.textContent()).toMatch(/^0\.\d+ Q$/);
    expect(await maxFee.getAttribute("title")).toBe(`${BigInt(gasLimit) * BigInt(maxFeePerGas)} base units`);
    expect(await page.locator('dt:text-is("Max fee")').count()).toBe(1);

    expect(await page.getByTestId("confirmations").textContent()).toMatch(/^\d+ \(2 required\)$/);
    expect(await page.getByTestId("transaction-status").textContent()).toContain("COMPLETED");
    // Relative times, the exact instant on hover.
    const created = page.locator('dt:text-is("Created") + dd time');
    expect(await created.textContent()).toMatch(/^(just now|\d+ minutes? ago)$/);
    expect(await created.getAttribute("title")).toContain(completed.createdAt);
    // The timeline speaks too: a mined transfer waits for its confirmations.
    expect(await page.getByTestId("timeline").innerText()).toContain("CONFIRMING Mined, waiting for confirmations");
  });

  it("a transfer waiting for its signature says so in plain words beside PENDING_SIGNATURE", async () => {
    await signedIn();
    await go(`/transactions/${pendingId}`);
    const status = page.getByTestId("transaction-status");
    await expect.poll(() => status.innerText()).toContain("PENDING_SIGNATURE Waiting for signature");
    expect(await page.getByTestId("confirmations").textContent()).toBe("0 (2 required)");
    expect(await page.getByTestId("transaction-amount").locator(".amount").textContent()).toBe("0.5 Q");
    await screenshot(page, "transaction-readable");
  });

  it("the lists and the audit log show amounts in Q, the exact base units on hover", async () => {
    await signedIn();
    await go("/transactions");
    const deposit = page.locator(`[data-testid="transaction-row"][data-id="${depositId}"] .amount`);
    await expect.poll(() => deposit.textContent()).toBe("2 Q");
    expect(await deposit.getAttribute("title")).toBe(`${2n * Q} base units`);
    const pendingRow = page.locator(`[data-testid="transaction-row"][data-id="${pendingId}"]`);
    expect(await pendingRow.innerText()).toContain("Waiting for signature");

    await go("/audit");
    const created = page.getByTestId("audit-row").filter({ hasText: "transaction.created" }).locator(".amount");
    await expect.poll(() => created.allTextContents()).toEqual(expect.arrayContaining(["1.25 Q", "0.5 Q"]));
  });
});
