import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { MEMBER_FIXTURE_PASSWORD } from "@qc/core/testing";
import { useTestDatabase } from "@qc/db/testing";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// The signer's library, as a customer's signer uses it (reached by path, like dashboard.test.ts).
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
import { callApi, createSandboxTransfer, fixtureOrganization, fundedSandboxWallet, type Person } from "./api";
import { failingViolations, runAxe } from "./axe";
import { launchChromium, logInAs, newDashboardPage } from "./browser";
import { fetchText, startStack, type Stack } from "./stack";

const ROOT = fileURLToPath(new URL("../../../../", import.meta.url));
const APP_DIR = join(ROOT, "apps/web/app");
const Q = 10n ** 18n;
const DESTINATION = "0x5b38da6a701c568545dcfcb03fcb875f56beddc4";
const OPERATOR_PASSWORD = "accessibility operator passphrase";
/** Lowest scrypt cost the keystore accepts: the test unlocks it in milliseconds. */
const FAST_KDF = { n: 2 ** 14, r: 8, p: 1 };

/** Every route of the dashboard, from the `page.tsx` files under apps/web/app (route groups and private folders left out of the path). */
function appRoutes(dir = APP_DIR): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory()) return entry.name.startsWith("_") ? [] : appRoutes(join(dir, entry.name));
    if (entry.name !== "page.tsx") return [];
    const segments = relative(APP_DIR, dir)
      .split(sep)
      .filter((segment) => segment !== "" && !/^\(.*\)$/.test(segment));
    return [`/${segments.join("/")}`];
  });
}

/** `read()` again until `done` says yes (expect.poll is for tests, not their setup); its last value. */
async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (performance.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)} after ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

/** What a page has once it has read its data: a heading, and no "Loading …" line left. */
async function settle(page: Page): Promise<void> {
  await page.locator("h1").first().waitFor();
  await expect.poll(() => page.getByText(/^Loading .*…$/).count(), { timeout: 20_000 }).toBe(0);
}

/**
 * Tabs through the page from its start and says what is wrong: a visible interactive element the
 * keyboard never reaches, a positive tabindex, or an element whose focus is not visible (its
 * outline and box shadow focused are the same as unfocused). A radio group counts as one stop.
 */
async function keyboardProblems(page: Page, where: string): Promise<string[]> {
  const expected = await page.evaluate(() => {
    const positive = [...document.querySelectorAll<HTMLElement>("[tabindex]")]
      .filter((element) => element.tabIndex > 0)
      .map((element) => element.outerHTML.slice(0, 120));
    const selector = "a[href], button, input, select, textarea, summary, [tabindex]";
    const reachable = [...document.querySelectorAll<HTMLElement>(selector)].filter((element) => {
      if (element.closest("[inert], [aria-hidden='true']")) return false;
      if ((element as HTMLButtonElement).disabled || element.getAttribute("tabindex") === "-1") return false;
      if (element instanceof HTMLInputElement && element.type === "hidden") return false;
      return element.checkVisibility({ visibilityProperty: true }) && element.getClientRects().length > 0;
    });
    const stops = new Map<string, HTMLElement[]>();
    reachable.forEach((element, index) => {
      const radio = element instanceof HTMLInputElement && element.type === "radio" && element.name ? `radio:${element.name}` : null;
      const key = radio ?? `element:${index}`;
      element.dataset.kbdStop = key;
      stops.set(key, [...(stops.get(key) ?? []), element]);
    });
    const look = (element: Element) => {
      const style = getComputedStyle(element);
      return `${style.outlineStyle} ${style.outlineWidth} ${style.outlineColor} | ${style.boxShadow}`;
    };
    const state = { focused: new Map<string, string>(), looks: look };
    (window as unknown as { __kbd: typeof state }).__kbd = state;
    document.addEventListener("focusin", (event) => {
      const target = event.target as HTMLElement;
      if (target.dataset?.kbdStop && !state.focused.has(target.dataset.kbdStop)) state.focused.set(target.dataset.kbdStop, look(target));
    });
    (document.activeElement as HTMLElement | null)?.blur();
    return { stops: stops.size, positive };
  });
  const problems = expected.positive.map((html) => `${where}: positive tabindex on ${html}`);
  // Twice round at most: focus may start after an autofocused field and wrap to the top.
  for (let press = 0; press < expected.stops * 2 + 4; press++) {
    await page.keyboard.press("Tab");
    if (press % 10 === 9 && (await page.evaluate(() => (window as any).__kbd.focused.size)) >= expected.stops) break;
  }
  const missed = await page.evaluate(() => {
    const state = (window as any).__kbd as { focused: Map<string, string>; looks: (element: Element) => string };
    (document.activeElement as HTMLElement | null)?.blur();
    const describe = (element: HTMLElement) =>
      `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ""} "${(element.getAttribute("aria-label") ?? element.textContent ?? element.getAttribute("name") ?? "").trim().slice(0, 40)}"`;
    const unreached: string[] = [];
    const invisible: string[] = [];
    const seen = new Set<string>();
    for (const element of document.querySelectorAll<HTMLElement>("[data-kbd-stop]")) {
      const key = element.dataset.kbdStop!;
      if (seen.has(key)) continue;
      seen.add(key);
      const focusedLook = state.focused.get(key);
      if (focusedLook === undefined) unreached.push(describe(element));
      else if (focusedLook === state.looks(element)) invisible.push(describe(element));
    }
    return { unreached, invisible };
  });
  problems.push(...missed.unreached.map((element) => `${where}: not reached by Tab: ${element}`));
  problems.push(...missed.invisible.map((element) => `${where}: no visible focus indicator: ${element}`));
  return problems;
}

/**
 * Accessibility in Debian's Chromium against the started stack: axe-core (WCAG 2.0 and 2.1, A and
 * AA) over every page of the dashboard, with an organization that has data on every page (a funded
 * wallet in a vault, a completed transfer, one waiting for approval, a webhook, API keys, an
 * address-book entry, a pending invitation), fails on any serious or critical violation; every
 * visible control of every page is reached with Tab and shows it has the focus. The list of pages
 * is read from apps/web/app: a new page.tsx that this test does not visit fails it.
 */
describe("accessibility of every page in a real browser", () => {
  const t = useTestDatabase();
  let stack: Stack;
  let browser: Browser;
  let owner: Person;
  let approver: Person;
  let keystore: UnlockedKeystore;
  const ids: Record<string, string> = {};
  const tokens: { invitation?: string } = {};
  const visited = new Set<string>();

  /** axe-core and the keyboard walk on `page` at `path` (already loaded by the caller when `path` is null); the problems found. */
  async function sweep(page: Page, route: string, path: string | null, options: { keyboard?: boolean } = {}): Promise<string[]> {
    if (path !== null) await page.goto(new URL(path, stack.baseUrl).toString());
    await settle(page);
    visited.add(route);
    const where = path ?? `${route} (${new URL(page.url()).pathname}, after an action)`;
    const problems = failingViolations(where, await runAxe(page));
    // The palette has a dark variant (prefers-color-scheme): its contrast is checked too.
    await page.emulateMedia({ colorScheme: "dark" });
    problems.push(...failingViolations(`${where} (dark)`, await runAxe(page, { rules: ["color-contrast"] })));
    await page.emulateMedia({ colorScheme: "light" });
    if (options.keyboard ?? true) problems.push(...(await keyboardProblems(page, where)));
    return problems;
  }

  /** The newest link to `/${pathname}?token=…` sent to `to`, read from the development mailbox. */
  async function mailedToken(to: string, pathname: string): Promise<string> {
    const token = await until(
      `the ${pathname} email to ${to}`,
      async () => {
        const res = await fetchText(stack, `/v1/dev/mailbox?to=${encodeURIComponent(to)}`);
        const emails = (JSON.parse(res.text) as { emails: { text: string }[] }).emails;
        return emails.map((email) => new RegExp(`/${pathname}\\?token=([A-Za-z0-9_-]+)`).exec(email.text)?.[1]).find(Boolean);
      },
      Boolean,
    );
    return token!;
  }

  /** A transfer from the wallet through the API, signed with the signer library; its id once COMPLETED. */
  async function completedTransfer(): Promise<string> {
    const id = await createSandboxTransfer(stack, owner, {
      sourceWalletId: ids.wallet!,
      destinationAddress: DESTINATION,
      assetId: ids.asset!,
      amount: Q,
    });
    const api = signerApi(createServiceClient({ url: stack.baseUrl, apiKey: owner.apiKey, ca: stack.cert }));
    const pending = await until(
      "the transfer waiting for its signature",
      async () => (await api.pendingTransactions()).transactions.find((tx) => tx.id === id),
      Boolean,
    );
    const verified = verifySigningRequest(
      readTransfer({ transaction: pending, assets: await api.assets("QUANTUM_SANDBOX"), findKey: (a) => keystore.findKey(a) }),
    );
    await api.submitSignature(id, signTransfer(verified));
    const status = () => callApi(stack, owner, "GET", `/v1/transactions/${id}`).then((res) => res.json.status as string);
    await until("the signed transfer", status, (value) => value === "COMPLETED", 60_000);
    return id;
  }

  beforeAll(async () => {
    // startStack hands its processes this process's environment: a webhook to a closed local port.
    process.env.WEBHOOK_ALLOW_PRIVATE_URLS = "true";
    [stack, browser] = await Promise.all([startStack(t.url), launchChromium()]);
    delete process.env.WEBHOOK_ALLOW_PRIVATE_URLS;
    [owner, approver] = await fixtureOrganization(t.db, stack, "Northwind Custody Ltd", ["OWNER", "APPROVER"]);
    keystore = await createKeystore(join(mkdtempSync(join(tmpdir(), "qc-accessibility-")), "keystore.json"), "accessibility keystore", {
      kdf: FAST_KDF,
    });
    const api = signerApi(createServiceClient({ url: stack.baseUrl, apiKey: owner.apiKey, ca: stack.cert }));
    await enrollKeys({ keystore, api, tenantId: owner.tenantId, count: 1 });
    const funded = await fundedSandboxWallet(stack, owner, "Treasury", 5n * Q);
    ids.wallet = funded.walletId;
    ids.asset = funded.nativeAssetId;
    ids.vault = (await callApi(stack, owner, "GET", "/v1/vault/accounts")).json.vaults?.[0]?.id;
    ids.completed = await completedTransfer();

    // Every transfer from now on waits for the approver's decision.
    const group = await callApi(stack, owner, "POST", "/v1/approver-groups", { name: "Treasury approvers", memberIds: [approver.userId] });
    expect(group.status).toBe(201);
    const policy = await callApi(stack, owner, "PUT", "/v1/policies", {
      defaultAction: "ALLOW",
      rules: [
        {
          id: "approve-all",
          name: "Every transfer approved",
          action: "REQUIRE_APPROVAL",
          match: {},
          approvals: [{ groupId: group.json.id, quorum: 1 }],
        },
      ],
    });
    expect(policy.status, JSON.stringify(policy.json)).toBe(200);
    ids.awaiting = await createSandboxTransfer(stack, owner, {
      sourceWalletId: ids.wallet,
      destinationAddress: DESTINATION,
      assetId: ids.asset,
      amount: Q / 2n,
    });
    const status = () => callApi(stack, owner, "GET", `/v1/transactions/${ids.awaiting}`).then((res) => res.json.status as string);
    await until("the transfer needing approval", status, (value) => value === "AWAITING_APPROVAL");

    const webhook = await callApi(stack, owner, "POST", "/v1/webhooks", { url: "https://127.0.0.1:9/custody" });
    expect(webhook.status, JSON.stringify(webhook.json)).toBe(201);
    const entry = await callApi(stack, owner, "POST", "/v1/address-book", {
      networkCode: "QUANTUM_SANDBOX",
      address: DESTINATION,
      label: "Exchange deposit",
    });
    expect(entry.status, JSON.stringify(entry.json)).toBe(201);
    const invited = `invited-${Date.now().toString(36)}@example.com`;
    const invitation = await callApi(stack, owner, "POST", "/v1/members/invitations", { email: invited, role: "VIEWER" });
    expect(invitation.status, JSON.stringify(invitation.json)).toBe(201);
    tokens.invitation = await mailedToken(invited, "accept-invite");
  }, 600_000);
  afterAll(async () => {
    keystore?.close();
    await browser?.close();
    await stack?.close();
  }, 60_000);

  it("the checks find what they look for, on a page made to fail them", async () => {
    const page = await newDashboardPage(browser);
    await page.setContent(`<main><h1>Broken</h1>
      <button type="button"></button>
      <input type="text">
      <button type="button" style="outline: none">No focus ring</button>
      <a href="#top" tabindex="3">Jumps the queue</a>
      <summary>A summary outside details: shown, never focused</summary>
    </main>`);
    const violations = await runAxe(page);
    expect(failingViolations("broken", violations).join("\n")).toMatch(/critical button-name .*critical label /s);
    const problems = await keyboardProblems(page, "broken");
    expect(problems).toContainEqual(expect.stringMatching(/^broken: positive tabindex on <a href="#top" tabindex="3">Jumps/));
    expect(problems).toContain('broken: no visible focus indicator: button "No focus ring"');
    expect(problems).toContain('broken: not reached by Tab: summary "A summary outside details: shown, never "');
    expect(problems).toHaveLength(3);
    await page.context().close();
  });

  it("the console pages: no serious or critical axe violation, every control reached by Tab with a visible focus", async () => {
    expect(ids.vault).toBeTruthy();
    const page = await newDashboardPage(browser);
    await logInAs(page, stack.baseUrl, owner.email, MEMBER_FIXTURE_PASSWORD);
    const problems: string[] = [];
    const pages: [route: string, path: string][] = [
      ["/", "/"],
      ["/vaults", "/vaults"],
      ["/vaults/[id]", `/vaults/${ids.vault}`],
      ["/wallets/[id]", `/wallets/${ids.wallet}`],
      ["/transactions", "/transactions"],
      ["/transactions/[id]", `/transactions/${ids.completed}`],
      ["/transactions/[id]", `/transactions/${ids.awaiting}`],
      ["/transactions/new", `/transactions/new?networkCode=QUANTUM_SANDBOX&vaultId=${ids.vault}&sourceWalletId=${ids.wallet}`],
      ["/approvals", "/approvals"],
      ["/api-keys", "/api-keys"],
      ["/members", "/members"],
      ["/webhooks", "/webhooks"],
      ["/policies", "/policies"],
      ["/address-book", "/address-book"],
      ["/settings", "/settings"],
      ["/audit", "/audit"],
    ];
    for (const [route, path] of pages) problems.push(...(await sweep(page, route, path)));

    // The skip link comes first and leads to the content.
    await page.goto(new URL("/", stack.baseUrl).toString());
    await settle(page);
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Skip to content");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("href"))).toBe("#main");
    expect(await page.locator("main#main").count()).toBe(1);
    // Followed, it skips the navigation: the next Tab lands inside the content.
    await page.keyboard.press("Enter");
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.closest("main")?.id)).toBe("main");

    // The forms' second states: a new API key's secret shown once, a rule opened in the policy editor.
    await page.goto(new URL("/api-keys", stack.baseUrl).toString());
    await settle(page);
    await page.getByLabel("Label", { exact: true }).fill("accessibility");
    await page.getByRole("button", { name: "Create API key", exact: true }).click();
    await page.getByTestId("secret-value").waitFor();
    problems.push(...(await sweep(page, "/api-keys", null)));
    await page.goto(new URL("/policies", stack.baseUrl).toString());
    await settle(page);
    await page.getByRole("button", { name: "Add rule", exact: true }).click();
    await page.getByLabel("Rule ID", { exact: true }).last().waitFor();
    problems.push(...(await sweep(page, "/policies", null)));

    // Last, as it offers to end the session.
    problems.push(...(await sweep(page, "/logout", "/logout")));
    await page.context().close();

    // What only an approver of the transfer sees: it listed on /approvals, the reject form on its page.
    const approverPage = await newDashboardPage(browser);
    await logInAs(approverPage, stack.baseUrl, approver.email, MEMBER_FIXTURE_PASSWORD);
    await approverPage.goto(new URL("/approvals", stack.baseUrl).toString());
    await approverPage.locator(`a[href="/transactions/${ids.awaiting}"]`).first().waitFor();
    problems.push(...(await sweep(approverPage, "/approvals", null)));
    await approverPage.goto(new URL(`/transactions/${ids.awaiting}`, stack.baseUrl).toString());
    await approverPage.getByRole("button", { name: "Reject transfer", exact: true }).waitFor();
    problems.push(...(await sweep(approverPage, "/transactions/[id]", null)));
    await approverPage.context().close();
    expect(problems).toEqual([]);
  });

  it("the public pages, before logging in: no serious or critical axe violation, every control reached by Tab", async () => {
    const page = await newDashboardPage(browser);
    const problems: string[] = [];
    const pages: [route: string, path: string][] = [
      ["/login", "/login"],
      ["/signup", "/signup"],
      ["/signup/check-email", "/signup/check-email?email=someone%40example.com"],
      ["/forgot-password", "/forgot-password"],
      ["/reset-password", "/reset-password?token=an-expired-or-unknown-token"],
      ["/verify-email", "/verify-email?token=an-expired-or-unknown-token"],
      ["/accept-invite", `/accept-invite?token=${tokens.invitation}`],
      ["/dev/mailbox", "/dev/mailbox"],
    ];
    for (const [route, path] of pages) problems.push(...(await sweep(page, route, path)));
    // A refused form, its error beside the field.
    await page.goto(new URL("/login", stack.baseUrl).toString());
    await settle(page);
    await page.getByLabel("Email", { exact: true }).fill("nobody@example.com");
    await page.getByLabel("Password", { exact: true }).fill("not the password at all");
    await page.getByRole("button", { name: "Log in", exact: true }).click();
    await page.getByRole("alert").first().waitFor();
    problems.push(...(await sweep(page, "/login", null)));
    await page.context().close();
    expect(problems).toEqual([]);
  });

  it("the operators' console: no serious or critical axe violation, every control reached by Tab", async () => {
    const created = await new Promise<{ stdout: string; stderr: string }>((resolve) =>
      execFile(
        process.execPath,
        ["--import", "tsx", "scripts/create-operator.ts", "--email", "ops@example.com", "--name", "Ops"],
        { cwd: ROOT, env: { ...stack.env, OPERATOR_PASSWORD } },
        (_error, stdout, stderr) => resolve({ stdout, stderr }),
      ),
    );
    expect(created.stderr).toBe("");
    const page = await newDashboardPage(browser);
    const problems = await sweep(page, "/operators/login", "/operators/login");
    await page.getByLabel("Email", { exact: true }).fill("ops@example.com");
    await page.getByLabel("Password", { exact: true }).fill(OPERATOR_PASSWORD);
    await page.getByRole("button", { name: "Log in", exact: true }).click();
    await page.waitForURL((url) => url.pathname === "/operators");
    await page.locator('[data-testid="queue-row"]').first().waitFor();
    problems.push(...(await sweep(page, "/operators", null)));
    await page.context().close();
    expect(problems).toEqual([]);
  });

  it("visited every page of the app (a new page.tsx must join the sweep)", () => {
    expect([...visited].sort()).toEqual(appRoutes().sort());
  });
});
