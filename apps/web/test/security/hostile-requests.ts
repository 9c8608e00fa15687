import fc from "fast-check";
import type { RestOperation, TrpcProcedure } from "./api-surface";

/**
 * Arbitraries of hostile requests, derived from an operation's documented example: the example
 * itself (so routes run deep), the example with one field broken, extra or missing fields, other
 * tenants' and random ids, odd JSON, and hostile headers and query strings.
 */

const hostileChar = fc.constantFrom(
  "\u0000",
  "\ud800",
  "\udfff",
  "\u0001",
  "\u001b",
  "\u007f",
  "\n",
  "\t",
  "\u2028",
  "\ufeff",
  "é",
  "😀",
  "\u202e",
  "%00",
  "'",
  '"',
  "\\",
);

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.tuple(fc.string({ maxLength: 20 }), hostileChar, fc.string({ maxLength: 20 })).map(([a, c, b]) => a + c + b) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      "",
      " ",
      "null",
      "undefined",
      "NaN",
      "-1",
      "0",
      "1e400",
      "0x",
      "../../etc/passwd",
      "<script>",
      "' OR 1=1 --",
      "${jndi:x}",
      "__proto__",
    ),
  },
  { weight: 1, arbitrary: fc.integer({ min: 200, max: 70_000 }).map((n) => "x".repeat(n)) },
);

const uuid = fc.uuid({ version: [4, 7] });

/** Random JSON nested `depth` levels (the guard refuses past 64). */
const deepJson = fc.tuple(fc.integer({ min: 1, max: 300 }), fc.boolean()).map(([depth, arrays]) => {
  let value: unknown = "leaf";
  for (let i = 0; i < depth; i++) value = arrays ? [value] : { a: value };
  return value;
});

/** A value that breaks a field's type, length or encoding. */
export function brokenValue(original: unknown): fc.Arbitrary<unknown> {
  const numericString = typeof original === "string" && /^[0-9]+$/.test(original);
  return fc.oneof(
    hostileString,
    fc.integer(),
    fc.constantFrom(1e308, -0, 0.5, Number.MAX_SAFE_INTEGER + 2, true, false, null),
    fc.constant(numericString ? Number(original) : 12345),
    fc.constant([original]),
    fc.constant({ value: original }),
    deepJson,
    fc.jsonValue({ maxDepth: 3 }),
    fc.dictionary(fc.constantFrom("__proto__", "constructor", "prototype", "toString", "json", "meta"), fc.jsonValue({ maxDepth: 2 }), {
      maxKeys: 2,
    }),
  );
}

export interface IdPools {
  /** Ids of the calling tenant's resources: requests with them run deep. */
  own: string[];
  /** Ids of another tenant's resources: must be 404, never data. */
  other: string[];
}

/** An id for a path parameter or an `…Id` field. */
export function hostileId(pools: IdPools): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...pools.own) },
    { weight: 2, arbitrary: fc.constantFrom(...pools.other) },
    { weight: 2, arbitrary: uuid },
    { weight: 1, arbitrary: uuid.map((u) => u.toUpperCase()) },
    // API key ids are not UUIDs: a well-formed unknown one reaches the lookup.
    { weight: 1, arbitrary: fc.stringMatching(/^[0-9a-f]{32}$/).map((hex) => `qc_${hex}`) },
    { weight: 2, arbitrary: hostileUrlString },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        "00000000-0000-0000-0000-000000000000",
        "ffffffff-ffff-ffff-ffff-ffffffffffff",
        "0194f2c4-0000-7000-8000-00000000abcd/..",
        "%2e%2e",
        "qc_" + "0".repeat(32),
      ),
    },
  );
}

function withIds(example: Record<string, unknown>, pools: IdPools): fc.Arbitrary<Record<string, unknown>> {
  const idFields = Object.keys(example).filter((k) => k.endsWith("Id") && typeof example[k] === "string");
  if (idFields.length === 0) return fc.constant(example);
  return fc
    .tuple(...idFields.map(() => hostileId(pools)))
    .map((ids) => ({ ...example, ...Object.fromEntries(idFields.map((k, i) => [k, ids[i]])) }));
}

/** A JSON body for an operation (as text), or undefined for none. */
export function hostileBody(example: Record<string, unknown> | undefined, pools: IdPools): fc.Arbitrary<string | undefined> {
  const base = example ?? {};
  const keys = Object.keys(base);
  const valid = withIds(base, pools);
  const variants: fc.Arbitrary<unknown>[] = [
    valid,
    valid,
    fc.jsonValue({ maxDepth: 4 }),
    deepJson,
    valid.map((v) => [v]),
    fc.constantFrom(null, [], "", 0),
  ];
  if (keys.length) {
    const key = fc.constantFrom(...keys);
    variants.push(
      fc.tuple(valid, key).chain(([v, k]) => brokenValue(v[k]).map((broken) => ({ ...v, [k]: broken }))),
      fc.tuple(valid, key).chain(([v, k]) => brokenValue(v[k]).map((broken) => ({ ...v, [k]: broken }))),
      fc.tuple(valid, key).map(([v, k]) => Object.fromEntries(Object.entries(v).filter(([name]) => name !== k))),
    );
  }
  variants.push(fc.tuple(valid, hostileString, fc.jsonValue({ maxDepth: 2 })).map(([v, k, extra]) => ({ ...v, [k]: extra })));
  const raw = fc.constantFrom(
    "",
    "{",
    "}",
    '{"a":',
    "nul",
    "\ufeff{}",
    '{"a":1,"a":2}',
    "[1,2",
    "1e99999",
    '"\\ud800"',
    '{"\\u0000":1}',
    "{} {}",
    "\u0000",
  );
  return fc.oneof(
    { weight: 12, arbitrary: fc.oneof(...variants).map((v) => JSON.stringify(v)) },
    { weight: 1, arbitrary: raw },
    { weight: example === undefined ? 3 : 1, arbitrary: fc.constant(undefined) },
  );
}

/**
 * Node refuses a request head over 16 KB itself (431, before any handler: see docs/security.md),
 * so what travels in the URL stays well under it.
 */
export const MAX_URL_TEXT = 2_000;
const hostileUrlString = hostileString.map((s) => s.slice(0, MAX_URL_TEXT));

/** A query string for the declared query parameters, hostile values mixed with examples. */
export function hostileQuery(parameters: RestOperation["queryParameters"]): fc.Arbitrary<string> {
  const entries = parameters.map((p) =>
    fc
      .option(
        fc.oneof(
          fc.constant(p.example === undefined ? "" : String(p.example)),
          hostileUrlString,
          fc.constantFrom(
            "-1",
            "0",
            "1",
            "200",
            "201",
            "1e3",
            "99999999999999999999",
            "true",
            "[]",
            "QUANTUM_SANDBOX",
            "PENDING_SIGNATURE",
          ),
        ),
        { nil: undefined, freq: 2 },
      )
      .map((value) => (value === undefined ? [] : [[p.name, value] as [string, string]])),
  );
  const extra = fc.option(fc.tuple(hostileUrlString, hostileUrlString), { nil: undefined }).map((e) => (e ? [e] : []));
  return fc.tuple(fc.tuple(...entries, extra), fc.boolean()).map(([lists, duplicate]) => {
    const pairs = (lists as [string, string][][]).flat();
    if (duplicate && pairs[0]) pairs.push(pairs[0]);
    return new URLSearchParams(pairs).toString();
  });
}

/** Header values a client can send (latin-1, no control characters). */
const headerText = fc.string({
  unit: fc
    .integer({ min: 0x20, max: 0xff })
    .filter((c) => c !== 0x7f)
    .map((c) => String.fromCharCode(c)),
  maxLength: 300,
});

export const VALID_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export interface Credentials {
  admin: string;
  session: string;
  otherTenant: string;
  keyId: string;
}

/** Headers: mostly the admin key and JSON, sometimes garbage in each. */
export function hostileHeaders(
  credentials: Credentials,
  options: { takesBody: boolean; idempotency: boolean },
): fc.Arbitrary<Record<string, string>> {
  const authorization = fc.oneof(
    { weight: 12, arbitrary: fc.constant(credentials.admin) },
    { weight: 2, arbitrary: fc.constant(credentials.session) },
    { weight: 1, arbitrary: fc.constant(credentials.otherTenant) },
    {
      weight: 3,
      arbitrary: fc.oneof(
        fc.constantFrom(
          "",
          "Bearer",
          "Bearer ",
          "Basic YWxhZGRpbjpvcGVuc2VzYW1l",
          `Bearer ${credentials.keyId}`,
          `Bearer ${credentials.keyId}:${"0".repeat(64)}`,
          `Bearer qs_${"0".repeat(64)}`,
          `${credentials.admin}x`,
          `Bearer ${"a".repeat(4000)}`,
          `Bearer ${credentials.keyId}::`,
        ),
        headerText.map((s) => `Bearer ${s}`),
        headerText,
      ),
    },
  );
  const contentType = fc.oneof(
    { weight: 8, arbitrary: fc.constant("application/json") },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        "application/json; charset=utf-8",
        "APPLICATION/JSON",
        "application/json; charset=latin1",
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        "application/jsonx",
        "",
        "*/*",
      ),
    },
    { weight: 1, arbitrary: headerText },
  );
  const requestId = fc.option(fc.oneof(fc.stringMatching(VALID_REQUEST_ID), headerText, fc.constant("r".repeat(129))), { nil: undefined });
  const idempotencyKey = fc.option(
    fc.oneof(fc.stringMatching(/^[A-Za-z0-9-]{1,40}$/), fc.constant(""), fc.constant("k".repeat(256)), headerText),
    { nil: undefined, freq: options.idempotency ? 3 : 8 },
  );
  return fc.record({ authorization, contentType, requestId, idempotencyKey }).map((h) => {
    const headers: Record<string, string> = {};
    if (h.authorization) headers.authorization = h.authorization;
    if (options.takesBody && h.contentType) headers["content-type"] = h.contentType;
    if (h.requestId !== undefined) headers["x-request-id"] = h.requestId;
    if (h.idempotencyKey !== undefined) headers["x-idempotency-key"] = h.idempotencyKey;
    return headers;
  });
}

/** A tRPC input envelope (as text) around a hostile input: superjson's `{json, meta}`, or not. */
export function hostileTrpcEnvelope(procedure: TrpcProcedure, pools: IdPools): fc.Arbitrary<string | undefined> {
  const example = (procedure.meta?.example?.input ?? {}) as Record<string, unknown>;
  return fc.oneof(
    {
      weight: 8,
      arbitrary: hostileBody(example, pools).map((body) =>
        body === undefined ? undefined : `{"json":${isJson(body) ? body : JSON.stringify(body)}}`,
      ),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          hostileBody(example, pools),
          fc.oneof(
            fc.jsonValue({ maxDepth: 3 }),
            fc.record({
              values: fc.dictionary(
                fc.string({ maxLength: 8 }),
                fc.constantFrom(
                  ["Date"],
                  ["bigint"],
                  ["undefined"],
                  ["set"],
                  ["map"],
                  ["regexp"],
                  ["class", "X"],
                  ["custom", "x"],
                  "Date",
                  [["Date"]],
                ),
              ),
            }),
          ),
        )
        .map(([body, meta]) => `{"json":${body !== undefined && isJson(body) ? body : "null"},"meta":${JSON.stringify(meta)}}`),
    },
    { weight: 1, arbitrary: hostileBody(example, pools) },
  );
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
