import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, schema } from "@qc/db";
import { useTestDatabase } from "@qc/db/testing";
import type { Daemon } from "@qc/daemon";
import { call, startTestServer, type TestServer } from "./harness";
import {
  eventually,
  fromIp,
  postJson,
  signupBody,
  startSmtpSink,
  startTestDaemon,
  verificationToken,
  type SmtpSink,
} from "./identity-helpers";

interface MailboxEmail {
  to: string;
  subject: string;
  text: string;
  transport: string;
}

/**
 * The dev mailbox (docs/decisions/identity.md): public outside production, so it lists one
 * recipient's mail at a time, and only mail the daemon delivered to the dev outbox (no SMTP_URL),
 * never mail sent over SMTP nor mail still queued.
 */
describe("GET /v1/dev/mailbox", () => {
  const t = useTestDatabase();
  let server: TestServer;
  let smtp: SmtpSink | undefined;
  let daemon: Daemon | undefined;
  beforeAll(async () => {
    server = await startTestServer({ database: t });
  });
  afterAll(async () => {
    await daemon?.stop({ timeoutMs: 5_000 });
    await smtp?.close();
    await server?.close();
  });

  const mailbox = async (query: string) => {
    const res = await call(server, `/v1/dev/mailbox${query}`);
    return { status: res.status, body: res.json() };
  };
  const emailsTo = async (address: string): Promise<MailboxEmail[]> => {
    const res = await mailbox(`?to=${encodeURIComponent(address)}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.emails;
  };
  const signUp = async () => {
    const body = signupBody();
    expect((await postJson(server, "/v1/signup", body, fromIp("192.0.2.40"))).status).toBe(201);
    return String(body.email);
  };
  const rowOf = async (address: string) => (await t.db.select().from(schema.emails).where(eq(schema.emails.to, address)))[0]!;

  it("shows one address's outbox mail once delivered, never another's, never a list of everyone", async () => {
    const alice = await signUp();
    const bob = await signUp();
    // Queued, not delivered yet (no daemon): it may still go out over SMTP, so it is not shown.
    expect((await rowOf(alice)).sentAt).toBeNull();
    expect(await emailsTo(alice)).toEqual([]);

    daemon = await startTestDaemon(t.url); // no SMTP_URL: the dev outbox
    const delivered = await eventually(async () => {
      const emails = await emailsTo(alice);
      return emails.length > 0 ? emails : undefined;
    });
    expect(delivered).toEqual([expect.objectContaining({ to: alice, transport: "outbox" })]);
    expect(verificationToken(delivered[0]!.text)).toHaveLength(43);
    expect(await emailsTo(alice.toUpperCase())).toEqual(delivered); // the address is normalised as at signup
    await eventually(async () => (await emailsTo(bob)).length === 1);
    expect(JSON.stringify(await emailsTo(alice))).not.toContain(bob);

    // Without an address there is no list: a 400 naming the parameter, not every recipient's mail.
    for (const query of ["", "?to=", "?limit=50", "?to=not-an-address", "?to=%25"]) {
      const res = await mailbox(query);
      expect(res.status, query).toBe(400);
      expect(res.body, query).toMatchObject({ error: "VALIDATION_FAILED", code: 1001 });
      expect(
        res.body.details.fields.map((f: { path: string }) => f.path),
        query,
      ).toEqual(["to"]);
      expect(JSON.stringify(res.body)).not.toContain(alice);
    }
  });

  it("never shows mail that went out over SMTP", async () => {
    await daemon?.stop({ timeoutMs: 5_000 });
    smtp = await startSmtpSink();
    daemon = await startTestDaemon(t.url, { config: { smtpUrl: smtp.url, emailFrom: "Quantum Custody <no-reply@custody.test>" } });
    const carol = await signUp();
    await smtp.waitFor((mail) => mail.to.includes(carol));
    await eventually(async () => (await rowOf(carol)).sentAt);
    expect(await rowOf(carol)).toMatchObject({ transport: "smtp" });
    expect(await emailsTo(carol)).toEqual([]);
  });

  it("does not exist in production", async () => {
    const production = await startTestServer({ database: t, config: { production: true } });
    try {
      const res = await call(production, "/v1/dev/mailbox?to=alice%40example.com");
      expect(res.status).toBe(404);
      expect(res.json()).toMatchObject({ error: "NOT_FOUND", code: 1030 });
    } finally {
      await production.close();
    }
  });
});
