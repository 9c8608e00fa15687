import type { Logger } from "@qc/core";
import type { JobQueue } from "@qc/core";
import type { DatabaseHandle } from "@qc/db";

/** Daemon configuration the handlers read (from env.ts in main.ts; set directly by tests). */
export interface DaemonConfig {
  /** SMTP_URL, e.g. smtp://127.0.0.1:2525; unset: emails go to the dev outbox (never in production). */
  smtpUrl?: string;
  /** EMAIL_FROM: the sender of every email. */
  emailFrom: string;
  production: boolean;
}

/** What a job handler may use; the same services the web process uses, minus HTTP. */
export interface JobContext {
  config: DaemonConfig;
  database: DatabaseHandle;
  jobs: JobQueue;
  log: Logger;
  now(): Date;
}
