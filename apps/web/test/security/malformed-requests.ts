/**
 * A seeded, replayable corpus of malformed HTTP/1.1 requests as raw bytes, for the socket-level
 * fuzz (socket-fuzz.test.ts). Every case is derived from the seed and its index only, so a
 * failure names `FUZZ_SEED` and the case index, and replays exactly.
 */

/** mulberry32: small, fast, and the same sequence on every platform. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface MalformedRequest {
  index: number;
  kind: string;
  /** Written in this many pieces, a few milliseconds apart (a slow client). */
  chunks: Buffer[];
  /** A request the server must refuse (4xx or a close); otherwise any answer but a 5xx. */
  mustRefuse: boolean;
}

const METHODS = [
  "GET",
  "POST",
  "PUT",
  "DELETE",
  "HEAD",
  "OPTIONS",
  "PATCH",
  "TRACE",
  "CONNECT",
  "PRI",
  "G\u0000ET",
  "GE T",
  "get",
  "",
  "X".repeat(300),
  "M-SEARCH",
  "GET\t",
  "\u00e9",
];

/** Request targets that once reached, or could reach, a throw outside a try. */
const HOSTILE_TARGETS = [
  "http://[",
  "http://[/",
  "https://[::1",
  "http://[::1]:99999/",
  "http://x/..",
  "http://x/../../v1/vault/accounts",
  "http://evil.example/x",
  "https://evil.example//healthz",
  "http://user:pass@evil.example/",
  "http://%zz/",
  "http:///",
  "http:",
  "ftp://x/",
  "javascript:alert(1)",
  "*",
  "//evil.example/x",
  "///evil.example",
  "/\\evil.example",
  "/%09/evil.example",
  "/%",
  "/%zz",
  "/%c0%af",
  "/%ff%fe",
  "/%ed%a0%80",
  "/v1/%",
  "/v1/vault/accounts/%E0%A4%A",
  "/v1/vault/accounts/%00",
  "/v1/transactions/%2e%2e/cancel",
  "/api/trpc/%",
  "/api/trpc/vaults.list?input=%",
  "/api/trpc/vaults.list?input=%7B",
  "/api/trpc/a,b,c?batch=1&input=%ZZ",
  "/healthz?%",
  "/readyz#frag",
  "/docs/%",
  "/metrics?%%",
  "/" + "a/".repeat(4000),
  "/v1/" + "%41".repeat(3000),
  "?",
  "#",
  "",
];

const VERSIONS = [
  "HTTP/1.1",
  "HTTP/1.0",
  "HTTP/2.0",
  "HTTP/0.9",
  "HTTP/1.1 extra",
  "HTTP/9.9",
  "HTTP/1.",
  "http/1.1",
  "HTTP/1.1\u0000",
  "",
];

const HEADER_NAMES = [
  "Host",
  "Content-Length",
  "Transfer-Encoding",
  "Authorization",
  "Cookie",
  "X-Request-ID",
  "X-Forwarded-For",
  "X-Forwarded-Proto",
  "Content-Type",
  "Origin",
  "Sec-Fetch-Site",
  "Connection",
  "Expect",
  "Upgrade",
  "X-Idempotency-Key",
];

const HEADER_VALUES = [
  "localhost",
  "evil.example",
  "[",
  "x/y?z",
  "0",
  "-1",
  "18446744073709551616",
  "abc",
  "chunked",
  "chunked, identity",
  "Bearer qc_00000000000000000000000000000000:" + "0".repeat(64),
  "Bearer " + "x".repeat(2000),
  "Basic %%%",
  "__Host-qc_session=qs_" + "0".repeat(64),
  "qc_session=; qc_session=x",
  "http",
  "https, http",
  "application/json",
  "text/plain; charset=\u00ff",
  "100-continue",
  "websocket",
  "\u0000",
  "a\u0001b",
  "\u00e9\u00e8",
  "x".repeat(9000),
];

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

function latin1(text: string): Buffer {
  return Buffer.from(text, "latin1");
}

function validRequest(random: () => number): string {
  const target = pick(random, ["/healthz", "/readyz", "/v1/vault/accounts", "/api/trpc/vaults.list", "/v1/openapi.json", "/docs", "/"]);
  return `GET ${target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`;
}

/** Flip, insert, delete and duplicate bytes of a valid request. */
function mutateBytes(random: () => number, text: string): Buffer {
  const bytes = [...latin1(text)];
  const edits = 1 + Math.floor(random() * 6);
  for (let i = 0; i < edits; i++) {
    const at = Math.floor(random() * bytes.length);
    const op = Math.floor(random() * 4);
    const byte = pick(random, [0x00, 0x0a, 0x0d, 0x20, 0x25, 0x3a, 0x2f, 0x5b, 0x7f, 0xff, 0x09, Math.floor(random() * 256)]);
    if (op === 0) bytes[at] = byte;
    else if (op === 1) bytes.splice(at, 0, byte);
    else if (op === 2) bytes.splice(at, 1);
    else bytes.splice(at, 0, ...bytes.slice(at, at + 1 + Math.floor(random() * 8)));
  }
  return Buffer.from(bytes);
}

function headerBlock(random: () => number, count: number): string {
  let block = "";
  for (let i = 0; i < count; i++) block += `${pick(random, HEADER_NAMES)}: ${pick(random, HEADER_VALUES)}\r\n`;
  return block;
}

function split(random: () => number, bytes: Buffer): Buffer[] {
  if (bytes.length < 4 || random() < 0.7) return [bytes];
  const pieces = 2 + Math.floor(random() * 3);
  const cuts = Array.from({ length: pieces - 1 }, () => 1 + Math.floor(random() * (bytes.length - 1))).sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let from = 0;
  for (const cut of cuts) {
    chunks.push(bytes.subarray(from, cut));
    from = cut;
  }
  chunks.push(bytes.subarray(from));
  return chunks.filter((c) => c.length > 0);
}

/** Case `index` of the corpus for `seed`. */
export function malformedRequest(seed: number, index: number): MalformedRequest {
  const random = seededRandom((seed ^ Math.imul(index + 1, 0x9e3779b1)) >>> 0);
  const kind = pick(random, [
    "hostile-target",
    "hostile-target",
    "request-line",
    "header-flood",
    "duplicate-headers",
    "control-bytes",
    "byte-mutation",
    "byte-mutation",
    "truncated",
    "body-framing",
  ]);
  let text: string | undefined;
  let bytes: Buffer | undefined;
  let mustRefuse: boolean;
  switch (kind) {
    case "hostile-target": {
      const method = pick(random, ["GET", "GET", "POST", "HEAD", "DELETE"]);
      const target = pick(random, HOSTILE_TARGETS);
      text = `${method} ${target} HTTP/1.1\r\nHost: ${pick(random, ["localhost", "evil.example", "[", "a b"])}\r\n${random() < 0.3 ? headerBlock(random, 2) : ""}\r\n`;
      // Some of these are valid requests for paths that do not exist (404) or redirects.
      mustRefuse = false;
      break;
    }
    case "request-line":
      text = `${pick(random, METHODS)} ${pick(random, [...HOSTILE_TARGETS, "/healthz"])} ${pick(random, VERSIONS)}\r\nHost: localhost\r\n\r\n`;
      mustRefuse = false;
      break;
    case "header-flood": {
      const count = pick(random, [200, 1000, 3000]);
      text = `GET /healthz HTTP/1.1\r\nHost: localhost\r\n${headerBlock(random, count)}\r\n`;
      mustRefuse = false; // a flood that fits the 16 KB limit is a valid request
      break;
    }
    case "duplicate-headers": {
      const name = pick(random, ["Content-Length", "Host", "Transfer-Encoding", "Authorization", "Cookie", "X-Request-ID", "Origin"]);
      const values = Array.from({ length: 2 + Math.floor(random() * 6) }, () => pick(random, HEADER_VALUES));
      text = `POST /v1/vault/accounts HTTP/1.1\r\nHost: localhost\r\n${values.map((v) => `${name}: ${v}\r\n`).join("")}\r\n{}`;
      mustRefuse = false;
      break;
    }
    case "control-bytes": {
      const where = Math.floor(random() * 3);
      const bad = pick(random, ["\u0000", "\r", "\n", "\u0001", "\u007f", "\r\n ", " \r\n"]);
      text =
        where === 0
          ? `GET /heal${bad}thz HTTP/1.1\r\nHost: localhost\r\n\r\n`
          : where === 1
            ? `GET /healthz HTTP/1.1\r\nHost: local${bad}host\r\n\r\n`
            : `GET /healthz HTTP/1.1\r\nX-Na${bad}me: v\r\nHost: localhost\r\n\r\n`;
      mustRefuse = false;
      break;
    }
    case "byte-mutation":
      bytes = mutateBytes(random, validRequest(random));
      mustRefuse = false;
      break;
    case "truncated": {
      const full = latin1(
        `POST /v1/vault/accounts HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 64\r\n\r\n{"name":"x"}`,
      );
      bytes = full.subarray(0, 1 + Math.floor(random() * (full.length - 1)));
      // Half-closed before the headers are complete: nothing to answer but a refusal. Cut inside
      // the body, the redirector may still answer 308 (it reads no body).
      mustRefuse = !bytes.includes("\r\n\r\n");
      break;
    }
    default: {
      // Conflicting framing: both Content-Length and Transfer-Encoding, bad chunk sizes.
      const chunk = pick(random, ["zz\r\nabc\r\n0\r\n\r\n", "ffffffffffffffff\r\n", "-1\r\n\r\n", "5\r\nab\r\n0\r\n\r\n", "0\r\n\r\n"]);
      text = `POST /v1/vault/accounts HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n${random() < 0.5 ? "Content-Length: 3\r\n" : ""}Content-Type: application/json\r\n\r\n${chunk}`;
      mustRefuse = false;
      break;
    }
  }
  return { index, kind, chunks: split(random, bytes ?? latin1(text!)), mustRefuse };
}
