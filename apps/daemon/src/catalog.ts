import type { JobName, ParsedJobPayload } from "@qc/core";
import type { JobContext } from "./context";
import { decideSandboxKyc } from "./jobs/kyc-sandbox-decide";
import { pruneHeartbeats } from "./jobs/prune-heartbeats";
import { sendEmail } from "./jobs/send-email";

export type JobHandler<N extends JobName> = (payload: ParsedJobPayload<N>, ctx: JobContext) => Promise<unknown>;
export type JobHandlers = { [N in JobName]: JobHandler<N> };

/** Job name → handler. Schemas, retries and dead letters are declared in @qc/core's JOBS. */
export const handlers: JobHandlers = {
  "maintenance.prune-heartbeats": pruneHeartbeats,
  "email.send": sendEmail,
  "kyc.sandbox-decide": decideSandboxKyc,
};

/** Recurring jobs (cron, UTC), registered by every daemon; pg-boss runs each once per tick. */
export const schedules: { name: JobName; cron: string; payload: object }[] = [
  { name: "maintenance.prune-heartbeats", cron: "17 * * * *", payload: { olderThanHours: 168 } },
];
