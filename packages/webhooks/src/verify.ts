import { timingSafeEqual } from "node:crypto";
import { signaturePart } from "./sign";

export type VerifyFailure = "missing_headers" | "timestamp_out_of_tolerance" | "no_matching_signature";

export interface VerifyOptions {
  secret: string;
  headers: Record<string, string | undefined>;
  body: string;
  /** Seconds a timestamp may differ from now (replay protection); Standard Webhooks uses 300. */
  toleranceSeconds?: number;
  nowSeconds?: number;
}

/** Verifies a Standard Webhooks delivery as a receiver would (the interop tests use it too). */
export function verifyWebhook(options: VerifyOptions): { ok: true } | { ok: false; reason: VerifyFailure } {
  const id = options.headers["webhook-id"];
  const timestamp = options.headers["webhook-timestamp"];
  const signatures = options.headers["webhook-signature"];
  if (!id || !timestamp || !signatures || !/^\d+$/.test(timestamp)) return { ok: false, reason: "missing_headers" };
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - Number(timestamp)) > (options.toleranceSeconds ?? 300)) return { ok: false, reason: "timestamp_out_of_tolerance" };
  const expected = Buffer.from(signaturePart(options.secret, id, Number(timestamp), options.body));
  for (const candidate of signatures.split(" ")) {
    const given = Buffer.from(candidate);
    if (given.length === expected.length && timingSafeEqual(given, expected)) return { ok: true };
  }
  return { ok: false, reason: "no_matching_signature" };
}
