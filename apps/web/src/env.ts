// The subpath keeps this file free of @qc/db: dashboard pages import it and Next bundles them.
import { parseEnv, productionRules, serviceEnvSchema } from "@qc/core/env";

export { rpcUrlsFromEnv } from "@qc/core/env";
import { z } from "zod";
// The subpath, not @qc/core: dashboard pages import env.ts and Next must not bundle @qc/db.
import { parseCidr } from "@qc/core/ip-allowlist";
import { DEFAULT_TRUSTED_PROXIES } from "./guards/client-address";

const flag = (fallback: "true" | "false") =>
  z
    .enum(["true", "false", "1", "0"])
    .default(fallback)
    .transform((v) => v === "true" || v === "1");

// The only place in apps/web that reads process.env: the shared service variables (@qc/core's
// serviceEnvSchema) plus the web process's own; a bad value stops the process at boot.
const schema = serviceEnvSchema
  .extend({
    DATABASE_URL: z.string().url().optional(),
    HTTPS_PORT: z.coerce.number().int().min(0).max(65535).default(8443),
    HTTP_PORT: z.coerce.number().int().min(0).max(65535).default(8080),
    HOST: z.string().default("0.0.0.0"),
    TLS_CERT_FILE: z.string().optional(),
    TLS_KEY_FILE: z.string().optional(),
    TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
    /**
     * CIDRs (or addresses), comma-separated: the peers whose X-Forwarded-For / -Proto are believed
     * when TRUST_PROXY_HOPS > 0 (CONTRACT §3; default the loopback addresses). A bad entry stops
     * the process at boot.
     */
    TRUSTED_PROXIES: z
      .string()
      .default(DEFAULT_TRUSTED_PROXIES.join(","))
      .transform((value) =>
        value
          .split(",")
          .map((entry) => entry.trim())
          .filter(Boolean),
      )
      .superRefine((entries, check) => {
        for (const entry of entries)
          if (!parseCidr(entry)) check.addIssue({ code: "custom", message: `${entry} is not a CIDR or IP address` });
      }),
    /** Serve the dashboard pages through Next (off for API-only instances). */
    WEB_DASHBOARD: flag("true"),
    /**
     * Next's development server (hot reload) instead of the production build. Unset: the
     * development server in development mode (QC_DEV_MODE=true), else the build; `./qc start` sets
     * false (it builds once), `./qc dev` true. Refused in production.
     */
    WEB_DASHBOARD_DEV: z
      .enum(["true", "false", "1", "0"])
      .optional()
      .transform((v) => (v === undefined ? undefined : v === "true" || v === "1")),
    /** Bearer token for GET /metrics (Prometheus); unset: the route answers 404. */
    METRICS_TOKEN: z.string().min(16).optional(),
    /** ≥ 32 bytes, hex or base64: keys API-secret hashes. Required in production; generated under DATA_DIR otherwise. */
    API_KEY_PEPPER: z.string().min(32).optional(),
    // Thresholds (CONTRACT §3 defaults; configurable).
    LOCKOUT_FAILURES: z.coerce.number().int().min(1).default(10),
    LOCKOUT_WINDOW_SECONDS: z.coerce.number().int().min(1).default(600),
    LOCKOUT_SECONDS: z.coerce.number().int().min(1).default(900),
    RATE_LIMIT_PER_SECOND: z.coerce.number().int().min(1).default(100),
    RATE_LIMIT_BURST: z.coerce.number().int().min(0).default(100),
    SIGNUP_LIMIT_PER_HOUR: z.coerce.number().int().min(1).default(30),
    SIGNUP_LOCKOUT_SECONDS: z.coerce.number().int().min(1).default(600),
  })
  .superRefine(
    productionRules({
      required: ["API_KEY_PEPPER", "TLS_CERT_FILE", "TLS_KEY_FILE"],
      developmentOnly: { WEB_DASHBOARD_DEV: "WEB_DASHBOARD_DEV=true runs Next's development server" },
    }),
  );

export type WebEnv = z.infer<typeof schema>;

export function readWebEnv(source: NodeJS.ProcessEnv = process.env): WebEnv {
  return parseEnv(schema, source);
}
