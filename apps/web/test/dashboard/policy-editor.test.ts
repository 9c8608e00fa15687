import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MEMBER_FIXTURE_PASSWORD } from "@qc/core/testing";
import { useTestDatabase } from "@qc/db/testing";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callApi, fixtureOrganization, fundedSandboxWallet, signerKeystore, type Person } from "./api";
import { launchChromium, logInAs, newDashboardPage, screenshot } from "./browser";
import { startStack, type Stack } from "./stack";

const Q = 10n ** 18n;
const DESTINATION = "0x5b38da6a701c568545dcfcb03fcb875f56beddc4";
const ENTRY = "Exchange deposit";

/**
 * The policy editor in the asset's units and the pickers, in Debian's Chromium against the
 * started stack: an ADMIN types "2" (Q) as a rule's "Amount above" and the API stores
 * 2000000000000000000, read back as "2"; vaults, wallets and assets are chosen by name (and one
 * vault by a pasted id) and the stored rule holds their ids; the dry run picks the wallet from a
 * list. The new-transfer form makes a transfer picked from lists (vault, wallet, asset, an
 * address-book entry) of "1.5" Q, recorded as 1500000000000000000. Leaves
 * docs/screenshots/policy-editor.png.
 */
describe("the policy editor and the pickers in a real browser", () => {
  const t = useTestDatabase();
  let stack: Stack;
  let browser: Browser;
  let admin: Person;
  let page: Page;
  let walletId: string;
  let nativeAssetId: string;
  let operationsVaultId: string;
  let reserveVaultId: string;

  const go = (path: string) => page.goto(new URL(path, stack.baseUrl).toString());
  const button = (name: string) => page.getByRole("button", { name, exact: true });
  const field = (label: string) => page.getByLabel(label, { exact: true });
  /** Adds what `text` names to a rule's picker (the box labelled "Add to …"), with Enter as a keyboard user would. */
  async function pick(legend: string, text: string) {
    await field(`Add to ${legend.toLowerCase()}`).fill(text);
    await field(`Add to ${legend.toLowerCase()}`).press("Enter");
  }
  const chosen = (legend: string) => page.getByRole("list", { name: `${legend} chosen`, exact: true });

  beforeAll(async () => {
    // startStack hands its processes this process's environment: entries are ACTIVE at once.
    process.env.ADDRESS_BOOK_ACTIVATION_SECONDS = "0";
    [stack, browser] = await Promise.all([startStack(t.url), launchChromium()]);
    delete process.env.ADDRESS_BOOK_ACTIVATION_SECONDS;
    [admin] = await fixtureOrganization(t.db, stack, "Pickering Treasury Ltd", ["ADMIN"]);
    await signerKeystore(
      stack,
      admin,
      join(mkdtempSync(join(tmpdir(), "qc-policy-editor-")), "keystore.json"),
      "policy editor keystore",
      1,
    );
    ({ walletId, nativeAssetId } = await fundedSandboxWallet(stack, admin, "Operations", 10n * Q));
    operationsVaultId = (await callApi(stack, admin, "GET", `/v1/wallets/${walletId}`)).json.vaultId;
    const reserve = await callApi(stack, admin, "POST", "/v1/vault/accounts", { name: "Reserve", networkCode: "QUANTUM_SANDBOX" });
    expect(reserve.status).toBe(201);
    reserveVaultId = reserve.json.id;
    const entry = await callApi(stack, admin, "POST", "/v1/address-book", {
      networkCode: "QUANTUM_SANDBOX",
      address: DESTINATION,
      label: ENTRY,
    });
    expect(entry.status, JSON.stringify(entry.json)).toBe(201);
  }, 600_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  }, 60_000);

  it('round-trips "2" Q to 2000000000000000000 through the API, with vaults, wallets and assets picked by name or pasted', async () => {
    page = await newDashboardPage(browser);
    await logInAs(page, stack.baseUrl, admin.email, MEMBER_FIXTURE_PASSWORD);
    await go("/policies");
    await button("Add rule").click();
    await field("Rule ID").fill("cap-2q");
    await field("Rule name").fill("Nothing above 2 Q from Operations");
    // No asset chosen yet: the hint says the amount is in Q; a malformed amount is refused in those words.
    await field("Amount above").fill("2x");
    expect(
      await page
        .locator(".field", { has: field("Amount above") })
        .locator(".hint")
        .textContent(),
    ).toMatch(/^No asset chosen: in Q/);
    await button("Save policy").click();
    await expect
      .poll(() => page.getByRole("alert").allTextContents())
      .toContain("in Q: enter a number such as 1.5 (digits and one decimal point)");
    await field("Amount above").fill("2");
    await expect.poll(() => page.getByTestId("amount-base-units").textContent()).toBe(String(2n * Q));

    // By name: the vault, the wallet (its label), the asset (a name shared by two networks' natives is refused as ambiguous).
    await pick("Source vaults", "Reserve");
    await pick("Source wallets", "hot");
    await pick("Assets", "Q");
    await expect.poll(() => page.getByRole("alert").allTextContents()).toContainEqual(expect.stringMatching(/^2 match "Q"/));
    const assets = (await callApi(stack, admin, "GET", "/v1/assets?networkCode=QUANTUM_SANDBOX")).json.assets as {
      id: string;
      name: string;
    }[];
    const native = assets.find((a) => a.id === nativeAssetId)!;
    await pick("Assets", `Q · ${native.name} (QUANTUM_SANDBOX, 18 decimals)`);
    // A pasted id still works, and reads as the vault's name once in the list.
    await pick("Source vaults", operationsVaultId.toUpperCase());
    await expect.poll(() => chosen("Source vaults").textContent()).toContain("Operations (QUANTUM_SANDBOX)");
    expect(await chosen("Source vaults").textContent()).toContain("Reserve (QUANTUM_SANDBOX)");
    expect(await chosen("Source wallets").textContent()).toMatch(/^hot · 0x[0-9a-f]{6}…[0-9a-f]{4} in Operations/);
    expect(
      await page
        .locator(".field", { has: field("Amount above") })
        .locator(".hint")
        .textContent(),
    ).toMatch(/^In Q \(18 decimals\)/);
    await button("Save policy").click();
    await page.getByText("Saved as version 1.").waitFor();

    const stored = await callApi(stack, admin, "GET", "/v1/policies");
    expect(stored.json.rules).toEqual([
      {
        id: "cap-2q",
        name: "Nothing above 2 Q from Operations",
        action: "BLOCK",
        match: {
          sourceVaultIds: [reserveVaultId, operationsVaultId],
          sourceWalletIds: [walletId],
          assetIds: [nativeAssetId],
          amountAbove: "2000000000000000000",
        },
      },
    ]);

    // And back: the stored base units read as "2", the ids by their names.
    await page.reload();
    await expect.poll(() => field("Amount above").inputValue()).toBe("2");
    expect(await page.getByTestId("amount-base-units").getAttribute("title")).toBe(`${2n * Q} base units`);
    await expect.poll(() => chosen("Source wallets").textContent()).toMatch(/^hot · /);
    expect(await chosen("Assets").textContent()).toContain(`Q · ${native.name}`);
    // A chosen item is removed with its own button, reachable by keyboard.
    await chosen("Source vaults").getByRole("button", { name: "Remove Reserve (QUANTUM_SANDBOX) from source vaults" }).focus();
    await page.keyboard.press("Space");
    expect(await chosen("Source vaults").textContent()).not.toContain("Reserve");
    await button("Save policy").click();
    await page.getByText("Saved as version 2.").waitFor();
    expect((await callApi(stack, admin, "GET", "/v1/policies")).json.rules[0].match.sourceVaultIds).toEqual([operationsVaultId]);

    // The dry run picks the wallet from a list and takes Q: 3 is above the rule's 2, 1.5 is not.
    const dryRun = page.getByTestId("policy-dry-run");
    await dryRun.getByLabel("Source wallet", { exact: true }).selectOption({ label: (await walletLabel())! });
    await dryRun.getByLabel("From the address book", { exact: true }).selectOption({ label: `${ENTRY} · ${DESTINATION}` });
    expect(await dryRun.getByLabel("Destination address", { exact: true }).inputValue()).toBe(DESTINATION);
    await dryRun.getByLabel("Amount", { exact: true }).fill("3");
    await button("Evaluate transfer").click();
    await expect.poll(() => page.getByTestId("dry-run-result").textContent()).toContain("cap-2q");
    await dryRun.getByLabel("Amount", { exact: true }).fill("1.5");
    await button("Evaluate transfer").click();
    await expect.poll(() => page.getByTestId("dry-run-result").textContent()).toContain("by the default action");
    await screenshot(page, "policy-editor");
  });

  /** The dry run's option for the funded wallet, as the list names it. */
  async function walletLabel() {
    const options = page.getByTestId("policy-dry-run").getByLabel("Source wallet", { exact: true }).locator("option");
    await expect.poll(() => options.count()).toBeGreaterThan(1);
    return options.filter({ hasText: /^hot · / }).textContent();
  }

  it('the new-transfer form makes a transfer picked from lists, "1.5" Q recorded as 1500000000000000000', async () => {
    await go("/transactions/new");
    await field("Source vault").selectOption({ label: "Operations" });
    const wallet = field("Source wallet");
    await expect.poll(() => wallet.locator("option").count()).toBeGreaterThan(1);
    await wallet.selectOption({
      label: (await wallet
        .locator("option")
        .filter({ hasText: /^hot · / })
        .textContent())!,
    });
    await expect.poll(() => field("Asset").locator("option").count()).toBeGreaterThan(1);
    await field("Asset").selectOption({ label: (await field("Asset").locator("option").filter({ hasText: /^Q · / }).textContent())! });
    const book = field("From the address book");
    await expect.poll(() => book.locator("option").allTextContents()).toContainEqual(`${ENTRY} · ${DESTINATION}`);
    await book.selectOption({ label: `${ENTRY} · ${DESTINATION}` });
    await field("Amount").fill("1.5");
    await expect.poll(() => page.getByTestId("amount-base-units").textContent()).toBe("1500000000000000000");
    await button("Create transfer").click();
    await page.waitForURL(/\/transactions\/[0-9a-f-]{36}$/);
    const id = page.url().split("/").at(-1)!;
    const record = (await callApi(stack, admin, "GET", `/v1/transactions/${id}`)).json;
    expect(record).toMatchObject({
      networkCode: "QUANTUM_SANDBOX",
      sourceWalletId: walletId,
      assetId: nativeAssetId,
      amount: "1500000000000000000",
    });
    expect(record.destinationAddress.toLowerCase()).toBe(DESTINATION);
  });
});
