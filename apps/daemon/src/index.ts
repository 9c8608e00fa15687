export { startDaemon, type Daemon, type DaemonOptions } from "./daemon";
export { NonRetryableJobError } from "./errors";
export type { JobContext } from "./context";
