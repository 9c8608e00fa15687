import { createMemberFixture, createTenantFixture, MEMBER_FIXTURE_PASSWORD } from "@qc/core/testing";
import { useTestDatabase } from "@qc/db/testing";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, logInAs, newDashboardPage, screenshot } from "./browser";
import { fetchText, startStack, type Stack } from "./stack";

const ORGANIZATION = "Borealis Treasury AG";
const PASSWORD = "a long invited member passphrase";
/** The fixtures' API keys are never used against the stack: any pepper makes them. */
const UNUSED_PEPPER = Buffer.alloc(32, 7);

/**
 * Members and roles in Debian's Chromium against the started stack (CONTRACT §13, §14): every
 * signed-in page names the organization and the member with their role; an OWNER invites by email,
 * the invited person accepts in another browser and acts with the role given (a VIEWER is offered
 * nothing that changes custody), the OWNER changes the role and the pages follow, revokes a pending
 * invitation and removes the member (whose session ends); an ADMIN is offered no OWNER and no
 * action on owners; a used, revoked or unknown invitation link is refused in words. Leaves
 * docs/screenshots/members.png.
 */
describe("members in a real browser", () => {
  const t = useTestDatabase();
  let stack: Stack;
  let browser: Browser;
  let tenantId: string;
  let owner: { email: string; page: Page };
  const invited = { email: `invited-${Date.now().toString(36)}@example.com`, name: "Ingrid Viewer" };
  const pendingEmail = `pending-${Date.now().toString(36)}@example.com`;
  let viewer: Page;

  const newPage = () => newDashboardPage(browser);
  const go = (page: Page, path: string) => page.goto(new URL(path, stack.baseUrl).toString());
  const button = (page: Page, name: string) => page.getByRole("button", { name, exact: true });
  const memberRow = (page: Page, email: string) => page.locator(`[data-testid="member-row"][data-email="${email}"]`);

  const logIn = (page: Page, email: string, password: string) => logInAs(page, stack.baseUrl, email, password);

  /** The newest invitation link sent to `to`, read from the development mailbox once the daemon delivered it. */
  async function invitationLink(to: string): Promise<string> {
    let link: string | undefined;
    await expect
      .poll(
        async () => {
          const res = await fetchText(stack, `/v1/dev/mailbox?to=${encodeURIComponent(to)}`);
          const emails = (JSON.parse(res.text) as { emails: { text: string }[] }).emails;
          link = emails.map((email) => /https:\/\/\S+\/accept-invite\?token=[A-Za-z0-9_-]{43}/.exec(email.text)?.[0]).find(Boolean);
          return link;
        },
        { timeout: 30_000 },
      )
      .toMatch(new RegExp(`^${stack.baseUrl}/accept-invite\\?token=`));
    return link!;
  }

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startStack(t.url), launchChromium()]);
    const tenant = await createTenantFixture({ db: t.db, pepper: UNUSED_PEPPER }, { name: ORGANIZATION });
    tenantId = tenant.tenantId;
    const member = await createMemberFixture({ db: t.db, pepper: UNUSED_PEPPER }, tenant, "OWNER");
    owner = { email: member.email, page: await newPage() };
  }, 600_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  }, 60_000);

  it("names the organization and the signed-in member with their role on every page", async () => {
    const page = owner.page;
    await logIn(page, owner.email, MEMBER_FIXTURE_PASSWORD);
    for (const path of ["/", "/vaults", "/members"]) {
      await go(page, path);
      await expect.poll(() => page.getByTestId("organization-name").textContent()).toBe(ORGANIZATION);
      expect(await page.getByTestId("member-role").textContent()).toBe("OWNER");
      expect(await page.getByTestId("signed-in").textContent()).toContain(owner.email);
    }
    await memberRow(page, owner.email).waitFor();
    expect(await memberRow(page, owner.email).textContent()).toContain("(you)");
  });

  it("an OWNER invites by email; the invited person accepts in another browser and logs in as a VIEWER offered nothing to change", async () => {
    const page = owner.page;
    await go(page, "/members");
    await page.getByLabel("Email", { exact: true }).fill(invited.email);
    await page.getByLabel("Role", { exact: true }).selectOption("VIEWER");
    await button(page, "Send invitation").click();
    const pending = page.locator(`[data-testid="invitation-row"][data-email="${invited.email}"]`);
    await pending.waitFor();
    expect(await pending.textContent()).toContain("VIEWER");
    // An address that already has an account is refused next to the field, in the contract's words.
    await page.getByLabel("Email", { exact: true }).fill(owner.email);
    await button(page, "Send invitation").click();
    await expect.poll(() => page.getByRole("alert").allTextContents()).toContainEqual(expect.stringMatching(/already/i));

    const link = await invitationLink(invited.email);
    viewer = await newPage();
    await viewer.goto(link);
    await viewer.getByLabel("Name", { exact: true }).fill(invited.name);
    await viewer.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await button(viewer, "Accept invitation").click();
    await expect.poll(() => viewer.getByTestId("invitation-accepted").textContent()).toContain("VIEWER");
    await viewer.getByRole("link", { name: "Log in" }).click();
    await viewer.waitForURL(/\/login/);
    await expect.poll(() => viewer.getByLabel("Email", { exact: true }).inputValue()).toBe(invited.email);
    await viewer.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await button(viewer, "Log in").click();
    await viewer.waitForURL((url) => url.pathname === "/");
    await expect.poll(() => viewer.getByTestId("organization-name").textContent()).toBe(ORGANIZATION);
    expect(await viewer.getByTestId("member-role").textContent()).toBe("VIEWER");

    // Reads everything, changes nothing: no vault form, no transfer link, no invitation form, no role changes.
    await go(viewer, "/vaults");
    await viewer.getByText("No vaults yet.").waitFor();
    expect(await button(viewer, "Create vault").count()).toBe(0);
    await go(viewer, "/transactions");
    await viewer.getByRole("heading", { name: "Transactions", level: 1 }).waitFor();
    expect(await viewer.getByRole("link", { name: "New transfer" }).count()).toBe(0);
    await go(viewer, "/members");
    await memberRow(viewer, owner.email).waitFor();
    expect(await button(viewer, "Send invitation").count()).toBe(0);
    expect(await button(viewer, "Change role").count()).toBe(0);
    expect(await button(viewer, "Remove member").count()).toBe(0);
    await go(viewer, "/settings");
    await viewer.getByText("Only an OWNER or ADMIN changes the allowlist.").waitFor();
    expect(await button(viewer, "Save allowlist").count()).toBe(0);

    // The link works once.
    const again = await newPage();
    await again.goto(link);
    await again.getByLabel("Name", { exact: true }).fill("Someone Else");
    await again.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await button(again, "Accept invitation").click();
    await expect.poll(() => again.getByRole("alert").allTextContents()).toContainEqual(expect.stringMatching(/already used/));
  });

  it("the OWNER changes the member's role and the member's pages follow; a pending invitation is revoked", async () => {
    const page = owner.page;
    await go(page, "/members");
    const row = memberRow(page, invited.email);
    await row.waitFor();
    await row.getByLabel(`Role of ${invited.name}`).selectOption("INITIATOR");
    await row.getByRole("button", { name: "Change role" }).click();
    await expect.poll(() => row.getByTestId("member-role-cell").textContent()).toBe("INITIATOR");
    // A second invitation stays pending for the screenshot, then is revoked: its link no longer works.
    await page.getByLabel("Email", { exact: true }).fill(pendingEmail);
    await page.getByLabel("Role", { exact: true }).selectOption("APPROVER");
    await button(page, "Send invitation").click();
    const pending = page.locator(`[data-testid="invitation-row"][data-email="${pendingEmail}"]`);
    await pending.waitFor();
    await screenshot(page, "members");
    await pending.getByRole("button", { name: "Revoke invitation" }).click();
    await pending.waitFor({ state: "detached" });
    const revoked = await newPage();
    await revoked.goto(await invitationLink(pendingEmail));
    await revoked.getByLabel("Name", { exact: true }).fill("Too Late");
    await revoked.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await button(revoked, "Accept invitation").click();
    await expect.poll(() => revoked.getByRole("alert").allTextContents()).toContainEqual(expect.stringMatching(/revoked/));

    await go(viewer, "/vaults");
    await expect.poll(() => viewer.getByTestId("member-role").textContent()).toBe("INITIATOR");
    await button(viewer, "Create vault").waitFor();
  });

  it("an ADMIN is offered no OWNER role and no action on owners", async () => {
    const admin = await createMemberFixture({ db: t.db, pepper: UNUSED_PEPPER }, { tenantId }, "ADMIN");
    const page = await newPage();
    await logIn(page, admin.email, MEMBER_FIXTURE_PASSWORD);
    await go(page, "/members");
    await memberRow(page, owner.email).waitFor();
    expect(await page.getByTestId("member-role").textContent()).toBe("ADMIN");
    expect(await page.getByLabel("Role", { exact: true }).locator("option").allTextContents()).toEqual([
      "ADMIN",
      "INITIATOR",
      "APPROVER",
      "VIEWER",
    ]);
    expect(await memberRow(page, owner.email).getByRole("button").count()).toBe(0);
    const invitedRow = memberRow(page, invited.email);
    expect(await invitedRow.getByRole("button", { name: "Change role" }).count()).toBe(1);
    expect(await invitedRow.getByLabel(`Role of ${invited.name}`).locator("option").allTextContents()).not.toContain("OWNER");
  });

  it("the OWNER removes the member: the member's session ends", async () => {
    const page = owner.page;
    await go(page, "/members");
    const row = memberRow(page, invited.email);
    await row.waitFor();
    await row.getByRole("button", { name: "Remove member" }).click();
    await row.waitFor({ state: "detached" });
    await go(viewer, "/vaults");
    await viewer.waitForURL(/\/login/);
  });

  it("a link with a bad token is refused in words", async () => {
    const page = await newPage();
    await go(page, `/accept-invite?token=${"A".repeat(43)}`);
    await page.getByLabel("Name", { exact: true }).fill("Mallory");
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await button(page, "Accept invitation").click();
    await expect.poll(() => page.getByRole("alert").allTextContents()).toContainEqual(expect.stringMatching(/already used/));
  });
});
