import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { readDaemonEnv } from "./env";

const DATABASE_URL = "postgres://postgres@127.0.0.1:5432/postgres";
const read = (vars: Record<string, string>) => readDaemonEnv({ DATABASE_URL, ...vars } as NodeJS.ProcessEnv);

describe("daemon configuration: production unless QC_DEV_MODE=true", () => {
  it("refuses to start without production's secrets and the mail server, naming each", () => {
    const missing = "production mode (QC_DEV_MODE is not true) needs KYC_WEBHOOK_SECRET, WEBHOOK_SECRET_KEY, SMTP_URL";
    expect(() => read({})).toThrow(missing);
    expect(() => read({ NODE_ENV: "development" })).toThrow(missing);
    const production = read({
      KYC_WEBHOOK_SECRET: "k".repeat(32),
      WEBHOOK_SECRET_KEY: randomBytes(32).toString("hex"),
      SMTP_URL: "smtp://mail.internal:587",
    });
    expect(production.QC_DEV_MODE).toBe(false);
  });

  it("refuses the crash hook in production and allows it in development mode", () => {
    expect(() => read({ DAEMON_CRASH_AFTER: "transfers.broadcast:sent" })).toThrow(
      "DAEMON_CRASH_AFTER is a test hook and is refused in production",
    );
    expect(read({ QC_DEV_MODE: "true", DAEMON_CRASH_AFTER: "transfers.broadcast:sent" }).DAEMON_CRASH_AFTER).toBe(
      "transfers.broadcast:sent",
    );
  });
});
