import { z } from "zod";

const flag = (fallback: "true" | "false") =>
  z
    .enum(["true", "false", "1", "0"])
    .default(fallback)
    .transform((v) => v === "true" || v === "1");

// The only place in apps/web that reads process.env; a bad value stops the process at boot.
const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  DATABASE_URL: z.string().url().optional(),
  DATA_DIR: z.string().default(".data"),
  PUBLIC_URL: z.string().url().optional(),
  HTTPS_PORT: z.coerce.number().int().min(0).max(65535).default(8443),
  HTTP_PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default("0.0.0.0"),
  TLS_CERT_FILE: z.string().optional(),
  TLS_KEY_FILE: z.string().optional(),
  TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
  /** Serve the dashboard pages through Next (off for API-only instances). */
  WEB_DASHBOARD: flag("true"),
  LOG_LEVEL: z.string().default("info"),
});

export type WebEnv = z.infer<typeof schema>;

export function readWebEnv(source: NodeJS.ProcessEnv = process.env): WebEnv {
  const parsed = schema.safeParse(source);
  if (!parsed.success) {
    const fields = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`invalid configuration: ${fields}`);
  }
  return parsed.data;
}
