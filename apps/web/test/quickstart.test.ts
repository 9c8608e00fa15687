import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, schema } from "@qc/db";
import { useTestDatabase } from "@qc/db/testing";
import type { Daemon } from "@qc/daemon";
import { docBlocks, describeRun, runBash } from "./doc-runner";
import { startTestServer, type TestServer } from "./harness";
import { startTestDaemon, uniqueEmail } from "./identity-helpers";

/** The walk-through's shell blocks, each run unchanged, in order, in one bash process. */
const blocks = () => docBlocks("quickstart.md");

describe("docs/quickstart.md", () => {
  const t = useTestDatabase();
  let server: TestServer;
  let daemon: Daemon;
  beforeAll(async () => {
    server = await startTestServer({ database: t });
    daemon = await startTestDaemon(t.url); // no SMTP_URL: emails land in the dev outbox, as on a fresh machine
  });
  afterAll(async () => {
    await daemon?.stop({ timeoutMs: 5_000 });
    await server?.close();
  });

  it("has the walk-through's blocks", () => {
    expect(blocks().length).toBeGreaterThanOrEqual(8);
    expect(blocks().join("\n")).toContain("/v1/signup");
  });

  it("runs every shell block in one bash process and ends with a verified tenant", async () => {
    const email = uniqueEmail("quickstart+reader");
    const result = await runBash(blocks().join("\n"), {
      env: { BASE: `https://127.0.0.1:${server.httpsPort}`, EMAIL: email },
      timeoutMs: 90_000,
    });
    expect(result.code, describeRun(result)).toBe(0);
    expect(result.stdout).toMatch(/https:\/\/localhost\/verify-email\?token=[A-Za-z0-9_-]{43}/);
    expect(result.stdout).toContain('"status":"EMAIL_VERIFIED"');
    expect(result.stdout).toMatch(/tenant [0-9a-f-]{36} is verified/);

    const [user] = await t.db.select().from(schema.users).where(eq(schema.users.email, email));
    expect(user).toMatchObject({ status: "EMAIL_VERIFIED" });
    const [tenant] = await t.db.select().from(schema.tenants).where(eq(schema.tenants.id, user!.tenantId));
    expect(tenant).toMatchObject({ status: "VERIFIED", name: "Acme Treasury" });
    const keys = await t.db.select().from(schema.apiKeys).where(eq(schema.apiKeys.tenantId, tenant!.id));
    expect(keys).toHaveLength(2); // the created key and its rotation
    expect(keys.filter((k) => k.graceEndsAt !== null)).toHaveLength(1);
    const cases = await t.db.select().from(schema.kycCases).where(eq(schema.kycCases.tenantId, tenant!.id));
    expect(cases).toEqual([expect.objectContaining({ status: "APPROVED", provider: "sandbox" })]);
    const [email_] = await t.db.select().from(schema.emails).where(eq(schema.emails.to, email));
    expect(email_).toMatchObject({ transport: "outbox" });
  });
});
