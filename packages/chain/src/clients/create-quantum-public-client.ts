import { createPublicClient, fallback, http, type PublicClient, type Transport } from "viem";
import { getQuantumChain, type QuantumChain } from "../chains";
import { BaseError } from "../errors/base";
import type { NetworkCode } from "../networks";

export type InvalidRpcUrlErrorType = InvalidRpcUrlError & { name: "InvalidRpcUrlError" };
export class InvalidRpcUrlError extends BaseError {
  constructor({ value }: { value: string }) {
    super(`No usable http(s) RPC URL in ${JSON.stringify(value)}.`, { name: "InvalidRpcUrlError" });
  }
}

/** Splits comma-separated RPC URLs (as in `QUANTUM_*_RPC_URL`), trims, drops empties, validates. */
export function parseRpcUrls(rpcUrls: string | readonly string[]): string[] {
  const list = (typeof rpcUrls === "string" ? rpcUrls.split(",") : rpcUrls.flatMap((u) => u.split(",")))
    .map((u) => u.trim())
    .filter((u) => u.length > 0);
  for (const url of list) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new InvalidRpcUrlError({ value: url });
    }
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new InvalidRpcUrlError({ value: url });
  }
  if (list.length === 0) throw new InvalidRpcUrlError({ value: String(rpcUrls) });
  return list;
}

export type CreateQuantumPublicClientOptions = {
  /** How often block-based watchers poll (ms). Default 1000. */
  pollingInterval?: number;
  /** Per-request timeout (ms). Default 10 000. */
  timeout?: number;
  /** Retries per endpoint before falling back to the next one. Default 1. */
  retryCount?: number;
  /**
   * JSON-RPC batching over HTTP: the requests made in one tick go as one array, at most
   * `batchSize` per HTTP request (true: viem's default of 1,000). Default off.
   */
  batch?: boolean | { batchSize: number };
};

export type QuantumPublicClient = PublicClient<Transport, QuantumChain>;

/**
 * viem public client for a QUANTUM network over one or more RPC URLs (a string may hold a
 * comma-separated list). Requests go to the first URL and fall back to the next ones on
 * transport errors, timeouts and internal node errors.
 */
export function createQuantumPublicClient(
  networkCode: NetworkCode,
  rpcUrls: string | readonly string[],
  options: CreateQuantumPublicClientOptions = {},
): QuantumPublicClient {
  const urls = parseRpcUrls(rpcUrls);
  const { pollingInterval = 1_000, timeout = 10_000, retryCount = 1, batch = false } = options;
  return createPublicClient({
    chain: getQuantumChain(networkCode),
    pollingInterval,
    transport: fallback(
      urls.map((url) => http(url, { timeout, retryCount, batch })),
      { retryCount: 0 },
    ),
  }) as QuantumPublicClient;
}
