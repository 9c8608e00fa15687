import { z } from "zod";
import { InvalidAddressError, parseAddress, type NetworkCode } from "@qc/chain";
import { parseSecretBoxKey } from "@qc/webhooks";
import { defaultTransferConfig, defaultWebhookConfig, type ServiceConfig } from "./deps/service-config";
import { loadSecret } from "./secrets/load-secret";

const flag = (fallback: "true" | "false") =>
  z
    .enum(["true", "false", "1", "0"])
    .default(fallback)
    .transform((v) => v === "true" || v === "1");

const list = z
  .string()
  .optional()
  .transform((v) =>
    (v ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean),
  );

/**
 * The environment both the web process and the daemon read for the services they share
 * (CONTRACT §11 names most of these). Each app's env.ts extends this schema with its own
 * variables; nothing else in the workspace reads process.env.
 */
export const serviceEnvSchema = z.object({
  /**
   * The development conveniences, switched on only by this explicit opt-in (`./qc start` and
   * `./qc dev` set it): the public dev mailbox, the sandbox KYC provider that approves every
   * case, the published development KYC secret, peppers and keys generated under DATA_DIR,
   * WEBHOOK_ALLOW_PRIVATE_URLS and the test hooks. Unset, the process is production whatever
   * NODE_ENV says, and refuses to start without the secrets production needs: a deployment that
   * forgot one variable fails closed instead of serving the dev mailbox to the internet.
   */
  QC_DEV_MODE: flag("false"),
  /** Node's and Next's own switch (bundles, React); it never turns the development conveniences on. */
  NODE_ENV: z.enum(["development", "production", "test"]).optional(),
  LOG_LEVEL: z.string().default("info"),
  DATA_DIR: z.string().default(".data"),
  PUBLIC_URL: z.string().url().optional(),
  SMTP_URL: z.string().url().optional(),
  /** Sender of every email (RFC 5322 address, optionally with a display name). */
  EMAIL_FROM: z.string().min(3).optional(),
  KYC_PROVIDER: z.string().default("sandbox"),
  KYC_WEBHOOK_SECRET: z.string().min(16).optional(),
  KYC_SANDBOX_DELAY_MS: z.coerce.number().int().min(0).default(2000),
  QUANTUM_SANDBOX_RPC_URL: z.string().optional(),
  QUANTUM_MAINNET_RPC_URL: z.string().optional(),
  /**
   * Comma-separated destination addresses the built-in `denylist` screening provider blocks;
   * each must be an address (mixed case: EIP-55), stored canonical. A typo would never match,
   * so it stops the process at boot instead.
   */
  SCREENING_DENYLIST: list.transform((entries, ctx) => parseDenylistEntries(entries, ctx)),
  /** An HTTP screening provider (CONTRACT §6); unset: the built-in denylist. */
  SCREENING_PROVIDER_URL: z.string().url().optional(),
  /** Allow http and loopback webhook URLs (development mode only; refused at boot in production). */
  WEBHOOK_ALLOW_PRIVATE_URLS: flag("false"),
  /**
   * 32 bytes (64 hex digits or base64) sealing webhook secrets at rest; after a key change,
   * `new,old`: the first seals, the others only open. Required in production; generated under
   * DATA_DIR/secrets in development mode.
   */
  WEBHOOK_SECRET_KEY: z.string().optional(),
  /** One delivery attempt's time limit (CONTRACT §7: 15 s); shorter only for tests. */
  WEBHOOK_DELIVERY_TIMEOUT_MS: z.coerce.number().int().min(100).max(15_000).default(15_000),
  /** How often each daemon sweeps the outbox and overdue deliveries without a notification. */
  WEBHOOK_SWEEP_INTERVAL_MS: z.coerce.number().int().min(100).max(60_000).default(5_000),
  /** Confirmations after which a transfer is COMPLETED, per network. */
  CONFIRMATIONS_QUANTUM_SANDBOX: z.coerce.number().int().min(1).max(1000).optional(),
  CONFIRMATIONS_QUANTUM_MAINNET: z.coerce.number().int().min(1).max(1000).optional(),
  /** How long a transfer waits for its signature before it EXPIRES (SIGNING_TIMEOUT). */
  SIGNING_TIMEOUT_SECONDS: z.coerce.number().int().min(60).optional(),
  /**
   * Screening attempts while the provider is down before the transfer is BLOCKED (fail closed);
   * at most the `transfers.check` job's retries (10), so the job itself never gives up first.
   */
  SCREENING_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(10).default(5),
  /**
   * A policy or screening decision older than this is taken again before a QUEUED transfer is
   * released and before a SIGNED one is broadcast (0: every time).
   */
  RECHECK_AFTER_SECONDS: z.coerce.number().int().min(0).max(86_400).optional(),
  /** How long a transfer held for approval waits for its quorum before it EXPIRES (APPROVAL_TIMEOUT; CONTRACT §15). */
  APPROVAL_TIMEOUT_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .max(90 * 86_400)
    .optional(),
  /** How long after its creation an address-book entry becomes ACTIVE (CONTRACT §16); 0: at once. */
  ADDRESS_BOOK_ACTIVATION_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .max(90 * 86_400)
    .optional(),
  /** CONTRACT §17: transactions of one source holding nonces between release and mining (default 16). */
  NONCE_WINDOW: z.coerce.number().int().min(1).max(1024).optional(),
  /** CONTRACT §17: BROADCASTING longer than this gets `stuck: true` and one `transaction.stuck` event (default 120). */
  STUCK_AFTER_SECONDS: z.coerce.number().int().min(1).optional(),
  /** Transfers per tenant per UTC day. */
  TRANSFER_DAILY_COUNT_LIMIT: z.coerce.number().int().min(1).optional(),
  /** Daily amount quotas per asset, `<assetId>=<raw amount>,…`; replaces the default (1,000,000 Q per native asset). */
  TRANSFER_DAILY_AMOUNT_LIMITS: z
    .string()
    .optional()
    .transform((value, ctx) => (value === undefined ? undefined : parseAmountLimits(value, ctx))),
  /** The highest maxFeePerGas (Qwei) a transfer is released with; above it the release waits. */
  MAX_FEE_PER_GAS_CAP: z
    .string()
    .regex(/^[1-9][0-9]{0,30}$/, "a positive integer (Qwei)")
    .transform(BigInt)
    .optional(),
  /** eth_estimateGas × this percentage is the gas limit signed (default 120). */
  GAS_MARGIN_PERCENT: z.coerce.number().int().min(100).max(300).optional(),
});

export type ServiceEnv = z.infer<typeof serviceEnvSchema>;

/** The configured RPC endpoints per network; a network without one is left out. */
export function rpcUrlsFromEnv(
  env: Pick<ServiceEnv, "QUANTUM_SANDBOX_RPC_URL" | "QUANTUM_MAINNET_RPC_URL">,
): Partial<Record<NetworkCode, string[]>> {
  const urls: Partial<Record<NetworkCode, string[]>> = {};
  for (const [network, value] of [
    ["QUANTUM_SANDBOX", env.QUANTUM_SANDBOX_RPC_URL],
    ["QUANTUM_MAINNET", env.QUANTUM_MAINNET_RPC_URL],
  ] as const) {
    const urlList = value
      ?.split(",")
      .map((s) => s.trim())
      .filter(Boolean);
    if (urlList?.length) urls[network] = urlList;
  }
  return urls;
}

/**
 * The service configuration from a parsed environment. `fallbackPublicUrl` is what the web
 * process derives from its own port when PUBLIC_URL is unset.
 */
export function serviceConfigFromEnv(env: ServiceEnv, options: { fallbackPublicUrl?: string } = {}): ServiceConfig {
  const production = !developmentMode(env);
  const transfers = defaultTransferConfig();
  return {
    publicUrl: env.PUBLIC_URL ?? options.fallbackPublicUrl ?? "https://localhost:8443",
    production,
    smtpUrl: env.SMTP_URL,
    emailFrom: env.EMAIL_FROM ?? DEFAULT_EMAIL_FROM,
    kyc: {
      provider: env.KYC_PROVIDER,
      // Development default only; production refuses to start without a configured secret.
      webhookSecret: env.KYC_WEBHOOK_SECRET ?? (production ? missing("KYC_WEBHOOK_SECRET") : "dev-kyc-webhook-secret-not-for-production"),
      sandboxDelayMs: env.KYC_SANDBOX_DELAY_MS,
    },
    rpcUrls: rpcUrlsFromEnv(env),
    screening: { denylist: env.SCREENING_DENYLIST, providerUrl: env.SCREENING_PROVIDER_URL, maxAttempts: env.SCREENING_MAX_ATTEMPTS },
    webhooks: {
      ...defaultWebhookConfig(),
      allowPrivateUrls: env.WEBHOOK_ALLOW_PRIVATE_URLS && !production,
      secretKeys: webhookSecretKeysFromEnv(env, production),
      deliveryTimeoutMs: env.WEBHOOK_DELIVERY_TIMEOUT_MS,
      sweepIntervalMs: env.WEBHOOK_SWEEP_INTERVAL_MS,
    },
    transfers: {
      ...transfers,
      requiredConfirmations: {
        QUANTUM_SANDBOX: env.CONFIRMATIONS_QUANTUM_SANDBOX ?? transfers.requiredConfirmations.QUANTUM_SANDBOX,
        QUANTUM_MAINNET: env.CONFIRMATIONS_QUANTUM_MAINNET ?? transfers.requiredConfirmations.QUANTUM_MAINNET,
      },
      signingTimeoutSeconds: env.SIGNING_TIMEOUT_SECONDS ?? transfers.signingTimeoutSeconds,
      recheckAfterSeconds: env.RECHECK_AFTER_SECONDS ?? transfers.recheckAfterSeconds,
      approvalTimeoutSeconds: env.APPROVAL_TIMEOUT_SECONDS ?? transfers.approvalTimeoutSeconds,
      addressBookActivationSeconds: env.ADDRESS_BOOK_ACTIVATION_SECONDS ?? transfers.addressBookActivationSeconds,
      nonceWindow: env.NONCE_WINDOW ?? transfers.nonceWindow,
      stuckAfterSeconds: env.STUCK_AFTER_SECONDS ?? transfers.stuckAfterSeconds,
      maxFeePerGasCap: env.MAX_FEE_PER_GAS_CAP ?? transfers.maxFeePerGasCap,
      gasMarginPercent: env.GAS_MARGIN_PERCENT ?? transfers.gasMarginPercent,
      dailyQuota: {
        count: env.TRANSFER_DAILY_COUNT_LIMIT ?? transfers.dailyQuota.count,
        amounts: env.TRANSFER_DAILY_AMOUNT_LIMITS ?? transfers.dailyQuota.amounts,
      },
    },
  };
}

/** SCREENING_DENYLIST entries, canonical; a malformed entry is a configuration error naming it (an address, not a secret). */
function parseDenylistEntries(entries: string[], ctx: z.RefinementCtx): string[] {
  const canonical: string[] = [];
  for (const [index, entry] of entries.entries()) {
    try {
      canonical.push(parseAddress(entry));
    } catch (error) {
      if (!(error instanceof InvalidAddressError)) throw error;
      const why = error.reason === "checksum" ? "mixed case that fails its EIP-55 checksum" : "not 40 hex digits with optional 0x";
      ctx.addIssue({ code: "custom", message: `entry ${index + 1} "${entry.slice(0, 64)}" is not an address (${why})` });
      return z.NEVER;
    }
  }
  return canonical;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** `<assetId>=<amount>,…` → amount per asset id; a malformed entry is a configuration error. */
function parseAmountLimits(value: string, ctx: z.RefinementCtx): Record<string, bigint> {
  const limits: Record<string, bigint> = {};
  for (const entry of value
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [assetId, amount] = entry.split("=").map((s) => s.trim());
    if (!assetId || !UUID.test(assetId.toLowerCase()) || !amount || !/^(0|[1-9][0-9]{0,77})$/.test(amount)) {
      ctx.addIssue({ code: "custom", message: `"${entry}" is not <assetId>=<decimal amount>` });
      return z.NEVER;
    }
    limits[assetId.toLowerCase()] = BigInt(amount);
  }
  return limits;
}

/** WEBHOOK_SECRET_KEY (`current[,previous…]`), or the development key kept under DATA_DIR. */
function webhookSecretKeysFromEnv(
  env: Pick<ServiceEnv, "WEBHOOK_SECRET_KEY" | "DATA_DIR">,
  production: boolean,
): { current: Uint8Array; previous: Uint8Array[] } {
  const parts =
    env.WEBHOOK_SECRET_KEY?.split(",")
      .map((part) => part.trim())
      .filter(Boolean) ?? [];
  const parse = (text: string) => {
    try {
      return parseSecretBoxKey(text);
    } catch (error) {
      // Never echo the value: it is a key (the cause names only the expected format).
      throw new Error(
        "invalid configuration: WEBHOOK_SECRET_KEY must be 32 bytes as 64 hex digits or base64 (comma-separated after " + "a key change)",
        { cause: error },
      );
    }
  };
  const current = loadSecret({
    name: "WEBHOOK_SECRET_KEY",
    configured: parts[0],
    parse,
    dataDir: env.DATA_DIR,
    file: "webhook-secret-key",
    production,
  });
  return { current, previous: parts.slice(1).map(parse) };
}

export const DEFAULT_EMAIL_FROM = "Quantum Custody <no-reply@quantum-custody.localhost>";

function missing(name: string): never {
  throw new Error(`invalid configuration: ${name} is required in production`);
}

/** The one derived flag: development conveniences only with QC_DEV_MODE=true; everything else is production. */
export function developmentMode(env: Pick<ServiceEnv, "QC_DEV_MODE">): boolean {
  return env.QC_DEV_MODE;
}

/** The variables every process that runs the services needs in production (README, configuration). */
export const PRODUCTION_SERVICE_SECRETS = ["KYC_WEBHOOK_SECRET", "WEBHOOK_SECRET_KEY"] as const;

/** The settings only development may use, with why each is refused in production. */
const SERVICE_DEVELOPMENT_ONLY = {
  WEBHOOK_ALLOW_PRIVATE_URLS: "WEBHOOK_ALLOW_PRIVATE_URLS=true lets webhooks reach http and private-network addresses (request forgery)",
} as const;

export interface ProductionRules {
  /** This process's variables that production cannot run without, besides PRODUCTION_SERVICE_SECRETS. */
  required: readonly string[];
  /** This process's development-only settings, refused in production when set (truthy), each with what it does. */
  developmentOnly?: Record<string, string>;
}

/**
 * The refinement every app's env schema ends with (after its `.extend`): outside development
 * mode, each required secret must be configured (one error naming every missing variable, so an
 * operator fixes them in one go) and no development-only setting may be on; QC_DEV_MODE=true
 * next to NODE_ENV=production is a contradiction, refused rather than guessed.
 */
export function productionRules(rules: ProductionRules) {
  return (env: ServiceEnv, ctx: z.RefinementCtx) => {
    if (developmentMode(env)) {
      if (env.NODE_ENV === "production")
        ctx.addIssue({
          code: "custom",
          path: ["QC_DEV_MODE"],
          message: "QC_DEV_MODE=true contradicts NODE_ENV=production; unset one of them",
        });
      return;
    }
    const values = env as Record<string, unknown>;
    const absent = [...PRODUCTION_SERVICE_SECRETS, ...rules.required].filter((name) => values[name] === undefined || values[name] === "");
    if (absent.length > 0) {
      ctx.addIssue({
        code: "custom",
        path: [],
        message: `production mode (QC_DEV_MODE is not true) needs ${absent.join(", ")}; set ${absent.length === 1 ? "it" : "them"}, or set QC_DEV_MODE=true on a development machine (./qc start and ./qc dev do)`,
      });
    }
    const developmentOnly: Record<string, string> = { ...SERVICE_DEVELOPMENT_ONLY, ...rules.developmentOnly };
    for (const [name, why] of Object.entries(developmentOnly)) {
      if (values[name])
        ctx.addIssue({ code: "custom", path: [], message: `${why} and is refused in production (QC_DEV_MODE is not true)` });
    }
  };
}

/** Parses `source` against `schema`, naming every bad variable; the process stops at boot on error. */
export function parseEnv<S extends z.ZodType>(schema: S, source: NodeJS.ProcessEnv = process.env): z.infer<S> {
  const parsed = schema.safeParse(source);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => (i.path.length > 0 ? `${i.path.join(".")}: ${i.message}` : i.message));
    throw new Error(`invalid configuration: ${issues.join("; ")}`);
  }
  return parsed.data;
}
