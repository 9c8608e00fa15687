/**
 * Regenerates the event catalog of docs/webhooks.md from the typed events (EVENTS in
 * packages/core/src/events/catalog.ts). `--check` only reports, exiting 1 when the file is stale.
 *
 *   ./qc exec tsx scripts/generate-webhook-docs.ts [--check]
 */
import { readFileSync, writeFileSync } from "node:fs";
import { withGeneratedEventCatalog } from "../packages/core/src/webhooks/webhook-event-docs";

const path = new URL("../docs/webhooks.md", import.meta.url);
const current = readFileSync(path, "utf8");
const generated = withGeneratedEventCatalog(current);
if (process.argv.includes("--check")) {
  if (generated !== current) {
    console.error("docs/webhooks.md is stale: run ./qc exec tsx scripts/generate-webhook-docs.ts");
    process.exit(1);
  }
} else if (generated !== current) {
  writeFileSync(path, generated);
  console.log("docs/webhooks.md: event catalog regenerated");
} else {
  console.log("docs/webhooks.md: event catalog up to date");
}
