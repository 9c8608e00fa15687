import { DAEMON_INSTANCE_STATUSES, FAILED_JOB_STATUSES } from "@qc/domain";
import { z } from "zod";
import { timestamp } from "../../schemas/common";

export const operatorRecord = z.object({ id: z.uuid(), email: z.string(), name: z.string().nullable() });

export const queueOverview = z.object({
  name: z.string(),
  deadLetterQueue: z.string().nullable(),
  queued: z.number().int(),
  ready: z.number().int(),
  active: z.number().int(),
  failed: z.number().int(),
  deadLettered: z.number().int(),
  oldestReadyAgeSeconds: z.number().int().nullable(),
  series: z.array(z.object({ at: timestamp, created: z.number().int(), completed: z.number().int(), failed: z.number().int() })),
});

export const daemonInstance = z.object({
  instanceId: z.string(),
  hostname: z.string(),
  pid: z.number().int(),
  version: z.string(),
  queues: z.array(z.string()),
  startedAt: timestamp,
  lastBeatAt: timestamp,
  lastBeatAgeSeconds: z.number().int(),
  stoppedAt: timestamp.nullable(),
  status: z.enum(DAEMON_INSTANCE_STATUSES),
});

export const failedJob = z.object({
  id: z.uuid(),
  queue: z.string(),
  sourceQueue: z.string(),
  status: z.enum(FAILED_JOB_STATUSES),
  retryCount: z.number().int(),
  createdAt: timestamp,
  failedAt: timestamp.nullable(),
  nextAttemptAt: timestamp.nullable(),
  error: z.string().nullable(),
});

export const jobIdInput = z.object({ jobId: z.uuid() });
