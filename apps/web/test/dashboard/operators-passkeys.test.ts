import { createOperator } from "@qc/core/testing";
import { and, eq, schema } from "@qc/db";
import { useTestDatabase } from "@qc/db/testing";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { signCount, useWebauthnBrowser } from "./webauthn";

const PASSWORD = "operator console passphrase";

/**
 * Operators' passkeys in Debian's Chromium against the started stack (CONTRACT §14: the console's
 * logins follow the members' rule with their own setting), the DevTools virtual authenticator
 * standing in for a security key: an operator registers a passkey in the console's Security
 * section, requires passkeys for every operator, logs out, and logs in again with the password
 * and then the passkey; an operator without one is told so after the right password.
 */
describe("operators' passkeys in a real browser", () => {
  const t = useTestDatabase();
  const { newPage, go, button } = useWebauthnBrowser(t);
  const logIn = async (page: Page, email: string) => {
    await go(page, "/operators/login");
    await page.getByLabel("Email", { exact: true }).fill(email);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await button(page, "Log in").click();
  };

  it("registers a passkey in the console, requires passkeys, and logs in with password then passkey", async () => {
    const deps = { db: t.db, now: () => new Date() };
    const operator = await createOperator(deps, { email: "ops-browser@example.com", password: PASSWORD });
    await createOperator(deps, { email: "ops-keyless@example.com", password: PASSWORD });
    const { context, page, authenticator } = await newPage();

    await logIn(page, operator.email);
    await page.waitForURL((url) => url.pathname === "/operators");
    const security = page.locator("section", { has: page.getByRole("heading", { name: "Security" }) });
    await expect.poll(() => security.textContent()).toContain("You have no passkey yet.");
    const switchBox = security.getByLabel("Require a passkey at every operator's login");
    // Refused without a passkey: the switch stays off and says why.
    await switchBox.click();
    await expect.poll(() => security.getByRole("alert").allTextContents()).toEqual([expect.stringContaining("PASSKEY_REQUIRED")]);
    expect(await switchBox.isChecked()).toBe(false);

    await security.getByLabel("Passkey name", { exact: true }).fill("Console key");
    await button(page, "Register a passkey").click();
    await expect
      .poll(() => security.locator('[data-testid="passkeys"] tbody tr').allInnerTexts())
      .toEqual([expect.stringContaining("Console key")]);
    await switchBox.click();
    await expect.poll(() => switchBox.isChecked()).toBe(true);
    expect((await t.db.select().from(schema.operatorSettings))[0]?.requireOperatorPasskey).toBe(true);
    const signCountAtRegistration = await signCount(authenticator);

    await button(page, "Log out").click();
    await page.waitForURL((url) => url.pathname === "/operators/login");
    await logIn(page, operator.email);
    await page.waitForURL((url) => url.pathname === "/operators");
    // The session came from the passkey step: its audit row names the passkey, and the authenticator signed.
    const logins = await t.db
      .select()
      .from(schema.auditEvents)
      .where(and(eq(schema.auditEvents.actorId, operator.id), eq(schema.auditEvents.action, "operator.logged_in")));
    expect(logins.filter((row) => typeof row.details.passkeyId === "string")).toHaveLength(1);
    expect(await signCount(authenticator)).toBeGreaterThan(signCountAtRegistration);

    // An operator without a passkey: the right password is not enough, and the page says so.
    const other = await context.newPage();
    await logIn(other, "ops-keyless@example.com");
    await expect.poll(() => other.getByRole("alert").allTextContents()).toContainEqual(expect.stringContaining("require a passkey"));
    expect(new URL(other.url()).pathname).toBe("/operators/login");
    await context.close();
  }, 180_000);
});
