import { parseEnv, serviceEnvSchema } from "@qc/core";
import { z } from "zod";
import { CRASH_POINTS } from "./crash-points";

// The only place in apps/daemon that reads process.env: the shared service variables plus the
// daemon's own.
const schema = serviceEnvSchema.extend({
  DATABASE_URL: z.string().url({ message: "DATABASE_URL is required (./qc start provides the embedded one)" }),
  DAEMON_INSTANCE_ID: z.string().min(1).optional(),
  DAEMON_HEARTBEAT_SECONDS: z.coerce.number().int().min(1).max(300).default(5),
  npm_package_version: z.string().default("0.0.0"),
  /**
   * Recovery tests only: the daemon SIGKILLs itself at this point (see crash-points.ts), e.g.
   * `transfers.broadcast:sent`. Refused in production.
   */
  DAEMON_CRASH_AFTER: z.enum(CRASH_POINTS).optional(),
}).refine((env) => !(env.NODE_ENV === "production" && env.DAEMON_CRASH_AFTER), {
  path: ["DAEMON_CRASH_AFTER"],
  message: "DAEMON_CRASH_AFTER is a test hook and is refused in production",
});

export type DaemonEnv = z.infer<typeof schema>;

export function readDaemonEnv(source: NodeJS.ProcessEnv = process.env): DaemonEnv {
  return parseEnv(schema, source);
}
