import { Writable } from "node:stream";
import pino from "pino";
import { startSmtpSink } from "../../test/smtp-sink";
import { afterEach, describe, expect, it } from "vitest";
import { createLogger, JOBS } from "@qc/core";
import { eq, schema } from "@qc/db";
import { freePort, useTestDatabase } from "@qc/db/testing";
import { waitFor, waitForJobState } from "../../test/wait";
import type { JobContext } from "../context";
import { startDaemon, type Daemon } from "../daemon";
import { sendEmail } from "./send-email";

const TOKEN_LINK = "https://localhost/verify-email?token=SECRET_TOKEN_abcdefghijklmnopqrstuvwxyz0123456";

/** A logger whose JSON lines the test can read. */
function capturingLogger() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { log: pino({ level: "info" }, stream), lines };
}

describe("job email.send", () => {
  const t = useTestDatabase();
  const cleanup: (() => Promise<void>)[] = [];
  afterEach(async () => {
    while (cleanup.length) await cleanup.pop()!();
  });

  const insertEmail = async (to: string) => {
    const [row] = await t.db
      .insert(schema.emails)
      .values({ tenantId: null, to, subject: "Verify your email", text: `Follow ${TOKEN_LINK}`, kind: "verify_email" })
      .returning();
    return row!;
  };
  const ctx = (config: Partial<JobContext["config"]>, log = createLogger("send-email-test", "silent")): JobContext =>
    ({
      database: t,
      db: t.db,
      log,
      now: () => new Date(),
      config: { emailFrom: "Custody <no-reply@custody.test>", production: false, ...config },
    }) as unknown as JobContext;
  const rowOf = async (id: string) => (await t.db.select().from(schema.emails).where(eq(schema.emails.id, id)))[0]!;

  it("without SMTP_URL (development) marks the email delivered to the dev outbox and writes it to the log (CONTRACT §3)", async () => {
    const email = await insertEmail("outbox@example.com");
    const { log, lines } = capturingLogger();
    expect(await sendEmail({ emailId: email.id }, ctx({}, log))).toEqual({ status: "sent", transport: "outbox" });
    const row = await rowOf(email.id);
    expect(row).toMatchObject({ transport: "outbox", attempts: 1, lastError: null });
    expect(row.sentAt).not.toBeNull();
    const logged = lines.join("\n");
    expect(logged).toContain("outbox@example.com");
    expect(logged).toContain("Verify your email");
    expect(logged).toContain("dev outbox");
    expect(logged).toContain(TOKEN_LINK);
    // Already sent: nothing more happens.
    expect(await sendEmail({ emailId: email.id }, ctx({}, log))).toEqual({ status: "already_sent" });
    expect((await rowOf(email.id)).attempts).toBe(1);
  });

  it("sends over SMTP_URL, once, and refuses the outbox in production", async () => {
    const sink = await startSmtpSink();
    cleanup.push(sink.close);
    const email = await insertEmail("smtp@example.com");
    const config = { smtpUrl: `smtp://127.0.0.1:${sink.port}` };
    const { log, lines } = capturingLogger();
    expect(await sendEmail({ emailId: email.id }, ctx(config, log))).toEqual({ status: "sent", transport: "smtp" });
    expect(lines.join("\n")).not.toContain("SECRET_TOKEN"); // over SMTP the text never reaches a log
    expect(await sendEmail({ emailId: email.id }, ctx(config))).toEqual({ status: "already_sent" });
    expect(sink.messages).toHaveLength(1);
    expect(sink.messages[0]!.to).toEqual(["smtp@example.com"]);
    expect(sink.messages[0]!.raw).toMatch(/^From: Custody <no-reply@custody\.test>/m);
    expect(await rowOf(email.id)).toMatchObject({ transport: "smtp", attempts: 1 });

    const production = await insertEmail("prod@example.com");
    await expect(sendEmail({ emailId: production.id }, ctx({ production: true }))).rejects.toThrow(/SMTP_URL/);
    expect((await rowOf(production.id)).sentAt).toBeNull();
  });

  it("retries while the SMTP server is down and delivers once it is back: nothing is lost", async () => {
    const port = await freePort(); // nothing listens here yet
    const daemon: Daemon = await startDaemon({
      databaseUrl: t.url,
      log: createLogger("send-email-test", "silent"),
      schedules: [],
      heartbeatSeconds: 60,
      config: { smtpUrl: `smtp://127.0.0.1:${port}` },
    });
    cleanup.push(() => daemon.stop({ timeoutMs: 5_000 }));
    // The queue carries the catalog's retry policy.
    const queue = await daemon.boss.getQueue("email.send");
    expect(queue).toMatchObject({ retryLimit: JOBS["email.send"].retryLimit, retryDelay: 10, retryBackoff: true, retryDelayMax: 600 });

    const email = await insertEmail("later@example.com");
    // Same job, a one-second retry delay instead of the catalog's ten so the test stays short.
    const jobId = await daemon.boss.send("email.send", { emailId: email.id }, { retryLimit: 5, retryDelay: 1, retryBackoff: false });
    await waitForJobState(daemon.boss, "email.send", jobId!, ["retry"]);
    const failed = await rowOf(email.id);
    expect(failed.sentAt).toBeNull();
    expect(failed.attempts).toBeGreaterThanOrEqual(1);
    expect(failed.lastError).toMatch(/ECONNREFUSED|connect/i);

    const sink = await startSmtpSink(port);
    cleanup.push(sink.close);
    const done = await waitForJobState(daemon.boss, "email.send", jobId!, ["completed"], 30_000);
    expect(done.retryCount).toBeGreaterThanOrEqual(1);
    await waitFor(async () => sink.messages.length === 1);
    expect(sink.messages[0]!.to).toEqual(["later@example.com"]);
    expect(await rowOf(email.id)).toMatchObject({ transport: "smtp", lastError: null });
  });
});
