import { randomInt } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "@qc/db/testing";
import { ensureDashboardBuild } from "../../src/dashboard/production-build";
import { launchChromium } from "../dashboard/browser";
import { malformedRequest } from "./malformed-requests";
import { parseFirstResponse, rawExchange, startWebProcess, type WebProcess } from "./web-process";

// The web process with the dashboard (Next's production build) in front: malformed requests that
// reach Next are answered too, and every page carries a nonce CSP that Chromium enforces without
// a single violation while the page hydrates.

const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : randomInt(2 ** 31);
const CASES = 1_500;
const CONCURRENCY = 24;

describe("the web process with the dashboard", () => {
  const t = useTestDatabase();
  let web: WebProcess;

  beforeAll(async () => {
    process.stdout.write(`dashboard socket fuzz: FUZZ_SEED=${SEED} (set it to replay this run)\n`);
    await ensureDashboardBuild({ env: process.env });
    web = await startWebProcess(t.url, { WEB_DASHBOARD: "true", WEB_DASHBOARD_DEV: "false" });
  }, 600_000);
  afterAll(async () => {
    await web?.close();
  }, 30_000);

  const get = async (path: string) => {
    const { bytes } = await rawExchange(
      { port: web.httpsPort, tls: { ca: web.cert } },
      [Buffer.from(`GET ${path} HTTP/1.1\r\nHost: localhost:${web.httpsPort}\r\nConnection: close\r\n\r\n`)],
      30_000,
      { halfClose: false },
    );
    return parseFirstResponse(bytes);
  };

  it("serves every page with a fresh nonce CSP, and every script Next renders carries that nonce", async () => {
    const nonces = new Set<string>();
    for (const path of ["/login", "/signup", "/", "/operators/login"]) {
      const page = await get(path);
      expect([200, 307], path).toContain(page.status);
      const policy = page.headers["content-security-policy"]!;
      expect(policy, path).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
      expect(policy).toContain("frame-ancestors 'none'");
      expect(policy).toContain("object-src 'none'");
      expect(policy).not.toMatch(/script-src[^;]*'unsafe-inline'/);
      const nonce = /'nonce-([^']+)'/.exec(policy)![1]!;
      nonces.add(nonce);
      if (page.status === 200) {
        const scripts = [...page.body.toString("utf8").matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
        expect(scripts.length, path).toBeGreaterThan(0);
        for (const tag of scripts) expect(tag, path).toContain(`nonce="${nonce}"`);
      }
    }
    expect(nonces.size).toBe(4);
  });

  it("hydrates the login page in Chromium with no CSP violation", async () => {
    const browser = await launchChromium();
    try {
      const context = await browser.newContext({ ignoreHTTPSErrors: true });
      const page = await context.newPage();
      const violations: string[] = [];
      page.on("console", (message) => {
        if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
      });
      page.on("pageerror", (error) => violations.push(error.message));
      await page.goto(`https://localhost:${web.httpsPort}/login?next=%2F%09%2Fevil.example`);
      // Hydrated: the form's React handler validates on submit instead of the browser posting it.
      await page.getByLabel("Email", { exact: true }).fill("nobody@example.com");
      await page.getByLabel("Password", { exact: true }).fill("not the password at all");
      await page.getByRole("button", { name: "Log in", exact: true }).click();
      await expect.poll(() => page.getByRole("alert").allTextContents(), { timeout: 20_000 }).toContain("invalid email or password");
      expect(violations).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 120_000);

  it(`answers ${CASES} malformed requests with a 4xx (or a page) or a close, never a 5xx or a hang, and keeps serving`, async () => {
    const failures: string[] = [];
    let next = 0;
    const worker = async () => {
      while (next < CASES) {
        const request = malformedRequest(SEED, next++);
        const { bytes, timedOut, errorCode } = await rawExchange({ port: web.httpsPort, tls: { ca: web.cert } }, request.chunks, 15_000);
        const label = `case ${request.index} (${request.kind}, FUZZ_SEED=${SEED})`;
        if (timedOut || errorCode === "ECONNREFUSED") failures.push(`${label}: ${timedOut ? "hang" : "refused"}`);
        else if (bytes.length > 0) {
          try {
            const { status } = parseFirstResponse(bytes);
            if (status >= 500) failures.push(`${label}: ${status}`);
            else if (request.mustRefuse && status < 400) failures.push(`${label}: ${status} to a request it must refuse`);
          } catch (error) {
            failures.push(`${label}: ${(error as Error).message}`);
          }
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    expect(failures.slice(0, 20)).toEqual([]);
    expect(web.child.exitCode).toBeNull();
    expect((await get("/healthz")).status).toBe(200);
    expect(web.output()).not.toMatch(/unhandled promise rejection|uncaught exception|uncaughtException|request handler failed/i);
  }, 300_000);
});
