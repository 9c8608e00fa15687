import { z } from "zod";

/** Output schemas made by `ndjsonLines`, each with the schema of one of its lines. */
const LINE_SCHEMAS = new WeakMap<object, z.ZodType>();

const isAsyncIterable = (value: unknown): value is AsyncIterable<unknown> =>
  typeof value === "object" && value !== null && Symbol.asyncIterator in value;

async function* validated<T extends z.ZodType>(lines: AsyncIterable<unknown>, line: T): AsyncGenerator<z.output<T>> {
  for await (const item of lines) yield line.parse(item);
}

/**
 * The output of a route that streams NDJSON (`application/x-ndjson`): the procedure returns an
 * async iterable, and each item is validated against `line` as the REST adapter pulls it, then
 * written as one line, with backpressure. The REST route table, the adapter and the OpenAPI
 * document recognise the route by this schema (`ndjsonLineSchema`): declared once, in `.output()`.
 * Whatever the procedure does before returning the iterable (checks, the first query) fails as
 * any route does, with the error body; an error after the first line ends the response early.
 */
export function ndjsonLines<T extends z.ZodType>(line: T) {
  const schema = z
    .custom<AsyncIterable<z.input<T>>>(isAsyncIterable, "expected an async iterable of lines")
    .transform((lines) => validated(lines, line))
    // What the JSON document generator renders in place of a transform it cannot; the OpenAPI
    // document replaces the whole response content with the line schema under application/x-ndjson.
    .meta({ override: { description: "NDJSON: one line per item" } });
  LINE_SCHEMAS.set(schema, line);
  return schema;
}

/** The line schema of a procedure that streams NDJSON (its output made by `ndjsonLines`), or undefined. */
export function ndjsonLineSchema(procedure: { _def: object }): z.ZodType | undefined {
  const output = (procedure._def as { output?: unknown }).output;
  return typeof output === "object" && output !== null ? LINE_SCHEMAS.get(output) : undefined;
}
