import { z } from "zod";
import { EVENTS, type EventType } from "../events/catalog";

/** Known string patterns of the catalog, each with a value it accepts. */
const PATTERN_SAMPLES: Record<string, string> = {
  "^0x[0-9a-f]{40}$": `0x${"5a".repeat(20)}`,
  "^0x[0-9a-f]{64}$": `0x${"c3".repeat(32)}`,
  "^(0|[1-9][0-9]{0,77})$": "1000000000000000000",
};
const SAMPLE_UUID = "0194f2c4-cf65-7273-9e8f-60718293a4b5";

type JsonSchema = Record<string, unknown>;

/**
 * A value for one JSON Schema node: its example when it has one, else the first choice of an
 * enum, union or type list (null last), every property of an object, one item of an array, and
 * a value for each string format and catalog pattern. Throws on a pattern it does not know, so a
 * new field with a pattern fails the simulate test rather than sending a sample the schema refuses.
 */
function sampleOf(node: JsonSchema, now: Date): unknown {
  if ("const" in node) return node.const;
  if (node.example !== undefined) return node.example;
  if (Array.isArray(node.examples) && node.examples.length > 0) return node.examples[0];
  if (Array.isArray(node.enum)) return node.enum[0];
  for (const key of ["anyOf", "oneOf"] as const) {
    const options = node[key] as JsonSchema[] | undefined;
    if (options) return sampleOf(options.find((option) => option.type !== "null") ?? options[0]!, now);
  }
  if (Array.isArray(node.allOf)) return sampleOf(Object.assign({}, ...(node.allOf as JsonSchema[])), now);
  const types = Array.isArray(node.type) ? (node.type as string[]) : [node.type as string | undefined];
  const type = types.find((candidate) => candidate !== "null") ?? types[0];
  switch (type) {
    case "object": {
      const properties = (node.properties ?? {}) as Record<string, JsonSchema>;
      return Object.fromEntries(Object.entries(properties).map(([key, child]) => [key, sampleOf(child, now)]));
    }
    case "array": {
      const items = (node.items ?? {}) as JsonSchema;
      const count = Math.max(1, Number(node.minItems ?? 1));
      return Array.from({ length: count }, () => sampleOf(items, now));
    }
    case "string": {
      if (node.format === "uuid") return SAMPLE_UUID;
      if (node.format === "date-time") return now.toISOString();
      if (node.format === "email") return "treasury@example.com";
      if (node.format === "uri") return "https://example.com/";
      if (typeof node.pattern === "string") {
        const sample = PATTERN_SAMPLES[node.pattern];
        if (sample === undefined) throw new Error(`no sample for the pattern ${node.pattern}: add one to PATTERN_SAMPLES`);
        return sample;
      }
      return "simulated".padEnd(Number(node.minLength ?? 0), "-");
    }
    case "integer":
    case "number":
      return typeof node.minimum === "number" ? Math.max(node.minimum, 1) : 1;
    case "boolean":
      return false;
    case "null":
      return null;
    default:
      return null;
  }
}

/**
 * Sample `data` for an event type, generated from the same schema docs/webhooks.md is generated
 * from (the catalog's zod schema as JSON Schema), checked against that schema, and marked
 * `simulated: true` (CONTRACT §18). A schema whose sample it cannot check fails here, loudly.
 */
export function sampleEventData(type: EventType, now: Date): Record<string, unknown> {
  const schema = EVENTS[type].data as z.ZodType;
  const sample = sampleOf(z.toJSONSchema(schema, { io: "output", unrepresentable: "any" }) as JsonSchema, now);
  const checked = schema.parse(sample) as Record<string, unknown>;
  return { ...checked, simulated: true };
}
