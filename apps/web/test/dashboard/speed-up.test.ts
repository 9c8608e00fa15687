import { MEMBER_FIXTURE_PASSWORD } from "@qc/core/testing";
import { useTestDatabase } from "@qc/db/testing";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { UnlockedKeystore } from "../../../signer/src/lib";
import {
  callApi,
  createSandboxTransfer,
  enrolledKeystore,
  fixtureOrganization,
  signPendingTransfer,
  waitForTransactionStatus,
  type Person,
} from "./api";
import { launchChromium, logInAs, newDashboardPage, screenshot } from "./browser";
import { startStack, type Stack } from "./stack";

const Q = 10n ** 18n;
const SPIKE = 50_000_000_000n;
const DESTINATION = "0x5b38da6a701c568545dcfcb03fcb875f56beddc4";

// The stack's processes take their environment from this one: a transfer is stuck after 2 s.
process.env.STUCK_AFTER_SECONDS = "2";

/**
 * Speed-up and cancel on chain in Debian's Chromium against the started stack (CONTRACT §17): a
 * transfer sent during a base-fee spike waits BROADCASTING and its page says it is stuck; "Speed
 * up" opens the new REPLACEMENT (linked back to it), "Cancel on chain" the new CANCELLATION. Leaves
 * docs/screenshots/transaction-stuck.png.
 */
describe("speed-up and cancel on chain in a real browser", () => {
  const t = useTestDatabase();
  let stack: Stack;
  let browser: Browser;
  let admin: Person;
  let page: Page;
  let keystore: UnlockedKeystore;
  let transferId: string;

  const go = (path: string) => page.goto(new URL(path, stack.baseUrl).toString());
  const button = (name: string) => page.getByRole("button", { name, exact: true });
  const record = async (id: string) => (await callApi(stack, admin, "GET", `/v1/transactions/${id}`)).json;

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startStack(t.url), launchChromium()]);
    [admin] = await fixtureOrganization(t.db, stack, "Harbour Payments Ltd", ["ADMIN"]);
    keystore = await enrolledKeystore(stack, admin);
    const vault = await callApi(stack, admin, "POST", "/v1/vault/accounts", { name: "Payouts", networkCode: "QUANTUM_SANDBOX" });
    const wallet = await callApi(stack, admin, "POST", `/v1/vault/accounts/${vault.json.id}/wallets/generate`, { label: "hot" });
    await stack.devnet.fund(wallet.json.address, 10n * Q);
    const assets = await callApi(stack, admin, "GET", "/v1/assets?networkCode=QUANTUM_SANDBOX");
    const native = (assets.json.assets as { id: string; kind: string }[]).find((asset) => asset.kind === "NATIVE")!;
    transferId = await createSandboxTransfer(stack, admin, {
      sourceWalletId: wallet.json.id,
      assetId: native.id,
      destinationAddress: DESTINATION,
      amount: Q,
    });
    await waitForTransactionStatus(stack, admin, transferId, "PENDING_SIGNATURE", 30_000);
    // The spike starts after the release: the transfer's fee cap is now below every block's base fee.
    await stack.devnet.rpc("devnet_setFault", [{ kind: "baseFee", baseFeePerGas: `0x${SPIKE.toString(16)}` }]);
    await signPendingTransfer(stack, admin, keystore, transferId);
  }, 600_000);
  afterAll(async () => {
    keystore?.close();
    await browser?.close();
    await stack?.close();
  }, 60_000);

  it("shows a stuck transfer and offers to speed it up or cancel it on chain", async () => {
    page = await newDashboardPage(browser);
    await logInAs(page, stack.baseUrl, admin.email, MEMBER_FIXTURE_PASSWORD);
    await go(`/transactions/${transferId}`);
    await expect.poll(() => page.getByTestId("transaction-status").textContent(), { timeout: 30_000 }).toContain("BROADCASTING");
    await page.getByTestId("stuck-notice").waitFor({ timeout: 30_000 });
    expect(await page.getByTestId("stuck-flag").textContent()).toContain("stuck");
    expect(await button("Speed up").count()).toBe(1);
    expect(await button("Cancel on chain").count()).toBe(1);
    // Before signing only the plain cancel is offered; once sent, only the chain's.
    expect(await button("Cancel transfer").count()).toBe(0);
    await screenshot(page, "transaction-stuck");
  });

  it("'Speed up' opens the new REPLACEMENT, which links back to the transfer", async () => {
    await go(`/transactions/${transferId}`);
    const floor = page.getByLabel("Max fee per gas (Gqwei/gas, optional)", { exact: true });
    // More than nine decimals is more precise than a Qwei: refused beside the field, nothing sent.
    await floor.fill("1.0000000001");
    await expect.poll(() => page.getByText("at most 9 digits after the decimal point").count()).toBe(1);
    expect(await button("Speed up").isDisabled()).toBe(true);
    // One Qwei per gas above the service's cap (1,000 Gqwei/gas by default): refused beside the field, in Gqwei/gas.
    await floor.fill("1000.000000001");
    await button("Speed up").click();
    await expect
      .poll(() => page.getByRole("alert").allTextContents())
      .toContainEqual(expect.stringContaining("at most 1000 Gqwei/gas (MAX_FEE_PER_GAS_CAP)"));
    // Typed in Gqwei per gas, sent in Qwei per gas.
    await page.getByLabel("Max fee per gas (Gqwei/gas, optional)", { exact: true }).fill("80");
    await button("Speed up").click();
    await page.waitForURL((url) => /\/transactions\/[0-9a-f-]{36}$/.test(url.pathname) && !url.pathname.endsWith(transferId));
    const replacementId = page.url().split("/").at(-1)!;
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toContain("Speed-up");
    expect(await page.getByTestId("transaction-status").textContent()).toContain("PENDING_SIGNATURE");
    const back = page.getByTestId("replaces-link").getByRole("link");
    expect(await back.getAttribute("href")).toBe(`/transactions/${transferId}`);
    expect(await record(replacementId)).toMatchObject({
      type: "REPLACEMENT",
      replacesTransactionId: transferId,
      fee: { maxFeePerGas: "80000000000" },
    });
    // Its page shows the fee caps in Gqwei per gas again.
    expect(await page.getByTestId("max-fee-per-gas").textContent()).toBe("max 80 Gqwei/gas");
  });

  it("'Cancel on chain' opens the new CANCELLATION: zero value to the wallet itself at the same nonce", async () => {
    await go(`/transactions/${transferId}`);
    await button("Cancel on chain").click();
    await page.waitForURL((url) => /\/transactions\/[0-9a-f-]{36}$/.test(url.pathname) && !url.pathname.endsWith(transferId));
    const cancellationId = page.url().split("/").at(-1)!;
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toContain("Cancellation");
    const original = await record(transferId);
    expect(await record(cancellationId)).toMatchObject({
      type: "CANCELLATION",
      replacesTransactionId: transferId,
      nonce: original.nonce,
      amount: "0",
      destinationAddress: original.sourceAddress,
    });
    // The spike ends: the transfer itself is mined (nobody signed the new records), and both end naming it.
    await stack.devnet.rpc("devnet_clearFaults");
    await go(`/transactions/${cancellationId}`);
    await expect.poll(() => page.getByTestId("transaction-status").textContent(), { timeout: 60_000 }).toContain("REPLACED");
    const replacedBy = page.getByTestId("replaced-by-link").getByRole("link");
    expect(await replacedBy.getAttribute("href")).toBe(`/transactions/${transferId}`);
    expect(await record(transferId)).toMatchObject({ status: "COMPLETED", stuck: true });
  });
});
