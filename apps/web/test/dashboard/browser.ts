import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type Page } from "playwright-core";
import { expect } from "vitest";

export const CHROMIUM = "/usr/bin/chromium";
const ROOT = fileURLToPath(new URL("../../../../", import.meta.url));
export const SCREENSHOTS = join(ROOT, "docs/screenshots");

/**
 * Debian's Chromium, installed on first use (CI starts from a fresh machine and runs as root).
 * Playwright's own browser download is not used: the distribution's package is the one kept
 * patched.
 */
export function ensureChromium(): void {
  if (existsSync(CHROMIUM)) return;
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  execFileSync("apt-get", ["update"], { stdio: "inherit", env });
  execFileSync("apt-get", ["install", "-y", "--no-install-recommends", "chromium"], { stdio: "inherit", env });
  if (!existsSync(CHROMIUM)) throw new Error(`apt-get installed chromium but ${CHROMIUM} is missing`);
}

export function launchChromium(): Promise<Browser> {
  ensureChromium();
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ["--headless", "--no-sandbox", "--disable-gpu"] });
}

/** A screenshot under docs/screenshots with a fixed name, so each run replaces the last. */
export async function screenshot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({
    path: join(SCREENSHOTS, `${name}.png`),
    fullPage: options.fullPage ?? true,
    animations: "disabled",
    caret: "hide",
  });
}

/**
 * A page in a browser context of its own (its own cookies: one signed-in member each), as the
 * screenshots want it: desktop size, British English, UTC, light; confirmations accepted.
 */
export async function newDashboardPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({
    ignoreHTTPSErrors: true,
    viewport: { width: 1280, height: 900 },
    locale: "en-GB",
    timezoneId: "UTC",
    colorScheme: "light",
  });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  page.on("dialog", (dialog) => void dialog.accept());
  return page;
}

/** Logs a member in through /login (the address filled in by `?email=`) and waits for the overview. */
export async function logInAs(page: Page, baseUrl: string, email: string, password: string): Promise<void> {
  await page.goto(new URL(`/login?email=${encodeURIComponent(email)}`, baseUrl).toString());
  await expect.poll(() => page.getByLabel("Email", { exact: true }).inputValue()).toBe(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Log in", exact: true }).click();
  await page.waitForURL((url) => url.pathname === "/");
}
