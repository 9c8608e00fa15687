import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MEMBER_FIXTURE_PASSWORD } from "@qc/core/testing";
import { useTestDatabase } from "@qc/db/testing";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callApi, createSandboxTransfer, fixtureOrganization, fundedSandboxWallet, signerKeystore, type Person } from "./api";
import { launchChromium, logInAs, newDashboardPage, screenshot } from "./browser";
import { startStack, type Stack } from "./stack";

const Q = 10n ** 18n;
/** The book's entry (canonical: lower case) and an address that is in no book. */
const EXCHANGE = "0x5b38da6a701c568545dcfcb03fcb875f56beddc4";
const STRANGER = "0xab8483f64d9c6d1ecf9b849ae677dd3315835cb2";
/** An address added while additions need approval. */
const VENDOR = "0x4b20993bc481177ec7e8f571cecae8a9e22c02db";
const LABEL = "Exchange deposit";
/** Short enough to watch an entry go from PENDING to ACTIVE, long enough to see it pending first. */
const ACTIVATION_SECONDS = 6;

/**
 * The address book in Debian's Chromium against the started stack (CONTRACT §13, §16), with
 * ADDRESS_BOOK_ACTIVATION_SECONDS at 6 s: an ADMIN adds an entry on /address-book (the same
 * address again is refused beside the address, 409 ADDRESS_ALREADY_LISTED), sees it PENDING with
 * the time left ticking, then ACTIVE; writes a NOT_ADDRESS_BOOK → BLOCK rule in the policy editor;
 * the new-transfer form offers the entry, and the transfer to it goes through (its page and the
 * list name it by its label) while one to another address is blocked; removing the entry (after a
 * confirmation) takes effect at once. With additions needing approval (set in the page's panel), a
 * new entry waits AWAITING_APPROVAL; the group's APPROVER sees the signer command and rejects it on
 * the page. A VIEWER reads the book with nothing to change. Leaves docs/screenshots/address-book.png.
 */
describe("the address book in a real browser", () => {
  const t = useTestDatabase();
  let stack: Stack;
  let browser: Browser;
  let admin: Person;
  let viewer: Person;
  let approver: Person;
  let page: Page;

  const go = (to: Page, path: string) => to.goto(new URL(path, stack.baseUrl).toString());
  const button = (on: Page, name: string) => on.getByRole("button", { name, exact: true });
  const section = (status: string) => page.getByTestId(`address-book-${status}`);
  const entryRow = (status: string, label = LABEL) => section(status).locator(`[data-testid="address-book-row"][data-label="${label}"]`);

  async function logIn(person: Person): Promise<Page> {
    const opened = await newDashboardPage(browser);
    await logInAs(opened, stack.baseUrl, person.email, MEMBER_FIXTURE_PASSWORD);
    return opened;
  }

  let walletId: string;
  let nativeAssetId: string;

  /** A transfer of 1 Q from the ADMIN's wallet to `destination` through the API; its status once its checks have run. */
  async function transferThroughApi(destination: string): Promise<{ status: string; subStatus: string | null }> {
    const id = await createSandboxTransfer(stack, admin, {
      sourceWalletId: walletId,
      destinationAddress: destination,
      assetId: nativeAssetId,
      amount: Q,
    });
    let record: { status: string; subStatus: string | null } = { status: "SUBMITTED", subStatus: null };
    await expect
      .poll(
        async () => {
          record = (await callApi(stack, admin, "GET", `/v1/transactions/${id}`)).json;
          return record.status;
        },
        { timeout: 30_000 },
      )
      .not.toBe("SUBMITTED");
    return { status: record.status, subStatus: record.subStatus };
  }

  beforeAll(async () => {
    // startStack hands its processes this process's environment.
    process.env.ADDRESS_BOOK_ACTIVATION_SECONDS = String(ACTIVATION_SECONDS);
    [stack, browser] = await Promise.all([startStack(t.url), launchChromium()]);
    delete process.env.ADDRESS_BOOK_ACTIVATION_SECONDS;
    [admin, viewer, approver] = await fixtureOrganization(t.db, stack, "Larkspur Treasury Ltd", ["ADMIN", "VIEWER", "APPROVER"]);

    // The ADMIN's wallet: a key enrolled by a signer holding the ADMIN's API key, funded on the devnet.
    await signerKeystore(stack, admin, join(mkdtempSync(join(tmpdir(), "qc-address-book-")), "keystore.json"), "address book keystore", 1);
    ({ walletId, nativeAssetId } = await fundedSandboxWallet(stack, admin, "Operations", 10n * Q));
  }, 600_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  }, 60_000);

  it("an ADMIN adds an entry: PENDING with the time left, then ACTIVE; the same address again is refused beside the address", async () => {
    page = await logIn(admin);
    await page.getByRole("navigation").getByRole("link", { name: "Address book", exact: true }).click();
    await page.waitForURL(/\/address-book$/);
    const form = page.getByTestId("add-address-book-entry");
    await form.getByLabel("Network", { exact: true }).selectOption("QUANTUM_SANDBOX");
    await form.getByLabel("Address", { exact: true }).fill(EXCHANGE);
    await form.getByLabel("Label", { exact: true }).fill(LABEL);
    await button(page, "Add to address book").click();

    const pending = entryRow("PENDING");
    await pending.waitFor();
    expect(await pending.textContent()).toContain(EXCHANGE);
    expect(await pending.textContent()).toContain("any asset");
    const left = pending.getByTestId("time-left");
    expect(await left.textContent()).toMatch(/^active in [1-6] s$/);
    // It ticks.
    const first = await left.textContent();
    await expect.poll(() => left.textContent(), { timeout: 3_000 }).not.toBe(first);

    // The same address again: 409 ADDRESS_ALREADY_LISTED, in words beside the address.
    await form.getByLabel("Address", { exact: true }).fill(EXCHANGE);
    await form.getByLabel("Label", { exact: true }).fill("Twice");
    await button(page, "Add to address book").click();
    const addressField = form.locator(".field", { has: page.getByLabel("Address", { exact: true }) });
    await expect.poll(() => addressField.getByRole("alert").textContent()).toMatch(/already/i);

    // From activatesAt on, it is ACTIVE (the page reads the book again when the countdown ends).
    await entryRow("ACTIVE").waitFor({ timeout: 20_000 });
    expect(await entryRow("PENDING").count()).toBe(0);
    expect(await entryRow("ACTIVE").getAttribute("data-status")).toBe("ACTIVE");
  });

  it("a NOT_ADDRESS_BOOK → BLOCK rule set in the editor lets the transfer to the entry through, picked in the new-transfer form", async () => {
    await go(page, "/policies");
    await button(page, "Add rule").click();
    await page.getByLabel("Rule ID", { exact: true }).fill("book-only");
    await page.getByLabel("Rule name", { exact: true }).fill("Only to the address book");
    await page.getByLabel("Action", { exact: true }).selectOption("BLOCK");
    await page.getByLabel("Destination", { exact: true }).selectOption("NOT_ADDRESS_BOOK");
    await button(page, "Save policy").click();
    await page.getByText("Saved as version 1.").waitFor();
    // The saved rule reads back as set.
    await page.reload();
    await expect.poll(() => page.getByLabel("Destination", { exact: true }).inputValue()).toBe("NOT_ADDRESS_BOOK");
    // The dry run says whether the destination is in the book, by its label.
    const dryRun = page.getByTestId("policy-dry-run");
    await expect.poll(() => dryRun.getByLabel("Source wallet", { exact: true }).locator("option").count()).toBeGreaterThan(1);
    await dryRun.getByLabel("Source wallet", { exact: true }).selectOption(walletId);
    await dryRun.getByLabel("Destination address", { exact: true }).fill(EXCHANGE);
    await dryRun.getByLabel("Amount", { exact: true }).fill("1");
    await button(page, "Evaluate transfer").click();
    await expect.poll(() => page.getByTestId("dry-run-result").textContent()).toContain("ALLOW");
    expect(await page.getByTestId("dry-run-destination").textContent()).toBe(`The destination is in the address book: ${LABEL}`);
    await dryRun.getByLabel("Destination address", { exact: true }).fill(STRANGER);
    await button(page, "Evaluate transfer").click();
    await expect.poll(() => page.getByTestId("dry-run-result").textContent()).toContain("BLOCK");
    expect(await page.getByTestId("dry-run-destination").textContent()).toBe("The destination is not in the address book.");

    await go(page, "/transactions/new");
    await page.getByLabel("Source vault", { exact: true }).selectOption({ label: "Operations" });
    await expect.poll(() => page.getByLabel("Source wallet", { exact: true }).locator("option").count()).toBeGreaterThan(1);
    await page.getByLabel("Source wallet", { exact: true }).selectOption(walletId);
    const picker = page.getByLabel("From the address book", { exact: true });
    await expect.poll(() => picker.locator("option").allTextContents()).toContainEqual(`${LABEL} · ${EXCHANGE}`);
    await picker.selectOption({ label: `${LABEL} · ${EXCHANGE}` });
    expect(await page.getByLabel("Destination address", { exact: true }).inputValue()).toBe(EXCHANGE);
    expect(await page.getByTestId("destination-in-book").textContent()).toContain(LABEL);
    await page.getByLabel("Amount", { exact: true }).fill("1");
    await button(page, "Create transfer").click();
    await page.waitForURL(/\/transactions\/[0-9a-f-]{36}$/);
    // Past its checks without a block: waiting for the signer.
    await expect.poll(() => page.getByTestId("transaction-status").textContent(), { timeout: 30_000 }).toContain("PENDING_SIGNATURE");
    expect(await page.getByTestId("destination-label").textContent()).toContain(LABEL);

    // The list names it too; an address outside the book is blocked by the same rule.
    await go(page, "/transactions");
    await expect.poll(() => page.getByTestId("destination-label").first().textContent()).toBe(LABEL);
    expect(await transferThroughApi(STRANGER)).toEqual({ status: "BLOCKED", subStatus: "BLOCKED_BY_POLICY" });
    // Typing an address stays possible: the form does not insist on the book.
    await go(page, "/transactions/new");
    await page.getByLabel("Destination address", { exact: true }).fill(STRANGER);
    expect(await page.getByTestId("destination-in-book").count()).toBe(0);
  });

  it("a pending entry shows beside the active one; removing an entry, after a confirmation, takes effect at once", async () => {
    await go(page, "/address-book");
    const form = page.getByTestId("add-address-book-entry");
    await form.getByLabel("Address", { exact: true }).fill(STRANGER);
    await form.getByLabel("Label", { exact: true }).fill("Payroll provider");
    await form.getByRole("checkbox", { name: /^Q · / }).check();
    await button(page, "Add to address book").click();
    await entryRow("PENDING", "Payroll provider").waitFor();
    await entryRow("ACTIVE").waitFor();
    await screenshot(page, "address-book");

    // The confirmation is accepted by the page's dialog handler.
    await entryRow("ACTIVE")
      .getByRole("button", { name: `Remove ${LABEL}`, exact: true })
      .click();
    await entryRow("REMOVED").waitFor();
    expect(await entryRow("ACTIVE").count()).toBe(0);
    expect(await entryRow("REMOVED").getByRole("button").count()).toBe(0);
    // At once: the same rule now blocks a transfer to it, and the form no longer offers it.
    expect(await transferThroughApi(EXCHANGE)).toEqual({ status: "BLOCKED", subStatus: "BLOCKED_BY_POLICY" });
    await go(page, "/transactions/new");
    await page.getByLabel("Destination address", { exact: true }).fill(EXCHANGE);
    await page.getByLabel("From the address book", { exact: true }).waitFor();
    expect(await page.getByLabel("From the address book", { exact: true }).locator("option").allTextContents()).not.toContainEqual(
      `${LABEL} · ${EXCHANGE}`,
    );
    expect(await page.getByTestId("destination-in-book").count()).toBe(0);
  });

  it("with additions needing approval an entry waits AWAITING_APPROVAL; the group's approver sees the signer command and rejects it here", async () => {
    const group = await callApi(stack, admin, "POST", "/v1/approver-groups", { name: "Book approvers", memberIds: [approver.userId] });
    expect(group.status).toBe(201);
    await go(page, "/address-book");
    const setting = page.getByTestId("address-book-setting");
    await expect.poll(() => setting.getByLabel("Approver group", { exact: true }).locator("option").count()).toBeGreaterThan(1);
    await setting.getByLabel("Approver group", { exact: true }).selectOption(group.json.id);
    await setting.getByLabel("Approvals needed", { exact: true }).fill("1");
    await button(page, "Require approval").click();
    await expect.poll(() => page.getByTestId("address-book-setting").textContent()).toContain("On:");

    const form = page.getByTestId("add-address-book-entry");
    await form.getByLabel("Address", { exact: true }).fill(VENDOR);
    await form.getByLabel("Label", { exact: true }).fill("Vendor");
    await button(page, "Add to address book").click();
    const waiting = entryRow("AWAITING_APPROVAL", "Vendor");
    await waiting.waitFor();
    await expect.poll(() => waiting.textContent()).toContain("Book approvers: 0 of 1 approval(s)");
    // The ADMIN who added it is not in the group: nothing to decide.
    expect(await waiting.getByTestId("reject-entry").count()).toBe(0);

    const approverPage = await logIn(approver);
    await go(approverPage, "/address-book");
    const row = approverPage.getByTestId("address-book-AWAITING_APPROVAL").locator('[data-label="Vendor"]');
    await row.waitFor();
    await expect.poll(() => row.textContent()).toMatch(/signer approve-entry [0-9a-f-]{36}/);
    await row.getByLabel("Reason for rejecting Vendor", { exact: true }).fill("unknown vendor");
    await row.getByRole("button", { name: "Reject Vendor", exact: true }).click();
    const removed = approverPage.getByTestId("address-book-REMOVED").locator('[data-label="Vendor"]');
    await removed.waitFor();
    expect(await removed.textContent()).toContain("unknown vendor");

    // Off again: the next addition is PENDING at once.
    await page.reload();
    await button(page, "Turn off").click();
    await expect.poll(() => page.getByTestId("address-book-setting").textContent()).toContain("Off:");
  });

  it("a VIEWER reads the address book from the navigation, with nothing to add or remove", async () => {
    const viewerPage = await logIn(viewer);
    await viewerPage.getByRole("navigation").getByRole("link", { name: "Address book", exact: true }).click();
    await viewerPage.waitForURL(/\/address-book$/);
    await viewerPage.getByTestId("address-book-REMOVED").locator(`[data-label="${LABEL}"]`).waitFor();
    expect(await viewerPage.getByTestId("add-address-book-entry").count()).toBe(0);
    expect(await viewerPage.getByRole("button", { name: /^Remove / }).count()).toBe(0);
    expect(await viewerPage.getByText("your role reads them").count()).toBe(1);
  });
});
