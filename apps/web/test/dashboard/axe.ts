import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { AxeResults, Result } from "axe-core";
import type { Page } from "playwright-core";

/** The WCAG levels checked: 2.0 and 2.1, A and AA (docs/dashboard.md, "Accessibility"). */
export const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] as const;
/** A violation of these impacts fails the sweep; "moderate" and "minor" are reported only. */
const FAILING_IMPACTS = new Set(["serious", "critical"]);

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

export interface AxeViolation {
  id: string;
  impact: string;
  help: string;
  selectors: string[];
}

/**
 * axe-core run on the page as it is now, for the WCAG tags above (or only the `rules` named); the
 * violations found.
 *
 * The pages are served with a strict Content-Security-Policy (scripts only with the request's
 * nonce): a `<script>` tag added to the page would be refused. axe's source is evaluated through
 * the DevTools protocol instead (`page.evaluate` of the source string), which the page's CSP does
 * not govern, so the pages are checked exactly as served (no `bypassCSP`).
 */
export async function runAxe(page: Page, options: { rules?: string[] } = {}): Promise<AxeViolation[]> {
  const loaded = await page.evaluate(() => typeof (window as { axe?: unknown }).axe === "object");
  if (!loaded) await page.evaluate(AXE_SOURCE);
  const runOnly = options.rules ? { type: "rule", values: options.rules } : { type: "tag", values: [...AXE_TAGS] };
  const results = await page.evaluate(
    (only) =>
      (window as unknown as { axe: { run(context: Document, options: object): Promise<AxeResults> } }).axe.run(document, {
        runOnly: only,
        resultTypes: ["violations"],
      }),
    runOnly,
  );
  return results.violations.map((violation: Result) => ({
    id: violation.id,
    impact: violation.impact ?? "unknown",
    help: violation.help,
    selectors: violation.nodes.map((node) => node.target.map(String).join(" ")),
  }));
}

/** The violations that fail the sweep (serious or critical), one line each: rule id, help, selectors. */
export function failingViolations(where: string, violations: AxeViolation[]): string[] {
  return violations
    .filter((violation) => FAILING_IMPACTS.has(violation.impact))
    .map((violation) => `${where}: ${violation.impact} ${violation.id} (${violation.help}) at ${violation.selectors.join(", ")}`);
}
