import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { signWebhook } from "./sign";
import { type HostResolver, vetWebhookUrl, type VettedWebhookUrl, WebhookUrlRefusedError } from "./ssrf";

/** CONTRACT §7: the whole attempt, DNS to last byte read, within 15 s. */
export const DEFAULT_DELIVERY_TIMEOUT_MS = 15_000;
/** Enough of a receiver's answer to debug it from the dashboard, not enough to store a page. */
export const DEFAULT_MAX_RESPONSE_BYTES = 4096;
export const WEBHOOK_USER_AGENT = "QuantumCustody-Webhooks/1.0";

/**
 * What the caller does next: `delivered` stop; `retry` schedule the next attempt (timeout,
 * network or TLS error, 408, 429, 5xx: the contract's list); `disable` the endpoint (410 Gone);
 * `failed` stop without retrying (3xx, since redirects are not followed, and every other 4xx,
 * which a retry with the same body would only repeat; also a URL that no longer vets).
 */
export type DeliveryOutcome = "delivered" | "retry" | "disable" | "failed";

export interface DeliverWebhookParameters {
  url: string;
  /** The event id, sent as `webhook-id` on every attempt. */
  id: string;
  /** The exact JSON sent and signed. */
  body: string;
  /** `v1`: current secret first, then the previous one while a rotation overlaps; empty without `v1`. */
  secrets: readonly string[];
  /** `v1a`: `whsk_` signing keys, current first, then the previous one while a rotation overlaps. */
  signingKeys?: readonly string[];
  timeoutMs?: number;
  maxResponseBytes?: number;
  allowPrivate?: boolean;
  resolveHost?: HostResolver;
  /** Replaces the system trust store: tests with a self-signed receiver, or a private PKI. */
  trustedCertificates?: string | Buffer | Array<string | Buffer>;
  now?: () => Date;
}

export interface DeliverWebhookReturnType {
  outcome: DeliveryOutcome;
  statusCode: number | null;
  durationMs: number;
  /** The first `maxResponseBytes` of the response body as text; null when no response came. */
  responseExcerpt: string | null;
  /** Why the attempt did not succeed, fit to show the endpoint's owner; null when delivered. */
  error: string | null;
  /** The receiver's `Retry-After` in seconds, on a retryable status that carried one. */
  retryAfterSeconds: number | null;
}

class DeliveryTimeoutError extends Error {}

/** Classifies a status code per CONTRACT §7. */
export function outcomeForStatus(statusCode: number): DeliveryOutcome {
  if (statusCode >= 200 && statusCode < 300) return "delivered";
  if (statusCode === 410) return "disable";
  if (statusCode === 408 || statusCode === 429 || statusCode >= 500) return "retry";
  return "failed";
}

/** `Retry-After` as delta-seconds or an HTTP date, in whole seconds from `now`; null when absent or invalid. */
export function parseRetryAfter(value: string | undefined, now: Date): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d{1,10}$/.test(trimmed)) return Number(trimmed);
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return null;
  return Math.max(0, Math.ceil((at - now.getTime()) / 1000));
}

/** Node's `lookup` hook, answering only the vetted address: the socket cannot go anywhere else. */
function pinnedLookup(vetted: VettedWebhookUrl): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all)
      (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [
        { address: vetted.address, family: vetted.family },
      ]);
    else callback(null, vetted.address, vetted.family);
  };
}

interface ReceiverAnswer {
  statusCode: number;
  retryAfter: string | undefined;
  excerpt: Buffer;
}

function post(
  vetted: VettedWebhookUrl,
  body: Buffer,
  headers: Record<string, string>,
  options: { signal: AbortSignal; maxResponseBytes: number; trustedCertificates?: DeliverWebhookParameters["trustedCertificates"] },
): Promise<ReceiverAnswer> {
  return new Promise((resolve, reject) => {
    const transport = vetted.url.protocol === "https:" ? https : http;
    const request = transport.request(vetted.url, {
      method: "POST",
      headers: { ...headers, "content-length": String(body.length) },
      // A fresh connection per attempt: a pooled socket could still point at an address
      // vetted for an earlier attempt.
      agent: false,
      lookup: pinnedLookup(vetted),
      ...(options.trustedCertificates ? { ca: options.trustedCertificates } : {}),
    });
    let answer: ReceiverAnswer | null = null;
    const chunks: Buffer[] = [];
    let kept = 0;
    let settled = false;
    const finish = () => {
      if (!answer || settled) return;
      settled = true;
      options.signal.removeEventListener("abort", onAbort);
      answer.excerpt = Buffer.concat(chunks).subarray(0, options.maxResponseBytes);
      resolve(answer);
      request.destroy();
    };
    const onAbort = () => {
      // Once the status is in, a receiver slow to send its body still answered: keep the status.
      if (answer) finish();
      else request.destroy(new DeliveryTimeoutError());
    };
    options.signal.addEventListener("abort", onAbort, { once: true });
    request.on("error", (error) => {
      if (answer) return finish();
      options.signal.removeEventListener("abort", onAbort);
      settled = true;
      reject(error);
    });
    request.on("response", (response) => {
      const retryAfter = response.headers["retry-after"];
      answer = {
        statusCode: response.statusCode ?? 0,
        retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter,
        excerpt: Buffer.alloc(0),
      };
      response.on("data", (chunk: Buffer) => {
        if (kept >= options.maxResponseBytes) return;
        chunks.push(chunk);
        kept += chunk.length;
        // Reading stops at the limit: a receiver streaming a huge body cannot hold the worker.
        if (kept >= options.maxResponseBytes) finish();
      });
      response.on("end", finish);
      response.on("error", finish);
      response.on("close", finish);
    });
    request.end(body);
  });
}

function describeNetworkError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  const message = error instanceof Error ? error.message : String(error);
  return code && !message.includes(code) ? `${code}: ${message}` : message;
}

function excerptText(bytes: Buffer): string {
  // stream: true leaves out a multi-byte character cut by the limit instead of mangling it;
  // NUL is dropped because PostgreSQL text cannot hold it.
  return new TextDecoder("utf-8").decode(bytes, { stream: true }).replaceAll("\u0000", "");
}

/**
 * One delivery attempt: vets the URL again (DNS may have changed since the endpoint was saved),
 * signs the exact body with this attempt's timestamp, POSTs it to the vetted address with the
 * URL's host name for TLS and `Host`, never follows a redirect, and classifies the answer.
 * Never throws for anything the receiver or the network does.
 */
export async function deliverWebhook(parameters: DeliverWebhookParameters): Promise<DeliverWebhookReturnType> {
  const timeoutMs = parameters.timeoutMs ?? DEFAULT_DELIVERY_TIMEOUT_MS;
  const maxResponseBytes = parameters.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const now = parameters.now ?? (() => new Date());
  const started = performance.now();
  const durationMs = () => Math.round(performance.now() - started);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const result = (outcome: DeliveryOutcome, rest: Partial<DeliverWebhookReturnType>): DeliverWebhookReturnType => ({
    outcome,
    statusCode: null,
    durationMs: durationMs(),
    responseExcerpt: null,
    error: null,
    retryAfterSeconds: null,
    ...rest,
  });
  const timedOut = () => `timed out after ${timeoutMs} ms`;

  try {
    let vetted: VettedWebhookUrl;
    try {
      const aborted = new Promise<never>((_, reject) =>
        controller.signal.addEventListener("abort", () => reject(new DeliveryTimeoutError()), { once: true }),
      );
      vetted = await Promise.race([
        vetWebhookUrl(parameters.url, { allowPrivate: parameters.allowPrivate, resolveHost: parameters.resolveHost }),
        aborted,
      ]);
    } catch (error) {
      if (error instanceof DeliveryTimeoutError) return result("retry", { error: `${timedOut()} resolving the host` });
      if (error instanceof WebhookUrlRefusedError)
        return result(error.reason === "HOST_NOT_RESOLVED" ? "retry" : "failed", { error: error.message });
      throw error;
    }

    const body = Buffer.from(parameters.body, "utf8");
    const signed = signWebhook({
      id: parameters.id,
      timestamp: Math.floor(now().getTime() / 1000),
      body,
      secrets: parameters.secrets,
      ...(parameters.signingKeys ? { signingKeys: parameters.signingKeys } : {}),
    });
    const headers = { ...signed, "content-type": "application/json", "user-agent": WEBHOOK_USER_AGENT };

    let answer: ReceiverAnswer;
    try {
      answer = await post(vetted, body, headers, {
        signal: controller.signal,
        maxResponseBytes,
        trustedCertificates: parameters.trustedCertificates,
      });
    } catch (error) {
      return result("retry", { error: error instanceof DeliveryTimeoutError ? timedOut() : describeNetworkError(error) });
    }

    const { statusCode } = answer;
    const outcome = outcomeForStatus(statusCode);
    const responseExcerpt = excerptText(answer.excerpt);
    let error: string | null = null;
    if (outcome !== "delivered") {
      error = statusCode >= 300 && statusCode < 400 ? `HTTP ${statusCode}: redirects are not followed` : `HTTP ${statusCode}`;
    }
    const retryAfterSeconds = outcome === "retry" ? parseRetryAfter(answer.retryAfter, now()) : null;
    return result(outcome, { statusCode, responseExcerpt, error, retryAfterSeconds });
  } finally {
    clearTimeout(timer);
  }
}
