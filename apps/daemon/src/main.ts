import { createLogger, serviceConfigFromEnv } from "@qc/core";
import { runMigrations } from "@qc/db";
import { armCrashPoint } from "./crash-points";
import { startDaemon } from "./daemon";
import { readDaemonEnv } from "./env";

const env = readDaemonEnv();
const log = createLogger("daemon", env.LOG_LEVEL);
await runMigrations(env.DATABASE_URL);
const config = serviceConfigFromEnv(env);
if (env.DAEMON_CRASH_AFTER) {
  log.warn({ crashAfter: env.DAEMON_CRASH_AFTER }, "DAEMON_CRASH_AFTER is set: this daemon will kill itself at that point (recovery tests only)");
  armCrashPoint(env.DAEMON_CRASH_AFTER);
}
const daemon = await startDaemon({
  databaseUrl: env.DATABASE_URL,
  log,
  instanceId: env.DAEMON_INSTANCE_ID,
  heartbeatSeconds: env.DAEMON_HEARTBEAT_SECONDS,
  version: env.npm_package_version,
  config,
});
if (config.production && !config.smtpUrl) log.error("SMTP_URL is not set: emails stay queued (and retried) until it is");

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
