import type { Logger } from "@qc/core";
import type { JobQueue } from "@qc/core";
import type { DatabaseHandle } from "@qc/db";

/** What a job handler may use; the same services the web process uses, minus HTTP. */
export interface JobContext {
  database: DatabaseHandle;
  jobs: JobQueue;
  log: Logger;
  now(): Date;
}
