import { call, type TestResponse, type TestServer } from "./harness";

/**
 * JSON requests as one member (a key or a session's `authorization`), any method, and the
 * `"<status> <error>"` one-liner tests compare answers with (`"204"`, `"403 INSUFFICIENT_ROLE"`).
 */
export function memberRequests(server: () => TestServer) {
  const send = (by: { authorization: string }, method: string, path: string, body?: unknown): Promise<TestResponse> =>
    call(server(), path, {
      method,
      headers: { authorization: by.authorization, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const answer = (res: TestResponse) => `${res.status} ${res.status < 400 ? "" : res.json<{ error: string }>().error}`.trim();
  return { send, answer };
}
