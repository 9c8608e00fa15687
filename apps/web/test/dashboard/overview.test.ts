import { mkdtempSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MEMBER_FIXTURE_PASSWORD } from "@qc/core/testing";
import { useTestDatabase } from "@qc/db/testing";
import { createFundedAccount, sendNative } from "@qc/devnet/testing";
import type { Browser, Page } from "playwright-core";
import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// The signer's library, as a customer's signer uses it (reached by path, like dashboard.test.ts).
import {
  createKeystore,
  createServiceClient,
  enrollKeys,
  readTransfer,
  signerApi,
  signTransfer,
  verifySigningRequest,
  type UnlockedKeystore,
} from "../../../signer/src/lib";
import { callApi, createSandboxTransfer, fixtureOrganization, fundedSandboxWallet, type Person } from "./api";
import { launchChromium, logInAs, newDashboardPage, screenshot } from "./browser";
import { startStack, type Stack } from "./stack";

const Q = 10n ** 18n;
const DESTINATION = "0x5b38da6a701c568545dcfcb03fcb875f56beddc4";
const AXE_SCRIPT = createRequire(import.meta.url).resolve("axe-core/axe.min.js");
/** Lowest scrypt cost the keystore accepts. */
const FAST_KDF = { n: 2 ** 14, r: 8, p: 1 };

/**
 * The overview's balances and flows, and a wallet's balance history, in Debian's Chromium against
 * the started stack: wallets in two sandbox vaults (and a watch-only one on the mainnet, whose RPC
 * the stack does not configure: a network that cannot be read), a transfer signed by the signer
 * library and a real deposit seen by the daemon's chain follower. The totals equal the sum of
 * GET /v1/wallets/{id}/balance, per vault too; the flows table shows the day's outflow and inflow;
 * the wallet's page its history. Leaves docs/screenshots/overview-balances.png and wallet-balance-history.png.
 */
describe("the overview's balances and flows in a real browser", () => {
  const t = useTestDatabase();
  let stack: Stack;
  let browser: Browser;
  let admin: Person;
  let page: Page;
  let keystore: UnlockedKeystore;
  let treasury: { walletId: string; nativeAssetId: string };
  let operations: { walletId: string; nativeAssetId: string };
  let mainnetVaultId: string;
  let transferId: string;
  let depositId: string;

  const go = (path: string) => page.goto(new URL(path, stack.baseUrl).toString());
  const record = async (id: string) => (await callApi(stack, admin, "GET", `/v1/transactions/${id}`)).json;
  const balance = async (walletId: string) => BigInt((await callApi(stack, admin, "GET", `/v1/wallets/${walletId}/balance`)).json.balance);
  const vaultOf = async (walletId: string) => (await callApi(stack, admin, "GET", `/v1/wallets/${walletId}`)).json.vaultId as string;
  /** axe-core (WCAG 2 A and AA) on the page as it is: the serious and critical violations, by rule and target. */
  const seriousViolations = async () => {
    await page.addScriptTag({ path: AXE_SCRIPT });
    const result = await page.evaluate(async () => {
      const axe = (window as unknown as { axe: { run(options: unknown): Promise<any> } }).axe;
      return axe.run({ runOnly: { type: "tag", values: ["wcag2a", "wcag2aa"] } });
    });
    return (result.violations as { id: string; impact: string; nodes: { target: string[] }[] }[])
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  };
  const until = async (what: string, done: () => Promise<boolean>) => {
    // (expect.poll belongs to tests, not to hooks.)
    for (let waited = 0; !(await done()); waited += 250) {
      if (waited > 60_000) throw new Error(`${what} did not happen within 60 s`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  };

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startStack(t.url), launchChromium()]);
    [admin] = await fixtureOrganization(t.db, stack, "Northwind Treasury Ltd", ["ADMIN"]);
    keystore = await createKeystore(join(mkdtempSync(join(tmpdir(), "qc-overview-")), "keystore.json"), "overview keystore", {
      kdf: FAST_KDF,
    });
    const api = signerApi(createServiceClient({ url: stack.baseUrl, apiKey: admin.apiKey, ca: stack.cert }));
    await enrollKeys({ keystore, api, tenantId: admin.tenantId, count: 2 });
    treasury = await fundedSandboxWallet(stack, admin, "Treasury", 10n * Q);
    operations = await fundedSandboxWallet(stack, admin, "Operations", 4n * Q);
    const mainnet = await callApi(stack, admin, "POST", "/v1/vault/accounts", { name: "Cold storage", networkCode: "QUANTUM_MAINNET" });
    expect(mainnet.status).toBe(201);
    mainnetVaultId = mainnet.json.id;
    const watched = await callApi(stack, admin, "POST", `/v1/vault/accounts/${mainnetVaultId}/wallets/watch-only`, {
      address: "0x" + "7e".repeat(20),
      label: "cold",
    });
    expect(watched.status, JSON.stringify(watched.json)).toBe(201);

    // 1.5 Q out of the treasury, signed as the customer's signer signs it.
    transferId = await createSandboxTransfer(stack, admin, {
      sourceWalletId: treasury.walletId,
      assetId: treasury.nativeAssetId,
      destinationAddress: DESTINATION,
      amount: 3n * (Q / 2n),
    });
    await until("the release for signing", async () => (await record(transferId)).status === "PENDING_SIGNATURE");
    const { transactions } = await api.pendingTransactions();
    const verified = verifySigningRequest(
      readTransfer({
        transaction: transactions.find((tx) => tx.id === transferId),
        assets: await api.assets("QUANTUM_SANDBOX"),
        findKey: (a) => keystore.findKey(a),
      }),
    );
    await api.submitSignature(transferId, signTransfer(verified));
    // 2 Q into operations from an outside key: the daemon's follower records the deposit.
    const sender = await createFundedAccount(stack.devnet, 10n * Q);
    const address = (await callApi(stack, admin, "GET", `/v1/wallets/${operations.walletId}`)).json.address as Address;
    const hash = await sendNative(stack.devnet, sender, address, 2n * Q);
    await until("the transfer's completion", async () => (await record(transferId)).status === "COMPLETED");
    await until("the deposit's completion", async () => {
      const list = await callApi(stack, admin, "GET", `/v1/transactions?type=DEPOSIT&walletId=${operations.walletId}`);
      const deposit = (list.json.transactions as { id: string; chainTxHash: string; status: string }[]).find((d) => d.chainTxHash === hash);
      depositId = deposit?.id ?? "";
      return deposit?.status === "COMPLETED";
    });
  }, 600_000);
  afterAll(async () => {
    keystore?.close();
    await browser?.close();
    await stack?.close();
  }, 60_000);

  it("the totals per asset and per vault equal the sum of the wallets' balances from the API; the mainnet is unavailable, not zero", async () => {
    page = await newDashboardPage(browser);
    await logInAs(page, stack.baseUrl, admin.email, MEMBER_FIXTURE_PASSWORD);
    const [a, b] = [await balance(treasury.walletId), await balance(operations.walletId)];
    // The transfer's fee was paid: the treasury holds less than 10 - 1.5 Q.
    expect(a < 10n * Q - 3n * (Q / 2n)).toBe(true);
    expect(b).toBe(6n * Q);

    const totals = page.getByTestId("balance-totals");
    const sandboxTotal = totals.locator(`tr[data-asset-id="${treasury.nativeAssetId}"] [data-testid="asset-total"] [data-raw]`);
    await expect.poll(() => sandboxTotal.getAttribute("data-raw"), { timeout: 20_000 }).toBe((a + b).toString());
    expect(await sandboxTotal.getAttribute("title")).toBe(`${a + b} base units`);
    // Decimals applied for reading (bigint arithmetic, so the expected text is exact).
    const units = (raw: bigint) => `${raw / Q}${raw % Q === 0n ? "" : `.${(raw % Q).toString().padStart(18, "0").replace(/0+$/, "")}`}`;
    expect(await sandboxTotal.textContent()).toBe(`${units(a + b)} Q`);

    const vaults = page.getByTestId("balance-vaults");
    const vaultTotal = (vaultId: string) => vaults.locator(`tr[data-vault-id="${vaultId}"] [data-testid="vault-total"]`);
    expect(
      await vaultTotal(await vaultOf(treasury.walletId))
        .locator("[data-raw]")
        .getAttribute("data-raw"),
    ).toBe(a.toString());
    expect(
      await vaultTotal(await vaultOf(operations.walletId))
        .locator("[data-raw]")
        .getAttribute("data-raw"),
    ).toBe(b.toString());

    // A network that cannot be read: said so, and its sums are "Unavailable", never a zero.
    expect(await page.getByTestId("network-unavailable").textContent()).toContain("QUANTUM_MAINNET balances unavailable");
    expect(await vaultTotal(mainnetVaultId).textContent()).toBe("Unavailable");
    expect(await vaultTotal(mainnetVaultId).locator("[data-raw]").count()).toBe(0);
  });

  it("the flows table shows the day's outflow and inflow exactly, beside the chart", async () => {
    const day = ((await record(transferId)).completedAt as string).slice(0, 10);
    expect(((await record(depositId)).completedAt as string).slice(0, 10)).toBe(day);
    const row = page.locator(`[data-testid="flow-row"][data-day="${day}"][data-asset-id="${treasury.nativeAssetId}"]`);
    await expect.poll(() => row.getByTestId("flow-outflow").textContent(), { timeout: 20_000 }).toBe("1.5 Q");
    expect(await row.getByTestId("flow-inflow").textContent()).toBe("2 Q");
    expect(await row.getByTestId("flow-outflow").locator("[data-raw]").getAttribute("data-raw")).toBe("1500000000000000000");
    // One chart per asset that moved, drawn by the client (an SVG with bars).
    const chart = page.locator(`[data-testid="flow-chart"][data-asset-id="${treasury.nativeAssetId}"]`);
    await expect.poll(() => chart.locator("svg .recharts-bar-rectangle").count()).toBeGreaterThan(0);
    // The checklist and the latest transactions are still there.
    expect(await page.getByTestId("onboarding-checklist").count()).toBe(1);
    expect(await page.getByRole("heading", { name: "Latest transactions" }).count()).toBe(1);
    expect(await seriousViolations()).toEqual([]);
    await screenshot(page, "overview-balances");
  });

  it("the wallet's page shows its balance history: the days before the transfer, then today's live balance", async () => {
    await go(`/wallets/${treasury.walletId}`);
    const history = page.getByTestId("balance-history");
    const rows = history.getByTestId("history-row");
    await expect.poll(() => rows.count(), { timeout: 20_000 }).toBe(2);
    const raw = (i: number) => rows.nth(i).getByTestId("history-balance").locator("[data-raw]").getAttribute("data-raw");
    // Before the transfer: the 10 Q funded; today: what the chain holds now, the fee included.
    expect(await raw(0)).toBe((10n * Q).toString());
    expect(await raw(1)).toBe((await balance(treasury.walletId)).toString());
    expect(await rows.nth(1).getAttribute("data-day")).toBe(new Date().toISOString().slice(0, 10));
    await expect.poll(() => history.locator("svg .recharts-line").count()).toBe(1);
    expect(await seriousViolations()).toEqual([]);
    await screenshot(page, "wallet-balance-history");
  });
});
