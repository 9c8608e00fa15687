export { startDaemon, type Daemon, type DaemonOptions } from "./daemon";
export { NonRetryableJobError } from "./errors";
export type { DaemonConfig, JobContext } from "./context";
