import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "@qc/db/testing";
import { call, startTestServer, type TestServer } from "./harness";

describe("/v1/openapi.json", () => {
  const t = useTestDatabase();
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ database: t });
  });
  afterAll(() => server?.close());

  it("is a valid OpenAPI 3.1 document whose errors are the contract's body", async () => {
    const res = await call(server, "/v1/openapi.json");
    expect(res.status).toBe(200);
    const document = res.json();
    expect(document.openapi).toMatch(/^3\.1\./);
    const validator = new Validator();
    const result = await validator.validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
    expect(document.components.schemas.Error.required).toEqual(["error", "code", "message", "requestId"]);
    for (const item of Object.values<Record<string, { responses: Record<string, { content?: unknown }> }>>(document.paths)) {
      for (const operation of Object.values(item)) {
        for (const [status, response] of Object.entries(operation.responses)) {
          if (Number(status) >= 400) expect(response.content).toEqual({ "application/json": { schema: { $ref: "#/components/schemas/Error" } } });
        }
      }
    }
  });

  it("is rejected by the validator when broken (the check can fail)", async () => {
    const document = (await call(server, "/v1/openapi.json")).json();
    document.paths["/v1/broken"] = { get: { responses: "not an object" } };
    const result = await new Validator().validate(document);
    expect(result.valid).toBe(false);
  });
});
