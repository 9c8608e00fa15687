import { useTestDatabase } from "@qc/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, startTestServer, type TestServer } from "../harness";

// The configured case (401 without the token, 200 with it, the figures) runs in dashboard.test.ts
// against the started stack; this is the deployment that never set METRICS_TOKEN.
describe("GET /metrics without METRICS_TOKEN", () => {
  const t = useTestDatabase();
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ database: t });
  });
  afterAll(() => server?.close());

  it("does not exist: 404 with the contract's flat body, whatever the credentials", async () => {
    for (const headers of [{}, { authorization: "Bearer anything-at-all-here" }] as Record<string, string>[]) {
      const res = await call(server, "/metrics", { headers });
      expect(res.status).toBe(404);
      expect(res.json()).toMatchObject({ error: "NOT_FOUND", code: 1030 });
      expect(res.text).not.toContain("qc_queue_jobs");
    }
  });
});
