import { createHash, X509Certificate } from "node:crypto";
import type { Browser, BrowserContext, CDPSession, Page } from "playwright-core";
import { chromium } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { CHROMIUM, ensureChromium } from "./browser";
import { startStack, type Stack } from "./stack";

/**
 * Chromium for WebAuthn against the started stack. Chromium refuses WebAuthn on a page with a
 * certificate error, so the stack's self-signed certificate is trusted by its key
 * (--ignore-certificate-errors-spki-list) rather than by ignoring errors.
 */
export function launchChromiumTrustingStack(stack: Pick<Stack, "cert">): Promise<Browser> {
  ensureChromium();
  const spki = createHash("sha256")
    .update(new X509Certificate(stack.cert).publicKey.export({ type: "spki", format: "der" }))
    .digest("base64");
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", `--ignore-certificate-errors-spki-list=${spki}`],
  });
}

/** The DevTools virtual authenticator standing in for a security key: it answers every prompt of the page's context. */
export async function addVirtualAuthenticator(context: BrowserContext, page: Page): Promise<VirtualAuthenticator> {
  const cdp = await context.newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "usb",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}

/** The signature counter of the authenticator's only credential. */
export async function signCount(authenticator: VirtualAuthenticator): Promise<number> {
  const { credentials } = await authenticator.cdp.send("WebAuthn.getCredentials", { authenticatorId: authenticator.authenticatorId });
  if (credentials.length !== 1) throw new Error(`the virtual authenticator holds ${credentials.length} credentials, not 1`);
  return credentials[0]!.signCount;
}

export interface VirtualAuthenticator {
  cdp: CDPSession;
  authenticatorId: string;
}

/**
 * For a describe block: the stack on the test's database and a Chromium trusting it, started
 * before the tests and closed after; `newPage()` opens a browser context whose page has a
 * virtual authenticator.
 */
export function useWebauthnBrowser(t: { url: string }) {
  let stack: Stack | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    stack = await startStack(t.url);
    browser = await launchChromiumTrustingStack(stack);
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });
  const started = () => {
    if (!stack || !browser) throw new Error("useWebauthnBrowser(): the stack runs only inside tests");
    return { stack, browser };
  };
  return {
    async newPage(): Promise<{ context: BrowserContext; page: Page; authenticator: VirtualAuthenticator }> {
      const context = await started().browser.newContext({ viewport: { width: 1280, height: 900 }, locale: "en-GB", timezoneId: "UTC" });
      const page = await context.newPage();
      page.setDefaultTimeout(20_000);
      return { context, page, authenticator: await addVirtualAuthenticator(context, page) };
    },
    go: (page: Page, path: string) => page.goto(new URL(path, started().stack.baseUrl).toString()),
    button: (page: Page, name: string) => page.getByRole("button", { name, exact: true }),
  };
}
