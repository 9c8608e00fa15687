import { parseEnv, productionRules, serviceEnvSchema } from "@qc/core";
import { z } from "zod";
import { CRASH_POINTS } from "./crash-points";

// The only place in apps/daemon that reads process.env: the shared service variables plus the
// daemon's own.
const schema = serviceEnvSchema
  .extend({
    DATABASE_URL: z.string().url({ message: "DATABASE_URL is required (./qc start provides the embedded one)" }),
    DAEMON_INSTANCE_ID: z.string().min(1).optional(),
    DAEMON_HEARTBEAT_SECONDS: z.coerce.number().int().min(1).max(300).default(5),
    /** How often the audit chains are sealed and their heads signed (CONTRACT §19; default 300). */
    AUDIT_CHECKPOINT_SECONDS: z.coerce.number().int().min(1).max(86_400).default(300),
    npm_package_version: z.string().default("0.0.0"),
    /**
     * Recovery tests only: the daemon SIGKILLs itself at this point (see crash-points.ts), e.g.
     * `transfers.broadcast:sent`. Refused in production (without QC_DEV_MODE=true).
     */
    DAEMON_CRASH_AFTER: z.enum(CRASH_POINTS).optional(),
  })
  .superRefine(
    // The daemon sends the emails, so production needs SMTP_URL here (the outbox is development only).
    productionRules({ required: ["SMTP_URL"], developmentOnly: { DAEMON_CRASH_AFTER: "DAEMON_CRASH_AFTER is a test hook" } }),
  );

export type DaemonEnv = z.infer<typeof schema>;

export function readDaemonEnv(source: NodeJS.ProcessEnv = process.env): DaemonEnv {
  return parseEnv(schema, source);
}
