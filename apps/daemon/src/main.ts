import { createLogger, developmentMode, serviceConfigFromEnv } from "@qc/core";
import { runMigrations } from "@qc/db";
import { armCrashPoint } from "./crash-points";
import { startDaemon } from "./daemon";
import { readDaemonEnv } from "./env";

const env = readDaemonEnv();
const log = createLogger("daemon", env.LOG_LEVEL);
await runMigrations(env.DATABASE_URL);
const config = serviceConfigFromEnv(env);
if (developmentMode(env))
  log.warn(
    "development mode (QC_DEV_MODE=true): the dev outbox, sandbox KYC and generated secrets are on; never run it " + "on production data",
  );
if (env.DAEMON_CRASH_AFTER) {
  log.warn(
    { crashAfter: env.DAEMON_CRASH_AFTER },
    "DAEMON_CRASH_AFTER is set: this daemon will kill itself at that point (recovery tests only)",
  );
  armCrashPoint(env.DAEMON_CRASH_AFTER);
}
// Signals are handled from before the daemon starts: it writes its heartbeat row while it is
// still starting, and a SIGTERM then (an orchestrator that gave up waiting, a test that saw the
// row) must still mean a graceful stop once it is up, not the default kill.
let stopping = false;
const started = startDaemon({
  databaseUrl: env.DATABASE_URL,
  log,
  instanceId: env.DAEMON_INSTANCE_ID,
  heartbeatSeconds: env.DAEMON_HEARTBEAT_SECONDS,
  auditCheckpointSeconds: env.AUDIT_CHECKPOINT_SECONDS,
  version: env.npm_package_version,
  config,
});
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    started
      .then((daemon) => daemon.stop())
      .then(
        () => process.exit(0),
        (err: unknown) => {
          log.error({ err }, "unclean stop");
          process.exit(1);
        },
      );
  });
}
await started;
