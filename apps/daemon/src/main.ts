import { createLogger } from "@qc/core";
import { runMigrations } from "@qc/db";
import { startDaemon } from "./daemon";
import { readDaemonEnv } from "./env";

const env = readDaemonEnv();
const log = createLogger("daemon", env.LOG_LEVEL);
await runMigrations(env.DATABASE_URL);
const daemon = await startDaemon({
  databaseUrl: env.DATABASE_URL,
  log,
  instanceId: env.DAEMON_INSTANCE_ID,
  heartbeatSeconds: env.DAEMON_HEARTBEAT_SECONDS,
  version: env.npm_package_version,
  config: { smtpUrl: env.SMTP_URL, production: env.NODE_ENV === "production", ...(env.EMAIL_FROM ? { emailFrom: env.EMAIL_FROM } : {}) },
});
if (env.NODE_ENV === "production" && !env.SMTP_URL) log.error("SMTP_URL is not set: emails stay queued (and retried) until it is");

let stopping = false;
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    daemon.stop().then(
      () => process.exit(0),
      (err: unknown) => {
        log.error({ err }, "unclean stop");
        process.exit(1);
      },
    );
  });
}
