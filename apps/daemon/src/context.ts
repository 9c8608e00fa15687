import type { ServiceConfig, ServiceDeps } from "@qc/core";

/** Daemon configuration the handlers read: the service configuration both processes share. */
export type DaemonConfig = ServiceConfig;

/**
 * What a job handler may use: the same `ServiceDeps` the web process hands its services
 * (database, clock, queue, chain clients, configuration), with a logger bound to the job.
 */
export type JobContext = ServiceDeps;
