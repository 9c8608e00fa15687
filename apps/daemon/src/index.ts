export { startDaemon, type Daemon, type DaemonOptions } from "./daemon";
export type { DaemonConfig, JobContext } from "./context";
