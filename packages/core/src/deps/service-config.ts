import { randomBytes } from "node:crypto";
import type { NetworkCode } from "@qc/chain";
import { NATIVE_ASSET_IDS } from "../assets/native-assets";

/** How transfers move (CONTRACT §6); every field has a default, each is configurable. */
export interface TransferConfig {
  /** Confirmations after which a transfer is COMPLETED. */
  requiredConfirmations: Record<NetworkCode, number>;
  /** PENDING_SIGNATURE → EXPIRED/SIGNING_TIMEOUT after this long (default 2 h). */
  signingTimeoutSeconds: number;
  /**
   * A policy and screening decision older than this (seconds) is taken again before a QUEUED
   * transfer is released and before a SIGNED one is broadcast; 0: every time (default 300).
   */
  recheckAfterSeconds: number;
  /**
   * AWAITING_APPROVAL → EXPIRED/APPROVAL_TIMEOUT when no quorum is reached this long after the
   * checks held the transfer for approval (CONTRACT §15; default 24 h).
   */
  approvalTimeoutSeconds: number;
  /**
   * A new address-book entry is ACTIVE (counts as in the book for `destination` rules) this long
   * after its creation (CONTRACT §16; default 24 h).
   */
  addressBookActivationSeconds: number;
  /**
   * NONCE_WINDOW (CONTRACT §17): how many transactions of one source may hold nonces between
   * release and mining (PENDING_SIGNATURE, SIGNED, BROADCASTING); default 16.
   */
  nonceWindow: number;
  /** STUCK_AFTER_SECONDS (CONTRACT §17): BROADCASTING longer than this is `stuck: true` (default 120). */
  stuckAfterSeconds: number;
  /** Refuse to release a transfer whose estimated maxFeePerGas is above this (Qwei). */
  maxFeePerGasCap: bigint;
  /** eth_estimateGas × this, in percent (120 = +20 %). */
  gasMarginPercent: number;
  /** Sends of one raw transaction (first + re-sends after drops) before FAILED/DROPPED_BY_CHAIN. */
  maxSendAttempts: number;
  /**
   * How often the per-transaction `transfers.watch` job looks at a broadcast transaction (ms): a
   * backstop. The daemon's block-driven watcher (`createConfirmationWatcher`) looks at every one of
   * them once per new block; this job only matters where no watcher runs (see `blockWatchers`).
   */
  watchIntervalMs: number;
  /**
   * A broadcast cut off between its move to BROADCASTING and the record of its send (a crash) is
   * resumed this long after the move (ms) — the stored raw transaction re-sent — without waiting
   * for the broadcast job's retry: by the network's block watcher when `blockWatchers`, otherwise
   * by a `transfers.watch` job the move schedules.
   */
  resumeBroadcastAfterMs: number;
  /**
   * Whether this process runs the networks' block watchers (`createConfirmationWatcher`; set by the
   * daemon that starts them, default false). Then its transactions get no per-transaction backstop
   * job: some daemon's watcher holds each network's lease and, at every step, follows every
   * broadcast transaction (resuming one cut off before its send after `resumeBroadcastAfterMs`, so
   * a move to BROADCASTING schedules no `transfers.watch`) and expires every transaction awaiting a
   * signature past its deadline (so a release schedules no `transfers.expire`).
   */
  blockWatchers: boolean;
  /** When the chain RPC cannot be reached, the watcher looks again after this long (ms). */
  watchRetryMs: number;
  /**
   * Daily quotas per tenant (UTC day), counted over the tenant's transfers that did not fail:
   * at most `count` transfers, and per asset id at most `amounts[assetId]` (raw units); an asset
   * without an entry has no amount quota.
   */
  dailyQuota: { count: number; amounts: Record<string, bigint> };
}

/** 1,000,000 Q in Qwei: the default daily amount quota of each network's native asset. */
const DEFAULT_DAILY_NATIVE_AMOUNT = 1_000_000n * 10n ** 18n;

export function defaultTransferConfig(): TransferConfig {
  return {
    requiredConfirmations: { QUANTUM_SANDBOX: 2, QUANTUM_MAINNET: 12 },
    signingTimeoutSeconds: 2 * 3600,
    recheckAfterSeconds: 300,
    approvalTimeoutSeconds: 86_400,
    addressBookActivationSeconds: 86_400,
    nonceWindow: 16,
    stuckAfterSeconds: 120,
    maxFeePerGasCap: 1_000_000_000_000n, // 1,000 gwei-equivalent
    gasMarginPercent: 120,
    maxSendAttempts: 5,
    watchIntervalMs: 5_000,
    resumeBroadcastAfterMs: 10_000,
    blockWatchers: false,
    watchRetryMs: 5_000,
    dailyQuota: {
      count: 1000,
      amounts: Object.fromEntries(Object.values(NATIVE_ASSET_IDS).map((assetId) => [assetId, DEFAULT_DAILY_NATIVE_AMOUNT])),
    },
  };
}

/** Webhook delivery (CONTRACT §7). */
export interface WebhookConfig {
  /** WEBHOOK_ALLOW_PRIVATE_URLS: http and non-public addresses allowed (never honoured in production). */
  allowPrivateUrls: boolean;
  /**
   * WEBHOOK_SECRET_KEY: the secret-box keys endpoint secrets are sealed with at rest. `current`
   * seals; `previous` keys only open rows sealed before a key change.
   */
  secretKeys: { current: Uint8Array; previous: Uint8Array[] };
  /** WEBHOOK_DELIVERY_TIMEOUT_MS: one attempt, DNS to last byte (CONTRACT §7: 15 s). */
  deliveryTimeoutMs: number;
  /** How often the daemon sweeps the outbox and overdue deliveries when no notification woke it. */
  sweepIntervalMs: number;
  /** PEM certificates trusted instead of the system store for receivers (tests, private PKI). */
  trustedCertificates?: string;
}

/** Process-wide, so a web server and a daemon built from `serviceConfig()` in one test process agree. */
let testSecretKey: Buffer | undefined;

export function defaultWebhookConfig(): WebhookConfig {
  testSecretKey ??= randomBytes(32);
  return {
    allowPrivateUrls: false,
    secretKeys: { current: testSecretKey, previous: [] },
    deliveryTimeoutMs: 15_000,
    sweepIntervalMs: 5_000,
  };
}

/**
 * What the services read from configuration, the same in the web process and the daemon
 * (built from the environment by `serviceConfigFromEnv`, or directly by tests).
 */
export interface ServiceConfig {
  /** Base of links in emails (CONTRACT §3): PUBLIC_URL. */
  publicUrl: string;
  production: boolean;
  /** SMTP_URL; unset: emails stay in the dev outbox (never in production). */
  smtpUrl?: string;
  /** EMAIL_FROM: the sender of every email. */
  emailFrom: string;
  /** KYC_PROVIDER ("sandbox" outside production), KYC_WEBHOOK_SECRET, KYC_SANDBOX_DELAY_MS. */
  kyc: { provider: string; webhookSecret: string; sandboxDelayMs: number };
  /** JSON-RPC endpoints per network (QUANTUM_*_RPC_URL, comma-separated for fallback). */
  rpcUrls: Partial<Record<NetworkCode, string[]>>;
  /**
   * SCREENING_DENYLIST (lower-cased by the provider), SCREENING_PROVIDER_URL; attempts before
   * failing closed (SCREENING_MAX_ATTEMPTS); how long one provider call may take (default 10 s).
   */
  screening: { denylist: string[]; providerUrl?: string; maxAttempts: number; providerTimeoutMs?: number };
  webhooks: WebhookConfig;
  transfers: TransferConfig;
}

/** A complete configuration for tests and tools: development defaults plus overrides. */
export function serviceConfig(overrides: Partial<ServiceConfig> = {}): ServiceConfig {
  return {
    publicUrl: "https://localhost:8443",
    production: false,
    emailFrom: "Quantum Custody <no-reply@quantum-custody.localhost>",
    kyc: { provider: "sandbox", webhookSecret: "dev-kyc-webhook-secret-not-for-production", sandboxDelayMs: 0 },
    rpcUrls: {},
    screening: { denylist: [], maxAttempts: 5 },
    webhooks: defaultWebhookConfig(),
    transfers: defaultTransferConfig(),
    ...overrides,
  };
}
