import { createMemberFixture, createTenantFixture, MEMBER_FIXTURE_PASSWORD } from "@qc/core/testing";
import { and, eq, schema } from "@qc/db";
import { useTestDatabase } from "@qc/db/testing";
import { describe, expect, it } from "vitest";
import { screenshot } from "./browser";
import { signCount, useWebauthnBrowser } from "./webauthn";

/** The fixtures' API keys are never used against the stack: any pepper makes them. */
const UNUSED_PEPPER = Buffer.alloc(32, 7);

/**
 * Passkeys in Debian's Chromium against the started stack (CONTRACT §14), with the DevTools
 * virtual authenticator standing in for a security key: an OWNER registers a passkey on /settings,
 * requires passkeys, logs out, and logs in again with the password and then the passkey (the
 * stack's certificate trusted by its key: webauthn.ts). Leaves docs/screenshots/passkeys.png.
 */
describe("passkeys in a real browser", () => {
  const t = useTestDatabase();
  const { newPage, go, button } = useWebauthnBrowser(t);

  it("registers a passkey on /settings, requires passkeys, and logs in with password then passkey", async () => {
    const tenant = await createTenantFixture({ db: t.db, pepper: UNUSED_PEPPER });
    const owner = await createMemberFixture({ db: t.db, pepper: UNUSED_PEPPER }, tenant, "OWNER");
    const { context, page, authenticator } = await newPage();

    const logIn = async () => {
      await go(page, `/login?email=${encodeURIComponent(owner.email)}`);
      await expect.poll(() => page.getByLabel("Email", { exact: true }).inputValue()).toBe(owner.email);
      await page.getByLabel("Password", { exact: true }).fill(MEMBER_FIXTURE_PASSWORD);
      await button(page, "Log in").click();
      await page.waitForURL((url) => url.pathname === "/");
    };
    await logIn();

    await go(page, "/settings");
    await page.getByLabel("Passkey name", { exact: true }).fill("Virtual key");
    await button(page, "Register a passkey").click();
    await expect
      .poll(() => page.locator('[data-testid="passkeys"] tbody tr').allInnerTexts())
      .toEqual([expect.stringContaining("Virtual key")]);
    const switchBox = page.getByLabel("Require a passkey at every member's login");
    // A controlled switch: it shows the saved value, so it turns on once the server took it.
    await switchBox.click();
    await expect.poll(() => switchBox.isChecked()).toBe(true);
    await expect
      .poll(async () => (await t.db.select().from(schema.tenants).where(eq(schema.tenants.id, tenant.tenantId)))[0]?.requirePasskey)
      .toBe(true);
    await screenshot(page, "passkeys");
    const signCountAtRegistration = await signCount(authenticator);

    await button(page, "Log out").click();
    await page.waitForURL((url) => url.pathname === "/login");
    await logIn();
    // The session came from the passkey step: its audit row names the passkey, and the authenticator signed.
    const logins = await t.db
      .select()
      .from(schema.auditEvents)
      .where(and(eq(schema.auditEvents.tenantId, tenant.tenantId), eq(schema.auditEvents.action, "auth.logged_in")));
    expect(logins.filter((row) => typeof row.details.passkeyId === "string")).toHaveLength(1);
    expect(await signCount(authenticator)).toBeGreaterThan(signCountAtRegistration);
    await context.close();
  }, 180_000);
});
