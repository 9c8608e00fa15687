import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { EVENT_TYPES } from "../events/catalog";
import { renderWebhookEventCatalog, withGeneratedEventCatalog } from "./webhook-event-docs";

const DOC = new URL("../../../../docs/webhooks.md", import.meta.url);

describe("the event catalog in docs/webhooks.md", () => {
  it("is the one generated from EVENTS (regenerate: ./qc exec tsx scripts/generate-webhook-docs.ts)", () => {
    const doc = readFileSync(DOC, "utf8");
    expect(doc).toBe(withGeneratedEventCatalog(doc));
  });

  it("names every event type with a data schema, and notices a change", () => {
    const catalog = renderWebhookEventCatalog();
    for (const type of EVENT_TYPES) expect(catalog).toContain(`### \`${type}\``);
    expect(catalog).toContain('"previousStatus"');
    const doc = readFileSync(DOC, "utf8");
    expect(withGeneratedEventCatalog(doc.replace("### `webhook.test`", "### `webhook.tested`"))).not.toBe(
      doc.replace("### `webhook.test`", "### `webhook.tested`"),
    );
  });
});
