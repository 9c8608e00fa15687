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
  /** ≥ 32 bytes, hex or base64: keys API-secret hashes. Required in production; generated under DATA_DIR otherwise. */
  API_KEY_PEPPER: z.string().min(32).optional(),
  SMTP_URL: z.string().url().optional(),
  KYC_PROVIDER: z.string().default("sandbox"),
  KYC_WEBHOOK_SECRET: z.string().min(16).optional(),
  KYC_SANDBOX_DELAY_MS: z.coerce.number().int().min(0).default(2000),
  // Thresholds (CONTRACT §3 defaults; configurable).
  LOCKOUT_FAILURES: z.coerce.number().int().min(1).default(10),
  LOCKOUT_WINDOW_SECONDS: z.coerce.number().int().min(1).default(600),
  LOCKOUT_SECONDS: z.coerce.number().int().min(1).default(900),
  RATE_LIMIT_PER_SECOND: z.coerce.number().int().min(1).default(100),
  RATE_LIMIT_BURST: z.coerce.number().int().min(0).default(100),
  SIGNUP_LIMIT_PER_HOUR: z.coerce.number().int().min(1).default(30),
  SIGNUP_LOCKOUT_SECONDS: z.coerce.number().int().min(1).default(600),
  QUANTUM_SANDBOX_RPC_URL: z.string().optional(),
  QUANTUM_MAINNET_RPC_URL: z.string().optional(),
});

/** The configured RPC endpoints per network; a network without one is left out. */
export function rpcUrlsFromEnv(env: WebEnv): Partial<Record<"QUANTUM_SANDBOX" | "QUANTUM_MAINNET", string[]>> {
  const urls: Partial<Record<"QUANTUM_SANDBOX" | "QUANTUM_MAINNET", string[]>> = {};
  for (const [network, value] of [["QUANTUM_SANDBOX", env.QUANTUM_SANDBOX_RPC_URL], ["QUANTUM_MAINNET", env.QUANTUM_MAINNET_RPC_URL]] as const) {
    const list = value?.split(",").map((s) => s.trim()).filter(Boolean);
    if (list?.length) urls[network] = list;
  }
  return urls;
}

export type WebEnv = z.infer<typeof schema>;

export function readWebEnv(source: NodeJS.ProcessEnv = process.env): WebEnv {
  const parsed = schema.safeParse(source);
  if (!parsed.success) {
    const fields = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`invalid configuration: ${fields}`);
  }
  return parsed.data;
}
