import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { insertDepositFixture, MEMBER_FIXTURE_PASSWORD } from "@qc/core/testing";
import { useTestDatabase } from "@qc/db/testing";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callApi, createSandboxTransfer, fixtureOrganization, fundedSandboxWallet, signerKeystore, type Person } from "./api";
import { launchChromium, logInAs, newDashboardPage, screenshot } from "./browser";
import { csvObjects } from "./csv-reader";
import { startStack, type Stack } from "./stack";

type ListedTx = {
  id: string;
  assetId: string | null;
  amount: string;
  status: string;
  type: string;
  chainTxHash: string | null;
  externalId: string | null;
};

const Q = 10n ** 18n;
const DESTINATION = "0x5b38da6a701c568545dcfcb03fcb875f56beddc4";
/** A reference a spreadsheet would run as a formula, were it written as it is. */
const FORMULA_REFERENCE = '=HYPERLINK("http://attacker.example","open")';
const FORMULA_NOTE = "@SUM(1+1)";
const DAY_MS = 86_400_000;
const day = (offset: number) => new Date(Date.now() + offset * DAY_MS).toISOString().slice(0, 10);

/**
 * The transactions list in Debian's Chromium against the started stack, with 24 transactions of
 * two wallets (transfers waiting for signature or queued, some cancelled, two deposits): each
 * filter (status, wallet, type, dates) shows exactly what GET /v1/transactions answers for it, and
 * lives in the address (a reload keeps it); the pages go forward and back through distinct rows;
 * "Export CSV" saves every matching row, not only the page shown, amounts both ways, with a
 * formula-like reference neutralised. Leaves docs/screenshots/transactions-filtered.png.
 */
describe("the transactions list: filters, pages and CSV in a real browser", () => {
  const t = useTestDatabase();
  let stack: Stack;
  let browser: Browser;
  let admin: Person;
  let page: Page;
  let walletA: string;
  let walletB: string;
  let formulaId: string;
  let nativeAssetId: string;
  const cancelled: string[] = [];
  const deposits: string[] = [];

  const go = (path: string) => page.goto(new URL(path, stack.baseUrl).toString());
  const shownIds = () =>
    page.locator('[data-testid="transaction-row"]').evaluateAll((rows) => rows.map((row) => row.getAttribute("data-id")));
  /** Every transaction GET /v1/transactions lists for `query`, newest first (all pages). */
  async function apiRecords(query: string): Promise<ListedTx[]> {
    const all: ListedTx[] = [];
    let cursor = "";
    for (;;) {
      const res = await callApi(stack, admin, "GET", `/v1/transactions?limit=200${query ? `&${query}` : ""}${cursor}`);
      expect(res.status, JSON.stringify(res.json)).toBe(200);
      all.push(...res.json.transactions);
      if (!res.json.page.hasMore) return all;
      cursor = `&cursor=${encodeURIComponent(res.json.page.nextCursor)}`;
    }
  }
  /** "Clear filters", then the address without a filter (a select changed before would keep the old ones). */
  async function clearFilters() {
    await page.getByRole("button", { name: "Clear filters" }).click();
    await page.waitForURL((url) => url.pathname === "/transactions" && url.search === "");
  }
  /** 50 rows a page: every filter's rows on one page (a reload comes back to 25). */
  const fiftyPerPage = () => page.getByLabel("Rows per page", { exact: true }).selectOption("50");
  const apiIds = async (query: string) => (await apiRecords(query)).map((tx) => tx.id);
  /** The rows shown equal the API's for the same filter (polled: the daemon may still move a queued transfer on). */
  async function expectRowsOf(query: string, minimum = 1) {
    await expect
      .poll(
        async () => {
          const expected = await apiIds(query);
          return expected.length >= minimum && JSON.stringify(await shownIds()) === JSON.stringify(expected);
        },
        { timeout: 20_000 },
      )
      .toBe(true);
  }

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startStack(t.url), launchChromium()]);
    [admin] = await fixtureOrganization(t.db, stack, "Lanternfish Treasury Ltd", ["ADMIN"]);
    await signerKeystore(stack, admin, join(mkdtempSync(join(tmpdir(), "qc-list-")), "keystore.json"), "list keystore", 2);
    const a = await fundedSandboxWallet(stack, admin, "Payouts", 100n * Q);
    const b = await fundedSandboxWallet(stack, admin, "Treasury", 100n * Q);
    walletA = a.walletId;
    walletB = b.walletId;
    nativeAssetId = a.nativeAssetId;
    // 21 transfers with amounts that need every one of the 18 decimals, 14 from A and 7 from B.
    for (let i = 0; i < 21; i++) {
      const id = await createSandboxTransfer(stack, admin, {
        sourceWalletId: i % 3 === 2 ? walletB : walletA,
        assetId: a.nativeAssetId,
        destinationAddress: DESTINATION,
        amount: Q + 234_567_890_123_456_789n + BigInt(i),
      });
      if (i % 5 === 1) cancelled.push(id);
    }
    // One whose reference and note a spreadsheet would run.
    const formula = await callApi(
      stack,
      admin,
      "POST",
      "/v1/transactions",
      {
        networkCode: "QUANTUM_SANDBOX",
        sourceWalletId: walletA,
        assetId: a.nativeAssetId,
        destinationAddress: DESTINATION,
        amount: "5",
        externalId: FORMULA_REFERENCE,
        note: FORMULA_NOTE,
      },
      { "x-idempotency-key": randomUUID() },
    );
    expect(formula.status, JSON.stringify(formula.json)).toBe(201);
    formulaId = formula.json.id;
    for (const id of cancelled) expect((await callApi(stack, admin, "POST", `/v1/transactions/${id}/cancel`)).status).toBe(200);
    // Two deposits to B, stored as the chain follower stores them.
    const blockNumber = Number(await stack.devnet.publicClient().getBlockNumber());
    for (const amount of [3n * Q, 7n])
      deposits.push(
        (
          await insertDepositFixture(
            { db: t.db },
            { tenantId: admin.tenantId, walletId: walletB, status: "COMPLETED", amount, blockNumber },
          )
        ).id,
      );
    // Until every transfer's checks ran (none SUBMITTED): then only a queued one can still move.
    for (let waited = 0; (await apiIds("status=SUBMITTED")).length > 0; waited += 250) {
      if (waited > 60_000) throw new Error("transfers still SUBMITTED after 60 s");
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }, 600_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  }, 60_000);

  it("each filter shows exactly the API's transactions for it, and lives in the address", async () => {
    page = await newDashboardPage(browser);
    await logInAs(page, stack.baseUrl, admin.email, MEMBER_FIXTURE_PASSWORD);
    await go("/transactions");
    // 24 made here, and a NONCE_FILL for a cancelled transfer whose nonce was taken (docs/transfers.md).
    const total = (await apiIds("")).length;
    expect(total).toBeGreaterThanOrEqual(24);
    await fiftyPerPage();
    await expectRowsOf("", total);
    // Plain words beside the contract's name.
    const cancelledRow = page.locator(`[data-testid="transaction-row"][data-id="${cancelled[0]}"]`);
    expect(await cancelledRow.locator("[data-status]").textContent()).toBe("CANCELLED");
    expect(await cancelledRow.locator("[data-sub-status]").innerText()).toBe("CANCELLED_BY_USER Cancelled on request");

    await page.getByLabel("Status", { exact: true }).selectOption("CANCELLED");
    await page.waitForURL(/\?status=CANCELLED$/);
    await expectRowsOf("status=CANCELLED", cancelled.length);
    expect((await shownIds()).sort()).toEqual([...cancelled].sort());

    await page.getByLabel("Status", { exact: true }).selectOption("PENDING_SIGNATURE");
    await expectRowsOf("status=PENDING_SIGNATURE");

    await clearFilters();
    await page.getByLabel("Wallet", { exact: true }).selectOption(walletB);
    await expectRowsOf(`walletId=${walletB}`, 9);
    expect(await shownIds()).toEqual(expect.arrayContaining(deposits));

    await page.getByLabel("Type", { exact: true }).selectOption("DEPOSIT");
    await expectRowsOf(`walletId=${walletB}&type=DEPOSIT`, 2);
    expect((await shownIds()).sort()).toEqual([...deposits].sort());
    await page.getByLabel("Type", { exact: true }).selectOption("TRANSFER");
    await expectRowsOf(`walletId=${walletB}&type=TRANSFER`, 7);

    // The view is in the address: a reload (or a shared link) shows the same rows, the fields set.
    expect(new URL(page.url()).searchParams.get("walletId")).toBe(walletB);
    await page.reload();
    await expectRowsOf(`walletId=${walletB}&type=TRANSFER`, 7);
    await fiftyPerPage();
    expect(await page.getByLabel("Type", { exact: true }).inputValue()).toBe("TRANSFER");
    await screenshot(page, "transactions-filtered");

    // Dates: whole days in UTC, both included; today holds everything, tomorrow and yesterday nothing.
    await clearFilters();
    await page.getByLabel("Created from", { exact: true }).fill(day(0));
    await expectRowsOf(`createdFrom=${day(0)}T00:00:00.000Z`, total);
    await page.getByLabel("Created to", { exact: true }).fill(day(0));
    await expectRowsOf(`createdFrom=${day(0)}T00:00:00.000Z&createdTo=${day(1)}T00:00:00.000Z`, total);
    // "to" first, so that the range is never from > to on the way (each field is a navigation: CI
    // once met the second field being filled while the first one's page was drawn), then the
    // address with both before the empty list is looked for.
    await page.getByLabel("Created to", { exact: true }).fill(day(1));
    await page.waitForURL((url) => url.searchParams.get("to") === day(1));
    await page.getByLabel("Created from", { exact: true }).fill(day(1));
    await page.waitForURL((url) => url.searchParams.get("from") === day(1) && url.searchParams.get("to") === day(1));
    await expect.poll(() => page.getByText("No transaction matches these filters.").count(), { timeout: 20_000 }).toBe(1);
    expect(await apiIds(`createdFrom=${day(1)}T00:00:00.000Z&createdTo=${day(2)}T00:00:00.000Z`)).toEqual([]);
    await go(`/transactions?to=${day(-1)}`);
    await expect.poll(() => page.getByText("No transaction matches these filters.").count(), { timeout: 20_000 }).toBe(1);
    expect(await apiIds(`createdTo=${day(0)}T00:00:00.000Z`)).toEqual([]);
    await go(`/transactions?from=${day(-1)}&status=CANCELLED`);
    await expectRowsOf(`createdFrom=${day(-1)}T00:00:00.000Z&status=CANCELLED`, cancelled.length);
  });

  it("the pages go forward through distinct rows and come back to the same ones", async () => {
    await go("/transactions");
    await page.getByLabel("Rows per page", { exact: true }).selectOption("10");
    // 24 to 28 transactions (with the nonce fills): three pages of 10.
    const all = await apiIds("");
    expect(all.length).toBeGreaterThan(20);
    expect(all.length).toBeLessThanOrEqual(30);
    const pages = [all.slice(0, 10), all.slice(10, 20), all.slice(20)];
    const pageNumber = () => page.getByTestId("page-number").textContent();
    const next = page.getByRole("button", { name: "Next page", exact: true });
    const previous = page.getByRole("button", { name: "Previous page", exact: true });

    await expect.poll(shownIds).toEqual(pages[0]);
    expect(await previous.isDisabled()).toBe(true);
    await next.click();
    await expect.poll(shownIds).toEqual(pages[1]);
    expect(await pageNumber()).toBe("Page 2");
    await next.click();
    await expect.poll(shownIds).toEqual(pages[2]);
    expect(await next.isDisabled()).toBe(true);
    expect(new Set([...pages[0]!, ...pages[1]!, ...pages[2]!]).size).toBe(all.length);
    await previous.click();
    await expect.poll(shownIds).toEqual(pages[1]);
    await previous.click();
    await expect.poll(shownIds).toEqual(pages[0]);
    expect(await pageNumber()).toBe("Page 1");

    // A filter starts again at page 1.
    await next.click();
    await expect.poll(pageNumber).toBe("Page 2");
    await page.getByLabel("Wallet", { exact: true }).selectOption(walletA);
    await expect.poll(pageNumber).toBe("Page 1");
    await expect.poll(shownIds).toEqual((await apiIds(`walletId=${walletA}`)).slice(0, 10));
  });

  it("Export CSV saves every matching transaction (not only the page), amounts in Q and in base units, formulas neutralised", async () => {
    async function download(): Promise<Record<string, string>[]> {
      const [file] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export CSV" }).click()]);
      expect(file.suggestedFilename()).toMatch(/^transactions-\d{4}-\d{2}-\d{2}T\d{6}Z\.csv$/);
      return csvObjects(readFileSync((await file.path())!, "utf8"));
    }

    // Wallet A, on a page of 10: the file holds all of A's (15, and any nonce fill).
    await go(`/transactions?walletId=${walletA}`);
    await page.getByLabel("Rows per page", { exact: true }).selectOption("10");
    await expect.poll(async () => (await shownIds()).length).toBe(10);
    const rows = await download();
    const expected = await apiRecords(`walletId=${walletA}`);
    expect(expected.length).toBeGreaterThanOrEqual(15);
    expect(rows.map((row) => row.id)).toEqual(expected.map((tx) => tx.id));
    for (const [i, tx] of expected.entries()) {
      const row = rows[i]!;
      expect(row).toMatchObject({ status: tx.status, type: tx.type, amountBaseUnits: tx.amount, network: "QUANTUM_SANDBOX" });
      if (tx.assetId !== nativeAssetId) continue;
      expect(row.asset).toBe("Q");
      // The amount in Q is the base units with 18 decimals applied: read back without floating point.
      const [whole, fraction = ""] = row.amount!.split(".");
      expect(BigInt(whole! + fraction.padEnd(18, "0"))).toBe(BigInt(tx.amount));
    }
    const first = rows.find((row) => row.amountBaseUnits === (Q + 234_567_890_123_456_789n).toString())!;
    expect(first.amount).toBe("1.234567890123456789");
    expect(first.statusInWords).toBe(first.status === "PENDING_SIGNATURE" ? "Waiting for signature" : "Waiting its turn");
    expect(rows.filter((row) => row.status === "PENDING_SIGNATURE").every((row) => /^[0-9]+(\.[0-9]+)?$/.test(row.maxFee!))).toBe(true);
    const formula = rows.find((row) => row.id === formulaId)!;
    expect(formula.externalId).toBe(`'${FORMULA_REFERENCE}`);
    expect(formula.note).toBe(`'${FORMULA_NOTE}`);
    expect(formula.amount).toBe("0.000000000000000005");

    // Every row of the organization (24 or more, more than the page), the deposits with their hash.
    await clearFilters();
    await expect.poll(async () => (await shownIds()).length).toBe(10);
    const everything = await download();
    expect(everything.map((row) => row.id)).toEqual(await apiIds(""));
    const deposit = everything.find((row) => row.id === deposits[1])!;
    expect(deposit).toMatchObject({ type: "DEPOSIT", direction: "INBOUND", amount: "0.000000000000000007", amountBaseUnits: "7" });
    expect(deposit.txHash).toMatch(/^0x[0-9a-f]{64}$/);
  });
});
