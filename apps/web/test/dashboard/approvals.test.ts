import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { MEMBER_FIXTURE_PASSWORD } from "@qc/core/testing";
import { useTestDatabase } from "@qc/db/testing";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// The signer's library, as a customer's signer uses it (reached by path, like dashboard.test.ts).
import { writeProfile } from "../../../signer/src/lib";
import { createSandboxTransfer, fixtureOrganization, fundedSandboxWallet, signerKeystore, type Person } from "./api";
import { launchChromium, logInAs, newDashboardPage, SCREENSHOTS, screenshot } from "./browser";
import { startStack, type Stack } from "./stack";

const ROOT = fileURLToPath(new URL("../../../../", import.meta.url));
const SIGNER_MAIN = join(ROOT, "apps/signer/src/main.ts");
const PASSPHRASE = "approvals dashboard test keystore passphrase";
const Q = 10n ** 18n;
const DESTINATION = "0x5b38da6a701c568545dcfcb03fcb875f56beddc4";
const GROUP = "Treasury approvers";

/**
 * Approval quorums in Debian's Chromium against the started stack (CONTRACT §13, §15): an ADMIN
 * makes an approver group of two members and a REQUIRE_APPROVAL rule in the UI (the dry run names
 * the requirement; deleting the group the policy names, or shrinking it below the quorum, is
 * refused in words); a transfer created through the API waits in AWAITING_APPROVAL and its page
 * shows the requirement; each approver
 * sees it on /approvals, approves with the reference signer's `approve` (a real process, the
 * typed confirmation on standard input) and no longer sees it; the transfer is then signed with
 * the signer's `review` and reaches COMPLETED, its page showing both decisions. An approver rejects
 * another transfer from its page with a reason (REJECTED / REJECTED_BY_APPROVER). A VIEWER has no
 * Approvals page in the navigation. Leaves docs/screenshots/approvals.png and transaction-approvals.png.
 */
describe("approval quorums in a real browser", () => {
  const t = useTestDatabase();
  let stack: Stack;
  let browser: Browser;
  let admin: Person;
  let approvers: [Person, Person];
  let viewer: Person;
  let walletId: string;
  let nativeAssetId: string;
  let transactionId: string;
  const homes = new Map<string, string>();

  const go = (page: Page, path: string) => page.goto(new URL(path, stack.baseUrl).toString());
  const button = (page: Page, name: string) => page.getByRole("button", { name, exact: true });

  async function logIn(person: Person): Promise<Page> {
    const page = await newDashboardPage(browser);
    await logInAs(page, stack.baseUrl, person.email, MEMBER_FIXTURE_PASSWORD);
    return page;
  }

  /** A transfer of 1.25 Q from the ADMIN's wallet, created with the ADMIN's API key; its id. */
  async function createTransfer(): Promise<string> {
    return createSandboxTransfer(stack, admin, {
      sourceWalletId: walletId,
      destinationAddress: DESTINATION,
      assetId: nativeAssetId,
      amount: Q + Q / 4n,
    });
  }

  /** A signer home (keystore and profile) holding `person`'s API key, as `init` and `login --ca` leave it. */
  async function signerHome(person: Person, transactionKeys = 0): Promise<string> {
    const home = mkdtempSync(join(tmpdir(), "qc-approvals-signer-"));
    await signerKeystore(stack, person, join(home, "keystore.json"), PASSPHRASE, transactionKeys);
    writeProfile(join(home, "profile.json"), { url: stack.baseUrl, tenantId: person.tenantId, ca: stack.cert });
    homes.set(person.userId, home);
    return home;
  }

  /** The reference signer's CLI as a process (as `./qc signer` runs it), `stdin` on a pipe. */
  function signer(person: Person, args: string[], stdin = "") {
    return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      const env: NodeJS.ProcessEnv = { ...process.env, QC_SIGNER_HOME: homes.get(person.userId), QC_SIGNER_PASSPHRASE: PASSPHRASE };
      const child = spawn(process.execPath, ["--import", "tsx", SIGNER_MAIN, ...args], { cwd: ROOT, env, stdio: ["pipe", "pipe", "pipe"] });
      let stdout = "";
      let stderr = "";
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
      child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
      child.stdin.end(stdin);
      child.on("error", reject);
      child.on("close", (code) => resolve({ code, stdout, stderr }));
    });
  }

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startStack(t.url), launchChromium()]);
    let first: Person, second: Person;
    [admin, first, second, viewer] = await fixtureOrganization(t.db, stack, "Halcyon Custody SA", [
      "ADMIN",
      "APPROVER",
      "APPROVER",
      "VIEWER",
    ]);
    approvers = [first, second];

    // The ADMIN's wallet, its key enrolled by the ADMIN's signer, funded on the devnet.
    await signerHome(admin, 1);
    ({ walletId, nativeAssetId } = await fundedSandboxWallet(stack, admin, "Treasury", 5n * Q));
  }, 600_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  }, 60_000);

  it("an ADMIN makes a group of two approvers and a REQUIRE_APPROVAL rule in the UI; the dry run names the requirement", async () => {
    const page = await logIn(admin);
    await go(page, "/members");
    const create = page.getByTestId("create-approver-group");
    await create.getByLabel("Group name", { exact: true }).fill(GROUP);
    for (const approver of approvers) await create.getByRole("checkbox", { name: new RegExp(approver.email) }).check();
    await button(page, "Create approver group").click();
    const row = page.locator(`[data-testid="approver-group-row"][data-group="${GROUP}"]`);
    await row.waitFor();
    for (const approver of approvers) expect(await row.textContent()).toContain(approver.email);

    await go(page, "/policies");
    await button(page, "Add rule").click();
    await page.getByLabel("Rule ID", { exact: true }).fill("two-approvers");
    await page.getByLabel("Rule name", { exact: true }).fill("Two treasury approvers");
    await page.getByLabel("Action", { exact: true }).selectOption("REQUIRE_APPROVAL");
    await page.getByLabel("Approver group 1", { exact: true }).selectOption({ label: `${GROUP} (2 members)` });
    await page.getByLabel("Quorum 1", { exact: true }).fill("3");
    await button(page, "Save policy").click();
    // More than the group holds: the service's refusal, next to the quorum.
    await expect.poll(() => page.getByRole("alert").allTextContents()).toContainEqual(expect.stringMatching(/quorum|members/i));
    await page.getByLabel("Quorum 1", { exact: true }).fill("2");
    await button(page, "Save policy").click();
    await page.getByText("Saved as version 1.").waitFor();

    const dryRun = page.getByTestId("policy-dry-run");
    await expect.poll(() => dryRun.getByLabel("Source wallet", { exact: true }).locator("option").count()).toBeGreaterThan(1);
    await dryRun.getByLabel("Source wallet", { exact: true }).selectOption(walletId);
    await dryRun.getByLabel("Destination address", { exact: true }).fill(DESTINATION);
    await dryRun.getByLabel("Amount", { exact: true }).fill("1");
    await button(page, "Evaluate transfer").click();
    await expect.poll(() => page.getByTestId("dry-run-result").textContent()).toContain("REQUIRE_APPROVAL");
    expect(await page.getByTestId("dry-run-approvals").textContent()).toBe(`2 of ${GROUP} must approve`);

    // The policy names the group: deleting it is refused, in the service's words, beside it.
    await go(page, "/members");
    await row.getByRole("button", { name: `Delete ${GROUP}` }).click();
    await expect.poll(() => row.getByRole("alert").allTextContents()).toContainEqual(expect.stringContaining("two-approvers"));
    // Nor may it shrink below the quorum the policy asks of it.
    await row.getByRole("button", { name: `Edit ${GROUP}` }).click();
    await row.getByRole("checkbox", { name: new RegExp(approvers[1].email) }).uncheck();
    await row.getByRole("button", { name: "Save group" }).click();
    await expect.poll(() => row.getByRole("alert").allTextContents()).toContainEqual(expect.stringContaining("two-approvers"));
    await row.getByRole("button", { name: "Cancel" }).click();
    for (const approver of approvers) expect(await row.textContent()).toContain(approver.email);
  });

  it("a transfer created through the API awaits approval, and its page shows what it needs and who started it", async () => {
    transactionId = await createTransfer();

    const page = await logIn(admin);
    await go(page, `/transactions/${transactionId}`);
    await expect.poll(() => page.getByTestId("transaction-status").textContent(), { timeout: 30_000 }).toContain("AWAITING_APPROVAL");
    const section = page.getByTestId("approvals-section");
    await section.waitFor();
    const group = section.getByTestId("approval-group-row");
    await expect.poll(() => group.textContent()).toContain(GROUP);
    expect(await group.getByTestId("approved-count").textContent()).toBe("0 of 2");
    await expect
      .poll(() => section.getByTestId("initiated-by").textContent())
      .toContain(`API key ${admin.keyId} of Fixture ADMIN (${admin.email})`);
    expect(await section.getByTestId("approval-instructions").textContent()).toContain(`signer approve ${transactionId}`);
    await section.getByTestId("approval-deadline").waitFor(); // from the approvals' evidence route
    // The ADMIN is in no required group: nothing to reject with.
    expect(await section.getByTestId("reject-approval").count()).toBe(0);
  });

  it("each approver sees it on /approvals, approves in the signer, and no longer sees it; the signer's review signs it to COMPLETED", async () => {
    const lastFour = `${DESTINATION.slice(-4)}\n`;
    for (const [i, approver] of approvers.entries()) {
      const page = await logIn(approver);
      await page.getByRole("navigation").getByRole("link", { name: "Approvals", exact: true }).click();
      await page.waitForURL(/\/approvals$/);
      const row = page.locator(`[data-testid="pending-approval-row"][data-transaction-id="${transactionId}"]`);
      await row.waitFor();
      // Group and member names arrive with their own reads.
      await expect.poll(() => row.textContent()).toContain(`${GROUP}: ${i} of 2`);
      await expect.poll(() => row.textContent()).toContain(`API key ${admin.keyId} of Fixture ADMIN (${admin.email})`);
      expect(await row.textContent()).toContain("1.25 Q");
      expect(await row.textContent()).toContain(DESTINATION);
      if (i === 0) await screenshot(page, "approvals");

      await signerHome(approver);
      const enrolled = await signer(approver, ["enroll-approver"]);
      expect(enrolled.stderr, stack.output()).toBe("");
      expect(enrolled.code).toBe(0);
      const approved = await signer(approver, ["approve", transactionId], lastFour);
      expect(approved.stderr, stack.output()).toBe("");
      expect(approved.code).toBe(0);
      expect(approved.stdout).toContain("Approved with approval key");

      await page.reload();
      await page.getByText("Nothing awaits your approval.").waitFor();
    }

    const page = await logIn(admin);
    await go(page, `/transactions/${transactionId}`);
    const status = page.getByTestId("transaction-status");
    await expect.poll(() => status.textContent(), { timeout: 30_000 }).toContain("PENDING_SIGNATURE");
    const reviewed = await signer(admin, ["review", transactionId], lastFour);
    expect(reviewed.stderr, stack.output()).toBe("");
    expect(reviewed.code).toBe(0);
    await expect.poll(() => status.textContent(), { timeout: 60_000, interval: 500 }).toContain("COMPLETED");

    const section = page.getByTestId("approvals-section");
    const decisions = section.getByTestId("approval-decision-row");
    await expect.poll(() => decisions.count()).toBe(2);
    for (const approver of approvers) {
      const decision = decisions.filter({ hasText: approver.email });
      await expect.poll(() => decision.count()).toBe(1);
      expect(await decision.getAttribute("data-decision")).toBe("APPROVED");
      expect(await decision.textContent()).toContain(GROUP);
    }
    expect(await section.getByTestId("approved-count").textContent()).toContain("2 of 2");
    expect(await section.getByTestId("approval-instructions").count()).toBe(0);
    await section.screenshot({ path: join(SCREENSHOTS, "transaction-approvals.png"), animations: "disabled", caret: "hide" });
  });

  it("an approver rejects another transfer from its page, with a reason: it ends REJECTED / REJECTED_BY_APPROVER", async () => {
    const id = await createTransfer();
    const page = await logIn(approvers[0]);
    await go(page, `/transactions/${id}`);
    await expect.poll(() => page.getByTestId("transaction-status").textContent(), { timeout: 30_000 }).toContain("AWAITING_APPROVAL");
    const form = page.getByTestId("reject-approval");
    await form.waitFor();
    // A rejection says why: no reason, no button.
    expect(await button(page, "Reject transfer").isDisabled()).toBe(true);
    await form.getByLabel("Reason for rejecting", { exact: true }).fill("The beneficiary is not on our list");
    await button(page, "Reject transfer").click();
    await expect.poll(() => page.getByTestId("transaction-status").textContent()).toContain("REJECTED_BY_APPROVER");
    const decision = page.getByTestId("approval-decision-row");
    await expect.poll(() => decision.count()).toBe(1);
    expect(await decision.getAttribute("data-decision")).toBe("REJECTED");
    expect(await decision.textContent()).toContain("The beneficiary is not on our list");
    expect(await decision.textContent()).toContain(approvers[0].email);
    expect(await form.count()).toBe(0);
  });

  it("a VIEWER, who may not decide approvals, has no Approvals page in the navigation", async () => {
    const page = await logIn(viewer);
    await page.getByRole("navigation").getByRole("link", { name: "Transactions", exact: true }).waitFor();
    expect(await page.getByRole("navigation").getByRole("link", { name: "Approvals", exact: true }).count()).toBe(0);
  });
});
