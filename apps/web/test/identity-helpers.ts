import { createLogger, signKycCallback } from "@qc/core";
import { desc, eq, schema, type Database } from "@qc/db";
import { startDaemon, type Daemon, type DaemonOptions } from "@qc/daemon";
export { parseMessage, startSmtpSink, type ReceivedMail, type SmtpSink } from "@qc/daemon/testing";
import { call, json, TEST_KYC_SECRET, type TestResponse, type TestServer } from "./harness";

export function verificationToken(text: string, publicUrl = "https://localhost"): string {
  const escaped = publicUrl.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const match = new RegExp(`${escaped}/verify-email\\?token=([A-Za-z0-9_-]{43})(?:\\s|$)`).exec(text);
  if (!match) throw new Error(`no verification link in: ${text}`);
  return match[1]!;
}

let emailCounter = 0;
/** A unique address per call (the users.email index is service-wide). */
export function uniqueEmail(prefix = "user"): string {
  emailCounter += 1;
  return `${prefix}-${Date.now().toString(36)}-${emailCounter}@example.com`;
}

export const STRONG_PASSWORD = "correct horse battery staple";

export function signupBody(overrides: Record<string, unknown> = {}) {
  return { organizationName: "Acme Custody Ltd", email: uniqueEmail(), name: "Alice Admin", password: STRONG_PASSWORD, ...overrides };
}

/** A client address per test, through X-Forwarded-For (the server must trust one proxy hop). */
export function fromIp(ip: string, headers: Record<string, string> = {}): Record<string, string> {
  return { "x-forwarded-for": ip, ...headers };
}

/** POST a JSON body, optionally with extra headers. */
export function postJson(server: TestServer, path: string, body: unknown, headers: Record<string, string> = {}): Promise<TestResponse> {
  const request = json(body);
  return call(server, path, { method: "POST", body: request.body, headers: { ...request.headers, ...headers } });
}

/** A tRPC mutation over HTTP, as the dashboard sends it (superjson envelope). */
export async function trpcMutation(
  server: TestServer,
  path: string,
  input: unknown,
  headers: Record<string, string>,
): Promise<TestResponse> {
  return postJson(server, `/api/trpc/${path}`, { json: input }, headers);
}

/** A provider callback signed over exactly the bytes sent. */
export function signedKycCallback(
  server: TestServer,
  body: unknown,
  options: { secret?: string; signature?: string | null; raw?: string } = {},
) {
  const raw = options.raw ?? JSON.stringify(body);
  const headers: Record<string, string> = { "content-type": "application/json" };
  const signature = options.signature === undefined ? signKycCallback(options.secret ?? TEST_KYC_SECRET, raw) : options.signature;
  if (signature !== null) headers["x-kyc-signature"] = signature;
  return call(server, "/v1/onboarding/kyc/callback", { method: "POST", body: raw, headers });
}

/** The daemon, in-process, on the test's database; silent unless TEST_LOG_LEVEL says otherwise. */
export function startTestDaemon(databaseUrl: string, options: Partial<DaemonOptions> = {}): Promise<Daemon> {
  return startDaemon({
    databaseUrl,
    log: createLogger("daemon-test", process.env.TEST_LOG_LEVEL ?? "silent"),
    heartbeatSeconds: 60,
    schedules: [],
    ...options,
    // The same PUBLIC_URL as the test web server (harness.ts), for links in emails.
    config: { publicUrl: "https://localhost", ...options.config },
  });
}

/** Polls until the probe returns a truthy value (bounded). */
export async function eventually<T>(probe: () => Promise<T | undefined | null | false>, timeoutMs = 20_000, intervalMs = 50): Promise<T> {
  // performance.now(), not Date: tests that fake Date must still time out.
  const deadline = performance.now() + timeoutMs;
  let last: unknown;
  while (performance.now() < deadline) {
    try {
      const value = await probe();
      if (value) return value;
    } catch (error) {
      last = error;
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  throw new Error(`condition not met within ${timeoutMs} ms${last ? `: ${String(last)}` : ""}`);
}

/** The verification token of the newest email to `to`, read from the dev outbox (the emails table). */
export async function tokenFromOutbox(db: Database, to: string): Promise<string> {
  const [email] = await db
    .select()
    .from(schema.emails)
    .where(eq(schema.emails.to, to))
    .orderBy(desc(schema.emails.createdAt), desc(schema.emails.id))
    .limit(1);
  if (!email) throw new Error(`no email to ${to}`);
  return verificationToken(email.text);
}

/** A verified admin, made through the real routes: signup, then the emailed link. */
export async function signUpAndVerify(
  server: TestServer,
  db: Database,
  headers: Record<string, string>,
  overrides: Record<string, unknown> = {},
) {
  const body = signupBody(overrides);
  const signup = await postJson(server, "/v1/signup", body, headers);
  if (signup.status !== 201) throw new Error(`signup failed: ${signup.status} ${signup.text}`);
  const verified = await postJson(
    server,
    "/v1/signup/verify-email",
    { token: await tokenFromOutbox(db, String(body.email).toLowerCase()) },
    headers,
  );
  if (verified.status !== 200) throw new Error(`verification failed: ${verified.status} ${verified.text}`);
  const { tenantId, userId } = signup.json<{ tenantId: string; userId: string }>();
  return { tenantId, userId, email: String(body.email).toLowerCase(), password: String(body.password) };
}

/** Logs in and returns the session token with ready-made headers. */
export async function logInAs(server: TestServer, account: { email: string; password: string }, headers: Record<string, string>) {
  const res = await postJson(server, "/v1/auth/login", { email: account.email, password: account.password }, headers);
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${res.text}`);
  const token = res.json<{ token: string }>().token;
  return { token, headers: { ...headers, authorization: `Bearer ${token}` } };
}
