import { appRouter, procedureTier, sessionProcedure, type Meta } from "@qc/api";
import { ERROR_CODES, type Scope } from "@qc/core";
import { call, type TestResponse, type TestServer } from "../harness";

/**
 * The API surface as the security suites walk it: every operation of the served OpenAPI document
 * and every procedure of the router, read at run time, so a route added tomorrow is fuzzed,
 * isolation-checked and scope-checked without anyone listing it.
 */

export interface DocumentParameter {
  name: string;
  in: "path" | "query" | "header";
  required?: boolean;
  example?: unknown;
  schema?: Record<string, unknown>;
}

export interface RestOperation {
  /** `METHOD /v1/path/{param}`, as the access matrix names it. */
  key: string;
  method: string;
  path: string;
  /** The least scope (`x-scope`); undefined for a public route. */
  scope: Scope | undefined;
  valueMoving: boolean;
  pathParameters: DocumentParameter[];
  queryParameters: DocumentParameter[];
  headerParameters: DocumentParameter[];
  /** The documented request body example (meta.example.input minus path fields); undefined without a body. */
  bodyExample: Record<string, unknown> | undefined;
  takesBody: boolean;
}

interface DocumentOperation {
  parameters?: (DocumentParameter | { $ref: string })[];
  requestBody?: { content: Record<string, { example?: Record<string, unknown> }> };
  "x-scope"?: Scope;
  "x-value-moving"?: boolean;
}

export async function fetchRestOperations(server: TestServer): Promise<RestOperation[]> {
  const document = (await call(server, "/v1/openapi.json")).json<{ paths: Record<string, Record<string, DocumentOperation>> }>();
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => {
      const parameters = (op.parameters ?? []).filter((p): p is DocumentParameter => "in" in p);
      const body = op.requestBody?.content["application/json"];
      return {
        key: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        scope: op["x-scope"],
        valueMoving: op["x-value-moving"] === true,
        pathParameters: parameters.filter((p) => p.in === "path"),
        queryParameters: parameters.filter((p) => p.in === "query"),
        headerParameters: parameters.filter((p) => p.in === "header"),
        bodyExample: body?.example,
        takesBody: body !== undefined,
      };
    }),
  );
}

export type ProcedureAccess = "public" | "authenticated" | "session" | "operator";

export interface TrpcProcedure {
  path: string;
  type: "query" | "mutation";
  meta: Meta | undefined;
  access: ProcedureAccess;
  /** The least scope an API key needs (the authentication middleware's default is admin). */
  scope: Scope;
}

type ProcedureDef = { _def: { type: "query" | "mutation"; meta?: Meta; middlewares: unknown[] } };
const SESSION_ONLY = (sessionProcedure as unknown as ProcedureDef)._def.middlewares.at(-1);

/** The console's login steps: the only operators' procedures reached without the operator cookie. */
const OPERATORS_PUBLIC = new Set(["operators.login", "operators.loginPasskey"]);

/** Every procedure of `appRouter`, with how it is reached, read from its middlewares. */
export function trpcProcedures(): TrpcProcedure[] {
  return Object.entries((appRouter as unknown as { _def: { procedures: Record<string, ProcedureDef> } })._def.procedures).map(
    ([path, procedure]) => {
      const tier = procedureTier(procedure);
      const { meta, type, middlewares } = procedure._def;
      // Operators' procedures authenticate in their own middleware (the operator cookie), never a tenant's credentials.
      const access: ProcedureAccess = tier.authenticated
        ? middlewares.includes(SESSION_ONLY)
          ? "session"
          : "authenticated"
        : path.startsWith("operators.") && !OPERATORS_PUBLIC.has(path)
          ? "operator"
          : "public";
      return { path, type, meta, access, scope: meta?.scope ?? "admin" };
    },
  );
}

/** A tRPC call over HTTPS as the dashboard sends it: superjson's `{json, meta?}` envelope. */
export function callTrpc(
  server: TestServer,
  procedure: Pick<TrpcProcedure, "path" | "type">,
  envelope: string | undefined,
  headers: Record<string, string>,
): Promise<TestResponse> {
  if (procedure.type === "query") {
    const query = envelope === undefined ? "" : `?input=${encodeURIComponent(envelope)}`;
    return call(server, `/api/trpc/${procedure.path}${query}`, { headers });
  }
  return call(server, `/api/trpc/${procedure.path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: envelope ?? "",
  });
}

const FLAT_KEYS = ["code", "error", "message", "requestId"];

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * What is wrong with an answer, against the contract (CONTRACT §1, §2): never a 5xx; an error is
 * the flat body `{error, code, message, requestId, details?}` with the code table's code and
 * status, and `requestId` is the response's `X-Request-ID`. tRPC wraps that body in its envelope
 * (`{error: {json: body + data}}`), except refusals by the guards in front of it, which are flat.
 * Returns the problems rather than throwing, so one run lists every failing case.
 */
export function contractViolations(res: TestResponse, options: { trpc?: boolean; sentRequestId?: string } = {}): string[] {
  const problems: string[] = [];
  const requestId = res.headers["x-request-id"];
  if (res.status >= 500) problems.push(`status ${res.status}`);
  if (typeof requestId !== "string" || requestId.length === 0) problems.push("no X-Request-ID");
  if (options.sentRequestId !== undefined && requestId !== options.sentRequestId)
    problems.push(`X-Request-ID ${String(requestId)} is not the valid one sent`);
  // 204 No Content has no body at all (a removal such as DELETE /v1/address-book/{id}, which the fuzz's
  // own ids reach: removing a removed entry is 204 again).
  if (res.status === 204) return res.text === "" ? problems : [...problems, `a 204 with a body: ${res.text.slice(0, 80)}`];
  // A streamed route (GET /v1/audit-events/export) answers NDJSON: every line one JSON value.
  if (res.status < 400 && String(res.headers["content-type"]).startsWith("application/x-ndjson")) {
    const bad = res.text.split("\n").find((line) => line !== "" && !isJson(line));
    return bad === undefined ? problems : [...problems, `an NDJSON line is not JSON: ${bad.slice(0, 80)}`];
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(res.text);
  } catch {
    problems.push(`body is not JSON: ${res.text.slice(0, 80)}`);
    return problems;
  }
  if (res.status < 400) return problems;
  let body = parsed as Record<string, unknown>;
  const allowed = new Set([...FLAT_KEYS, "details"]);
  if (options.trpc && body && typeof body.error === "object" && body.error !== null) {
    body = (body.error as { json?: Record<string, unknown> }).json ?? {};
    // tRPC's client needs `data.httpStatus`; the contract's fields are all there beside it.
    allowed.add("data");
  }
  const keys = Object.keys(body ?? {});
  const missing = FLAT_KEYS.filter((k) => !keys.includes(k));
  const extra = keys.filter((k) => !allowed.has(k));
  if (missing.length || extra.length)
    problems.push(`error body keys ${keys.join(",")} (missing ${missing.join(",")}; extra ${extra.join(",")})`);
  const known = ERROR_CODES[body.error as keyof typeof ERROR_CODES];
  if (!known) problems.push(`unknown error name ${String(body.error)}`);
  else {
    if (body.code !== known.code) problems.push(`${String(body.error)} with code ${String(body.code)}`);
    if (known.status !== res.status) problems.push(`${String(body.error)} answered with HTTP ${res.status}, not ${known.status}`);
  }
  if (typeof body.message !== "string") problems.push("message is not a string");
  if (body.requestId !== requestId) problems.push(`requestId ${String(body.requestId)} is not the X-Request-ID ${String(requestId)}`);
  if (body.details !== undefined && (typeof body.details !== "object" || body.details === null || Array.isArray(body.details)))
    problems.push("details is not an object");
  return problems;
}

/** The error name of a refusal, over REST or tRPC. */
export function errorName(res: TestResponse): string | undefined {
  if (res.status < 400) return undefined;
  try {
    const body = JSON.parse(res.text) as { error?: unknown };
    if (body.error && typeof body.error === "object") return (body.error as { json?: { error?: string } }).json?.error;
    return typeof body.error === "string" ? body.error : undefined;
  } catch {
    return undefined;
  }
}

/** `{param}` segments of a path, filled from `ids`; any string, lone surrogates included, is percent-encoded. */
export function fillPath(path: string, ids: Record<string, string>): string {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => percentEncode(ids[name] ?? ""));
}

function percentEncode(value: string): string {
  return Array.from(Buffer.from(value, "utf8"), (byte) =>
    /[A-Za-z0-9._~-]/.test(String.fromCharCode(byte)) ? String.fromCharCode(byte) : `%${byte.toString(16).padStart(2, "0")}`,
  ).join("");
}
