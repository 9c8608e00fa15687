import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MEMBER_FIXTURE_PASSWORD } from "@qc/core/testing";
import { useTestDatabase } from "@qc/db/testing";
import { verifyWebhook } from "@qc/webhooks";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startReceiver, type TestReceiver } from "../webhooks-receiver";
import { callApi, fixtureOrganization, type Person } from "./api";
import { launchChromium, logInAs, newDashboardPage, screenshot } from "./browser";
import { startStack, type Stack } from "./stack";

/**
 * The webhooks page's operations (CONTRACT §18) in Debian's Chromium against the started stack:
 * the endpoint shows its signature schemes and public key; "Resend deliveries" sends a failed
 * event again and "Simulate event" sends a simulated one, both to a real HTTPS receiver.
 * Leaves docs/screenshots/webhooks-operations.png.
 */
describe("webhook operations in a real browser", () => {
  const t = useTestDatabase();
  let receiver: TestReceiver;
  let stack: Stack;
  let browser: Browser;
  let admin: Person;
  let page: Page;
  let hook: { id: string; secret: string; publicKey: string };

  beforeAll(async () => {
    receiver = await startReceiver();
    // The stack's processes take their environment from this one: loopback receivers allowed,
    // and the receiver's self-signed certificate trusted by the daemon's Node.
    const ca = join(mkdtempSync(join(tmpdir(), "qc-webhooks-ca-")), "receiver.pem");
    writeFileSync(ca, receiver.certificate);
    process.env.NODE_EXTRA_CA_CERTS = ca;
    process.env.WEBHOOK_ALLOW_PRIVATE_URLS = "true";
    process.env.WEBHOOK_SWEEP_INTERVAL_MS = "200";
    [stack, browser] = await Promise.all([startStack(t.url), launchChromium()]);
    [admin] = await fixtureOrganization(t.db, stack, "Lantern Ledger Ltd", ["ADMIN"]);
    const created = await callApi(stack, admin, "POST", "/v1/webhooks", {
      url: receiver.url("/dashboard"),
      signatureSchemes: ["v1", "v1a"],
    });
    hook = created.json;
    page = await newDashboardPage(browser);
  }, 600_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
    await receiver?.close();
    delete process.env.NODE_EXTRA_CA_CERTS;
  }, 60_000);

  const button = (name: string) => page.getByRole("button", { name, exact: true });
  const received = () => receiver.received.filter((r) => r.path === "/dashboard");

  it("resends a failed delivery and simulates an event from the webhooks page; the receiver gets both", async () => {
    // The receiver refuses the first delivery (400: failed, not retried), then accepts.
    receiver.script("/dashboard", (request) => (request.nth === 1 ? { status: 400 } : { status: 204 }));
    const test = await callApi(stack, admin, "POST", `/v1/webhooks/${hook.id}/test`);
    expect(test.status).toBe(202);
    await expect.poll(() => received().length, { timeout: 20_000 }).toBe(1);

    await logInAs(page, stack.baseUrl, admin.email, MEMBER_FIXTURE_PASSWORD);
    await page.goto(new URL("/webhooks", stack.baseUrl).toString());
    const endpoint = page.getByTestId("webhook-endpoint");
    await endpoint.getByText("v1, v1a").waitFor();
    await endpoint.getByText(hook.publicKey).waitFor();

    await expect
      .poll(async () => (await callApi(stack, admin, "GET", `/v1/webhooks/${hook.id}/deliveries`)).json.deliveries[0]?.status)
      .toBe("FAILED");
    await button("Resend deliveries").click();
    await page.getByText("1 delivery queued again, each with its original webhook-id.").waitFor();
    await expect.poll(() => received().length, { timeout: 20_000 }).toBe(2);
    expect(received()[1]!.headers["webhook-id"]).toBe(test.json.eventId);

    await page.getByLabel("Event type to simulate", { exact: true }).selectOption("wallet.created");
    await button("Simulate event").click();
    await page.getByText(/Simulated wallet\.created event .* queued for delivery\./).waitFor();
    await expect.poll(() => received().length, { timeout: 20_000 }).toBe(3);
    const simulated = received()[2]!;
    expect(simulated.json).toMatchObject({ type: "wallet.created", data: { simulated: true } });
    expect(verifyWebhook(hook.secret, simulated.headers, simulated.body).id).toBe(simulated.headers["webhook-id"]);
    await screenshot(page, "webhooks-operations");
  });
});
