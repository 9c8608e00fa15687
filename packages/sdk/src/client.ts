import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { errorFromResponse } from "./errors.js";
import { DEFAULT_RETRY, RETRYABLE_STATUSES, parseRetryAfter, retryDelayMs, type RetryOptions } from "./retry.js";
import type { Method, OptionsArgument, PageItem, PaginateOptions, PaginatedPath, PathsFor, RequestOptions, SuccessBody } from "./routes.js";

export interface ClientOptions {
  /** The API's origin, e.g. `https://custody.example.com` (paths start with `/v1`). */
  baseUrl: string;
  /** An API key as `<keyId>:<secret>`, sent as `Authorization: Bearer <keyId>:<secret>`. */
  apiKey: string;
  /** A fetch implementation (default: the global one), e.g. one with a proxy or a private CA. */
  fetch?: typeof globalThis.fetch;
  retry?: RetryOptions;
}

/** The `Authorization` header value for an API key (`<keyId>:<secret>`), as the API expects it. */
export function apiKeyAuthorization(apiKey: string): string {
  if (!/^\S+$/.test(apiKey)) throw new TypeError("apiKey must be `<keyId>:<secret>` (no spaces)");
  return `Bearer ${apiKey}`;
}

export interface QuantumCustodyClient {
  get<P extends PathsFor<"get">>(path: P, ...options: OptionsArgument<RequestOptions<P, "get">>): Promise<SuccessBody<P, "get">>;
  post<P extends PathsFor<"post">>(path: P, ...options: OptionsArgument<RequestOptions<P, "post">>): Promise<SuccessBody<P, "post">>;
  put<P extends PathsFor<"put">>(path: P, ...options: OptionsArgument<RequestOptions<P, "put">>): Promise<SuccessBody<P, "put">>;
  delete<P extends PathsFor<"delete">>(
    path: P,
    ...options: OptionsArgument<RequestOptions<P, "delete">>
  ): Promise<SuccessBody<P, "delete">>;
  /** Every item of every page of a list, fetched one page at a time as the loop asks for more. */
  paginate<P extends PaginatedPath>(path: P, ...options: OptionsArgument<PaginateOptions<P>>): AsyncIterable<PageItem<P>>;
}

interface UntypedOptions {
  path?: Record<string, string | number> | undefined;
  query?: Record<string, unknown> | undefined;
  body?: unknown;
  idempotencyKey?: string | undefined;
}

/** `/v1/transactions/{id}` with `{id}` filled in (percent-encoded), and the query string. */
function requestUrl(baseUrl: string, template: string, options: UntypedOptions): URL {
  const path = template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = options.path?.[name];
    if (value === undefined) throw new TypeError(`missing path parameter "${name}" for ${template}`);
    return encodeURIComponent(String(value));
  });
  const url = new URL(baseUrl.replace(/\/+$/, "") + path);
  for (const [name, value] of Object.entries(options.query ?? {})) {
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value]) url.searchParams.append(name, String(item));
  }
  return url;
}

/**
 * The error thrown when no attempt got an answer: what was asked, how often, and why (fetch's own
 * `fetch failed` hides the reason in its cause, e.g. `ECONNREFUSED` or `other side closed`). The
 * original error is its `cause`.
 */
function noAnswerError(method: string, url: URL, attempts: number, error: unknown): Error {
  const reasons: string[] = [];
  for (let e: unknown = error; e instanceof Error && reasons.length < 3; e = e.cause) {
    const code = (e as { code?: unknown }).code;
    reasons.push(typeof code === "string" && !e.message.includes(code) ? `${e.message} (${code})` : e.message);
  }
  const tries = attempts === 1 ? "1 attempt" : `${attempts} attempts`;
  return new Error(`${method} ${url.origin}${url.pathname}: no answer after ${tries}: ${reasons.join(": ") || String(error)}`, {
    cause: error,
  });
}

/**
 * A client of the REST API. Every method takes the path as the document writes it and resolves
 * to the success body; any other answer throws `QuantumCustodyError`. A POST carries an
 * `X-Idempotency-Key` (generated unless given), the same on each of its retries, so a retried
 * POST never acts twice. Network errors, 429 and 503 are retried (see `RetryOptions`); no other
 * status is.
 */
export function createClient(options: ClientOptions): QuantumCustodyClient {
  const authorization = apiKeyAuthorization(options.apiKey);
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const retry = { ...DEFAULT_RETRY, ...options.retry };
  if (!Number.isInteger(retry.maxAttempts) || retry.maxAttempts < 1) throw new TypeError("retry.maxAttempts must be an integer ≥ 1");
  new URL(options.baseUrl); // throws on a malformed base URL, here rather than at the first call

  async function request(method: Uppercase<Method>, template: string, call: UntypedOptions = {}): Promise<unknown> {
    const url = requestUrl(options.baseUrl, template, call);
    const headers: Record<string, string> = { authorization, accept: "application/json" };
    const body = call.body === undefined ? undefined : JSON.stringify(call.body);
    if (body !== undefined) headers["content-type"] = "application/json";
    const idempotencyKey = call.idempotencyKey ?? (method === "POST" ? randomUUID() : undefined);
    if (idempotencyKey !== undefined) headers["x-idempotency-key"] = idempotencyKey;

    for (let attempt = 1; ; attempt++) {
      let response: Response;
      let text: string;
      try {
        response = await fetchImpl(url, { method, headers, body });
        text = await response.text();
      } catch (error) {
        // No answer (refused, reset, DNS): whether the server acted is unknown, and the same
        // idempotency key makes trying again safe.
        if (attempt >= retry.maxAttempts) throw noAnswerError(method, url, attempt, error);
        await sleep(retryDelayMs(attempt, undefined, retry));
        continue;
      }
      if (response.ok) return text === "" ? undefined : JSON.parse(text);
      const retryAfterSeconds = parseRetryAfter(response.headers.get("retry-after"));
      const waitable = retryAfterSeconds === undefined || retryAfterSeconds * 1000 <= retry.maxRetryAfterMs;
      if (RETRYABLE_STATUSES.has(response.status) && attempt < retry.maxAttempts && waitable) {
        await sleep(retryDelayMs(attempt, retryAfterSeconds, retry));
        continue;
      }
      throw errorFromResponse(response.status, response.headers, text, retryAfterSeconds);
    }
  }

  async function* paginate(template: string, call: UntypedOptions = {}): AsyncGenerator<unknown> {
    let cursor: string | undefined;
    do {
      const page = (await request("GET", template, { path: call.path, query: { ...call.query, cursor } })) as Record<string, unknown> & {
        page: { nextCursor: string | null; hasMore: boolean };
      };
      const items = Object.entries(page).find(([key, value]) => key !== "page" && Array.isArray(value))?.[1] as unknown[] | undefined;
      if (!items) throw new TypeError(`${template} did not answer a page (no list beside "page")`);
      yield* items;
      cursor = page.page.hasMore && page.page.nextCursor !== null ? page.page.nextCursor : undefined;
    } while (cursor !== undefined);
  }

  // The typed surface is the interface above; underneath, one untyped request.
  const client = {
    get: (path: string, call?: UntypedOptions) => request("GET", path, call),
    post: (path: string, call?: UntypedOptions) => request("POST", path, call),
    put: (path: string, call?: UntypedOptions) => request("PUT", path, call),
    delete: (path: string, call?: UntypedOptions) => request("DELETE", path, call),
    paginate: (path: string, call?: UntypedOptions) => paginate(path, call),
  };
  return client as unknown as QuantumCustodyClient;
}
