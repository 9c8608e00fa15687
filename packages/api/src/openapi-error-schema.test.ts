import { expect, it } from "vitest";
import { buildOpenApiDocument } from "./openapi";
import { appRouter } from "./router";

const ERROR_REF = "#/components/schemas/Error";

/** Where in `value` an object schema repeats the error body's own properties, as JSON paths. */
function inlineErrorBodies(value: unknown, path: string, found: string[]): string[] {
  if (Array.isArray(value)) value.forEach((item, i) => inlineErrorBodies(item, `${path}[${i}]`, found));
  else if (typeof value === "object" && value !== null) {
    const properties = (value as { properties?: Record<string, unknown> }).properties;
    if (properties && ["error", "code", "message", "requestId"].every((name) => name in properties)) found.push(path);
    for (const [key, child] of Object.entries(value)) inlineErrorBodies(child, `${path}.${key}`, found);
  }
  return found;
}

it("the error body is one schema: every place that carries it, the batch's refused items included, refers to Error", () => {
  const document = buildOpenApiDocument(appRouter, "https://custody.example.com") as unknown as {
    paths: Record<string, Record<string, unknown>>;
    components: { schemas: Record<string, unknown> };
  };
  const { Error: errorSchema, ...otherSchemas } = document.components.schemas;
  expect(inlineErrorBodies(errorSchema, "Error", [])).toEqual(["Error"]);
  expect(inlineErrorBodies({ paths: document.paths, schemas: otherSchemas }, "document", [])).toEqual([]);

  const batch = JSON.stringify(document.paths["/v1/transactions/batch"]!.post);
  expect(batch).toContain(`"error":{"$ref":"${ERROR_REF}"}`);
});
