import { z } from "zod";
import { EVENTS, EVENT_TYPES } from "../events/catalog";

/**
 * The event catalog of docs/webhooks.md, generated from EVENTS (the same table the services
 * emit through and the fan-out reads), so the document cannot drift from the code:
 * `scripts/generate-webhook-docs.ts` writes it, a test fails when it is stale.
 */
export const EVENT_CATALOG_START =
  "<!-- event-catalog:start: generated from EVENTS (packages/core/src/events/catalog.ts) by " +
  "scripts/generate-webhook-docs.ts; do not edit by hand -->";
export const EVENT_CATALOG_END = "<!-- event-catalog:end -->";

/** Drops what says nothing to a reader: the `$schema` line, uuid regexes beside `format: uuid`, safe-integer bounds. */
function simplify(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(simplify);
  if (!node || typeof node !== "object") return node;
  const entries = Object.entries(node as Record<string, unknown>).filter(([key, value]) => {
    if (key === "$schema") return false;
    if (key === "pattern" && (node as { format?: unknown }).format === "uuid") return false;
    if ((key === "minimum" || key === "maximum") && Math.abs(value as number) === Number.MAX_SAFE_INTEGER) return false;
    return true;
  });
  return Object.fromEntries(entries.map(([key, value]) => [key, simplify(value)]));
}

/** JSON indented by two, with arrays of plain values (enums, type lists) on one line. */
function format(value: unknown, indent = ""): string {
  if (Array.isArray(value)) {
    if (value.every((item) => item === null || typeof item !== "object"))
      return `[${value.map((item) => JSON.stringify(item)).join(", ")}]`;
    return `[\n${value.map((item) => `${indent}  ${format(item, `${indent}  `)}`).join(",\n")}\n${indent}]`;
  }
  if (value && typeof value === "object") {
    const entries = Object.entries(value);
    if (entries.length === 0) return "{}";
    return `{\n${entries.map(([key, item]) => `${indent}  ${JSON.stringify(key)}: ${format(item, `${indent}  `)}`).join(",\n")}\n${indent}}`;
  }
  return JSON.stringify(value);
}

function dataSchema(schema: z.ZodType): string {
  return format(simplify(z.toJSONSchema(schema, { io: "output", unrepresentable: "any" })));
}

export function renderWebhookEventCatalog(): string {
  const lines = [
    "| type | about (`sequence` counts per) | when |",
    "|---|---|---|",
    ...EVENT_TYPES.map(
      (type) =>
        `| [\`${type}\`](#${type.replaceAll(".", "")}) | ${EVENTS[type].aggregate} | ${EVENTS[type].description.replaceAll("|", "\\|")} |`,
    ),
  ];
  for (const type of EVENT_TYPES) {
    const event = EVENTS[type];
    lines.push(
      "",
      `### \`${type}\``,
      "",
      event.description,
      "",
      `Aggregate: \`${event.aggregate}\`. Schema of \`data\` (JSON Schema):`,
      "",
      "```json",
      dataSchema(event.data),
      "```",
    );
  }
  return lines.join("\n");
}

/** `markdown` with the section between the catalog markers replaced by the generated catalog. */
export function withGeneratedEventCatalog(markdown: string): string {
  const start = markdown.indexOf(EVENT_CATALOG_START);
  const end = markdown.indexOf(EVENT_CATALOG_END);
  if (start < 0 || end < start) throw new Error("docs/webhooks.md lacks the event-catalog markers");
  return `${markdown.slice(0, start + EVENT_CATALOG_START.length)}\n\n${renderWebhookEventCatalog()}\n\n${markdown.slice(end)}`;
}
