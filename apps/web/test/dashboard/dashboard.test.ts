import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startBoss } from "@qc/core";
import { useTestDatabase } from "@qc/db/testing";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// The signer's library, as a customer's signer uses it (apps/signer exports no package entry for
// @qc/web to depend on; it is reached by path, like the signer's tests reach this app's harness).
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
import { launchChromium, screenshot } from "./browser";
import { fetchText, startStack, type Stack } from "./stack";

const ROOT = fileURLToPath(new URL("../../../../", import.meta.url));
const PASSWORD = "correct horse battery staple";
const OPERATOR_PASSWORD = "operator console passphrase";
/** Lowest scrypt cost the keystore accepts: the test unlocks it in milliseconds. */
const FAST_KDF = { n: 2 ** 14, r: 8, p: 1 };
const Q = 10n ** 18n;

/**
 * The dashboard in Debian's Chromium against the started stack: a new organization goes from
 * signup to a completed transfer with the browser and the signer only; a policy written in the
 * editor blocks a transfer; the operators' console shows the queues. Each main page leaves a
 * screenshot under docs/screenshots (shown in docs/dashboard.md).
 */
describe("the dashboard in a real browser", () => {
  const t = useTestDatabase();
  let stack: Stack;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let keystore: UnlockedKeystore;
  const email = `founder-${Date.now().toString(36)}@example.com`;
  const shared: { apiKey?: string; vaultId?: string; walletId?: string; walletAddress?: string } = {};

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startStack(t.url), launchChromium()]);
    context = await browser.newContext({
      ignoreHTTPSErrors: true,
      viewport: { width: 1280, height: 900 },
      locale: "en-GB",
      timezoneId: "UTC",
      colorScheme: "light",
    });
    page = await context.newPage();
    page.setDefaultTimeout(20_000);
    page.on("dialog", (dialog) => void dialog.accept());
  }, 600_000);
  afterAll(async () => {
    keystore?.close();
    await browser?.close();
    await stack?.close();
  }, 60_000);

  const go = (path: string) => page.goto(new URL(path, stack.baseUrl).toString());
  const field = (label: string) => page.getByLabel(label, { exact: true });
  const button = (name: string) => page.getByRole("button", { name, exact: true });

  it("signs up, verifies the address from the dev mailbox, logs in and passes KYC", async () => {
    await go("/signup");
    await field("Organization name").fill("Acme Treasury Ltd");
    await field("Your name").fill("Alice Martin");
    await field("Email").fill(email);
    await field("Password").fill("too short");
    await button("Sign up").click();
    // The API's own message, next to the field it is about.
    await expect.poll(() => page.getByRole("alert").allTextContents()).toContain("at least 12 characters");
    await field("Password").fill(PASSWORD);
    await screenshot(page, "signup");
    await button("Sign up").click();
    await page.waitForURL(/\/signup\/check-email/);
    await expect.poll(() => page.getByRole("status").first().textContent()).toContain(email);

    await page.getByRole("link", { name: "dev mailbox" }).click();
    const link = page.locator('[data-testid="dev-email"] a[href*="/verify-email?token="]').first();
    await link.waitFor();
    await screenshot(page, "dev-mailbox");
    await link.click();
    await button("Verify email").click();
    await expect.poll(() => page.getByTestId("verify-result").textContent()).toContain(`Email verified for ${email}`);
    await page.getByRole("link", { name: "Log in" }).click();

    await page.waitForURL(/\/login/);
    await expect.poll(() => field("Email").inputValue()).toBe(email);
    await field("Password").fill("not the password at all");
    await button("Log in").click();
    await expect.poll(() => page.getByRole("alert").allTextContents()).toContain("invalid email or password");
    await field("Password").fill(PASSWORD);
    await screenshot(page, "login");
    await button("Log in").click();

    await page.waitForURL((url) => url.pathname === "/");
    await page.getByTestId("value-moving-banner").waitFor();
    await button("Start identity verification").click();
    // The sandbox provider approves at once; the page polls and the banner goes by itself.
    await page.getByTestId("value-moving-banner").waitFor({ state: "detached", timeout: 30_000 });
    await expect.poll(() => page.locator('[data-testid="onboarding-checklist"] li[data-done="true"]').count()).toBeGreaterThanOrEqual(3);
  });

  it("creates an API key whose secret is shown once, and enrolls signer keys with it", async () => {
    await go("/api-keys");
    await page.getByText("No API keys yet.").waitFor();
    await field("Label").fill("signer");
    // No scope ticked is not a silent full-access key: the form says so and will not submit.
    const scope = (name: string) => page.getByRole("checkbox", { name: new RegExp(`^${name}`) });
    await scope("write:").uncheck();
    await expect.poll(() => page.getByRole("alert").allTextContents()).toContain("Tick at least one scope, or Full access.");
    expect(await button("Create API key").isDisabled()).toBe(true);
    // The signer's key: the signer scope only (an integration's write key cannot enroll).
    await scope("signer:").check();
    await button("Create API key").click();
    const secret = (await page.getByTestId("secret-value").textContent())!.trim();
    expect(secret).toMatch(/^qc_[0-9a-f]{32}:[0-9a-f]{64}$/);
    await expect.poll(() => page.getByText("It is shown only once").count()).toBe(1);
    await screenshot(page, "api-keys");
    await button("I have stored the secret").click();
    await page.getByTestId("api-key-row").first().waitFor();
    expect(await page.content()).not.toContain(secret.split(":")[1]);
    await page.reload();
    await page.getByTestId("api-key-row").first().waitFor();
    expect(await page.content()).not.toContain(secret.split(":")[1]);
    shared.apiKey = secret;

    keystore = await createKeystore(
      join(mkdtempSync(join(tmpdir(), "qc-dashboard-signer-")), "keystore.json"),
      "dashboard test keystore passphrase",
      { kdf: FAST_KDF },
    );
    const api = signerApi(createServiceClient({ url: stack.baseUrl, apiKey: secret, ca: stack.cert }));
    const enrolled = await enrollKeys({ keystore, api, tenantId: await api.tenantId(), count: 2 });
    expect(enrolled.available).toBe(2);
  });

  it("creates a vault and generates a wallet whose address, QR code and live balance the wallet page shows", async () => {
    await go("/vaults");
    await page.getByText("No vaults yet").waitFor();
    await field("Vault name").fill("Treasury");
    await button("Add metadata entry").click();
    await field("Key 1").fill("desk");
    await field("Value 1").fill("treasury");
    await button("Create vault").click();
    await page.waitForURL(/\/vaults\/[0-9a-f-]{36}$/);
    shared.vaultId = page.url().split("/").at(-1)!;
    await page.getByRole("heading", { name: "Treasury", level: 1 }).waitFor();

    await field("Wallet label").first().fill("hot wallet");
    await button("Generate wallet").click();
    await page.getByTestId("wallet-row").first().waitFor();
    await screenshot(page, "vault");
    await page.getByTestId("wallet-row").first().getByRole("link").first().click();
    await page.waitForURL(/\/wallets\/[0-9a-f-]{36}$/);
    shared.walletId = page.url().split("/").at(-1)!;
    const address = (await page.getByTestId("wallet-address").textContent())!.trim();
    expect(address).toBe(keystore.keys[0]!.address);
    expect(await page.getByTestId("wallet-type").textContent()).toBe("SIGNER_MANAGED");
    await page.getByTestId("address-qr").waitFor();
    shared.walletAddress = address;

    await stack.devnet.fund(address as `0x${string}`, 5n * Q);
    // Decimals applied, the raw value on hover; read live (the page polls).
    const balance = page.locator('[data-testid="balance-row"][data-asset="Q"] .amount');
    await expect.poll(() => balance.textContent(), { timeout: 20_000 }).toBe("5 Q");
    expect(await balance.getAttribute("title")).toBe(`${5n * Q} base units`);
    await screenshot(page, "wallet");

    await go("/vaults");
    await page.getByTestId("vault-row").first().waitFor();
    await screenshot(page, "vaults");
  });

  it("sends a transfer from the form, signed by the signer library, and the detail page reaches COMPLETED by itself", async () => {
    await go(`/wallets/${shared.walletId}`);
    await page.getByRole("link", { name: "New transfer from this wallet" }).click();
    await page.waitForURL(/\/transactions\/new/);
    const destination = "0x5b38da6a701c568545dcfcb03fcb875f56beddc4";
    await expect.poll(() => field("Source wallet").inputValue()).toBe(shared.walletId);
    await field("Destination address").fill(destination);
    await field("Amount").fill("1.25");
    await field("External ID").fill("payout-0001");
    await screenshot(page, "transfer-new");
    await button("Create transfer").click();
    await page.waitForURL(/\/transactions\/[0-9a-f-]{36}$/);
    const id = page.url().split("/").at(-1)!;
    const status = page.getByTestId("transaction-status");
    await expect.poll(() => status.textContent(), { timeout: 30_000 }).toContain("PENDING_SIGNATURE");
    expect(await page.getByTestId("transaction-amount").locator(".amount").textContent()).toBe("1.25 Q");
    // CONTRACT §20: the simulation made on entering PENDING_SIGNATURE, its balance changes signed.
    expect(await page.getByTestId("simulation-outcome").textContent()).toMatch(/^SUCCESS · block \d+ · gas used 21000 · simulated /);
    const changes = page.getByTestId("simulation-balance-changes");
    expect(await changes.getByRole("row", { name: new RegExp(destination) }).textContent()).toBe(`${destination}+1.25 Q`);
    expect(await changes.getByRole("row", { name: new RegExp(shared.walletAddress!, "i") }).textContent()).toMatch(
      /^0x[0-9a-f]{40}−1\.250[0-9]*[1-9] Q$/,
    );

    // The customer's signer: the pending request, rebuilt and verified from the shown fields, signed.
    const api = signerApi(createServiceClient({ url: stack.baseUrl, apiKey: shared.apiKey!, ca: stack.cert }));
    const { transactions } = await api.pendingTransactions();
    const pending = transactions.find((tx) => tx.id === id);
    expect(pending).toBeDefined();
    const verified = verifySigningRequest(
      readTransfer({ transaction: pending, assets: await api.assets("QUANTUM_SANDBOX"), findKey: (a) => keystore.findKey(a) }),
    );
    expect(verified.destinationAddress.toLowerCase()).toBe(destination);
    await api.submitSignature(id, signTransfer(verified));

    await expect.poll(() => status.textContent(), { timeout: 60_000, interval: 500 }).toContain("COMPLETED");
    expect(await page.getByTestId("chain-tx-hash").textContent()).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await page.getByTestId("confirmations").textContent()).toMatch(/^(\d+) \(2 required\)$/);
    // The timeline is its own read: once the status is terminal it is read again (and no more
    // polled), so it catches up with the status instead of stopping where its last poll was.
    const timeline = page.getByTestId("timeline");
    await expect.poll(() => timeline.textContent(), { timeout: 10_000 }).toContain("COMPLETED · from CONFIRMING");
    for (const step of ["SUBMITTED", "PENDING_SIGNATURE", "SIGNED", "BROADCASTING", "CONFIRMING", "COMPLETED"])
      expect(await timeline.textContent()).toContain(step);
    await screenshot(page, "transaction");

    await go("/transactions");
    await field("External ID").fill("payout-0001");
    await button("Search").click();
    await expect.poll(() => page.getByTestId("transaction-row").count()).toBe(1);
    await screenshot(page, "transactions");
  });

  it("blocks a transfer with a rule written in the policy editor, after the dry run says so", async () => {
    await go("/policies");
    await button("Add rule").click();
    await field("Rule ID").fill("cap-2q");
    await field("Rule name").fill("Nothing above 2 Q");
    await field("Amount above").fill("2x");
    await button("Save policy").click();
    // Refused before it is sent, next to the field; the amount is in Q (no asset chosen).
    await expect
      .poll(() => page.getByRole("alert").allTextContents())
      .toContain("in Q: enter a number such as 1.5 (digits and one decimal point)");
    await field("Amount above").fill("2");
    await button("Save policy").click();
    await page.getByText("Saved as version 1.").waitFor();

    const dryRun = page.getByTestId("policy-dry-run");
    await expect.poll(() => dryRun.getByLabel("Source wallet", { exact: true }).locator("option").count()).toBeGreaterThan(1);
    await dryRun.getByLabel("Source wallet", { exact: true }).selectOption(shared.walletId!);
    await dryRun.getByLabel("Destination address", { exact: true }).fill("0x5b38da6a701c568545dcfcb03fcb875f56beddc4");
    await dryRun.getByLabel("Amount", { exact: true }).fill("3");
    await button("Evaluate transfer").click();
    await expect.poll(() => page.getByTestId("dry-run-result").textContent()).toContain("BLOCK");
    expect(await page.getByTestId("dry-run-result").textContent()).toContain("cap-2q");
    await screenshot(page, "policies");

    await go(`/transactions/new?networkCode=QUANTUM_SANDBOX&vaultId=${shared.vaultId}&sourceWalletId=${shared.walletId}`);
    await expect.poll(() => field("Source wallet").inputValue()).toBe(shared.walletId);
    await field("Destination address").fill("0x5b38da6a701c568545dcfcb03fcb875f56beddc4");
    await field("Amount").fill("3");
    await button("Create transfer").click();
    await page.waitForURL(/\/transactions\/[0-9a-f-]{36}$/);
    await expect.poll(() => page.getByTestId("transaction-status").textContent(), { timeout: 30_000 }).toContain("BLOCKED");
    expect(await page.getByTestId("transaction-status").textContent()).toContain("BLOCKED_BY_POLICY");
    expect(await page.getByTestId("policy-result").textContent()).toContain("cap-2q");
    await screenshot(page, "transaction-blocked");
  });

  it("shows the other pages: overview, webhooks, settings, audit log, and the overview at phone width", async () => {
    await go("/");
    await expect.poll(() => page.locator('[data-testid="onboarding-checklist"] li[data-done="true"]').count()).toBe(6);
    await page.getByTestId("transaction-row").first().waitFor();
    await screenshot(page, "overview");
    await go("/webhooks");
    await page.getByText("No webhook endpoints yet.").waitFor();
    await screenshot(page, "webhooks");
    await go("/settings");
    await page.getByText("Empty: API keys are accepted from any address.").waitFor();
    await screenshot(page, "settings");
    await go("/audit");
    await page.getByTestId("audit-row").first().waitFor();
    await field("Action").fill("policy.replaced");
    await button("Filter").click();
    await expect.poll(() => page.getByTestId("audit-row").count()).toBe(1);
    await screenshot(page, "audit");

    const phone = await context.newPage();
    await phone.setViewportSize({ width: 390, height: 844 });
    await phone.goto(new URL("/", stack.baseUrl).toString());
    await expect.poll(() => phone.locator('[data-testid="onboarding-checklist"] li[data-done="true"]').count()).toBe(6);
    await phone.getByTestId("transaction-row").first().waitFor();
    // Nothing wider than the screen but the tables, which scroll inside their own box.
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(phone, "overview-phone");
    await phone.close();
  });

  it("keeps operators apart: a tenant session does not open the console; the operator made by the command sees the queues", async () => {
    // A job the daemon refuses for good (its payload is invalid): dead-lettered for operators.
    const boss = await startBoss({ url: t.url, role: "web" });
    const deadJobId = await boss.send("email.send", { not: "an email id" });
    await boss.stop({ graceful: false, close: true });

    await go("/operators");
    await page.waitForURL(/\/operators\/login/);
    const created = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
      execFile(
        process.execPath,
        ["--import", "tsx", "scripts/create-operator.ts", "--email", "ops@example.com", "--name", "Ops"],
        { cwd: ROOT, env: { ...stack.env, OPERATOR_PASSWORD } },
        (error, stdout, stderr) => resolve({ code: error ? 1 : 0, stdout, stderr }),
      ),
    );
    expect(created.stderr).toBe("");
    expect(created.stdout).toMatch(/^Created operator ops@example.com/);

    // The tenant's credentials are not an operator's.
    await field("Email").fill(email);
    await field("Password").fill(PASSWORD);
    await button("Log in").click();
    await expect.poll(() => page.getByRole("alert").allTextContents()).toContain("invalid email or password");
    await field("Email").fill("ops@example.com");
    await field("Password").fill(OPERATOR_PASSWORD);
    await button("Log in").click();
    await page.waitForURL((url) => url.pathname === "/operators");

    const row = (queue: string) => page.locator(`[data-testid="queue-row"][data-queue="${queue}"]`);
    for (const queue of [
      "email.send",
      "kyc.sandbox-decide",
      "transfers.check",
      "transfers.broadcast",
      "transfers.watch",
      "webhooks.deliver",
    ])
      await row(queue).waitFor();
    await expect.poll(() => row("email.send").locator('[data-count="deadLettered"]').textContent(), { timeout: 20_000 }).toBe("1");
    await page.locator('[data-testid="daemon-row"]').first().waitFor();
    expect(await page.locator('[data-testid="daemon-row"]').first().textContent()).toContain("RUNNING");
    const failed = page.locator('[data-testid="failed-job-row"]').filter({ hasText: "email.send" }).first();
    await failed.waitFor();
    expect(await failed.textContent()).toContain("invalid payload");
    expect(await page.getByTestId("queue-chart").count()).toBeGreaterThan(5);
    await screenshot(page, "operators");
    await failed.getByRole("button", { name: "Cancel job" }).click();
    await expect.poll(() => row("email.send").locator('[data-count="deadLettered"]').textContent()).toBe("0");
    expect(deadJobId).toBeTruthy();

    // The same figures for Prometheus, behind the configured token.
    expect((await fetchText(stack, "/metrics")).status).toBe(401);
    expect((await fetchText(stack, "/metrics", { authorization: "Bearer wrong-token-wrong-token" })).status).toBe(401);
    const metrics = await fetchText(stack, "/metrics", { authorization: `Bearer ${stack.metricsToken}` });
    expect(metrics.status).toBe(200);
    expect(metrics.headers["content-type"]).toContain("text/plain");
    expect(metrics.text).toMatch(/^qc_queue_jobs\{queue="transfers\.watch",state="queued"\} \d+$/m);
    expect(metrics.text).toMatch(/^qc_queue_jobs_last_hour\{queue="transfers\.check",event="completed"\} [1-9]\d*$/m);
    expect(metrics.text).toMatch(/^qc_daemon_up\{instance="[^"]+",hostname="[^"]+"\} 1$/m);
    // The stack's daemon follows both networks for deposits from its start (docs/deposits.md).
    expect(metrics.text).toMatch(/^qc_deposits_blocks_behind\{network="QUANTUM_SANDBOX"\} \d+$/m);
  });
});
