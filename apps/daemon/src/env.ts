import { z } from "zod";

// The only place in apps/daemon that reads process.env.
const schema = z.object({
  DATABASE_URL: z.string().url({ message: "DATABASE_URL is required (pnpm start provides the embedded one)" }),
  DAEMON_INSTANCE_ID: z.string().min(1).optional(),
  DAEMON_HEARTBEAT_SECONDS: z.coerce.number().int().min(1).max(300).default(5),
  LOG_LEVEL: z.string().default("info"),
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  /** Outgoing mail, e.g. smtp://user:pass@mail.example:587; unset: the dev outbox. */
  SMTP_URL: z.string().url().optional(),
  /** Sender of every email (RFC 5322 address, optionally with a display name). */
  EMAIL_FROM: z.string().min(3).optional(),
  npm_package_version: z.string().default("0.0.0"),
});

export type DaemonEnv = z.infer<typeof schema>;

export function readDaemonEnv(source: NodeJS.ProcessEnv = process.env): DaemonEnv {
  const parsed = schema.safeParse(source);
  if (!parsed.success) {
    throw new Error(`invalid configuration: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
  }
  return parsed.data;
}
