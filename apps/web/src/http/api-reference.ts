import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import type { IncomingMessage, ServerResponse } from "node:http";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { gzip } from "node:zlib";
import { AppError } from "@qc/core";

export const API_REFERENCE_PATH = "/docs";
const RENDERER_PATH = "/docs/api-reference.js";
const START_PATH = "/docs/start.js";

/**
 * The page only loads scripts from this origin and talks only to it: the reference works
 * offline and behind a firewall, and a compromised CDN cannot run code next to a session cookie.
 * Scalar injects its styles at run time, hence the inline styles.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'none'",
].join("; ");

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>API reference · Quantum Custody</title>
  </head>
  <body>
    <noscript>The API reference needs JavaScript. The OpenAPI 3.1 document it renders: <a href="/v1/openapi.json">/v1/openapi.json</a>.</noscript>
    <div id="api-reference"></div>
    <script src="${RENDERER_PATH}"></script>
    <script src="${START_PATH}"></script>
  </body>
</html>
`;

// Everything that would reach out to scalar.com is off: no telemetry, no hosted proxy, no AI
// agent, no web fonts, no "open in the hosted client" button.
const START = `Scalar.createApiReference("#api-reference", ${JSON.stringify({
  url: "/v1/openapi.json",
  telemetry: false,
  withDefaultFonts: false,
  hideClientButton: true,
  showDeveloperTools: "never",
  agent: { disabled: true },
  mcp: { disabled: true },
  documentDownloadType: "json",
  defaultOpenAllTags: false,
  expandAllResponses: false,
  operationTitleSource: "summary",
})});
`;

interface Asset {
  body: Buffer;
  gzipped: Buffer;
  etag: string;
  type: string;
}

const compress = promisify(gzip);

async function asset(body: Buffer, type: string): Promise<Asset> {
  return { body, gzipped: await compress(body), etag: `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`, type };
}

/** The Scalar standalone bundle, from the installed package (its exports map hides the path). */
async function loadRenderer(): Promise<Buffer> {
  const entry = createRequire(import.meta.url).resolve("@scalar/api-reference");
  return readFile(join(dirname(entry), "browser", "standalone.js"));
}

/**
 * `/docs`: the API reference rendered from /v1/openapi.json by Scalar, every script served from
 * this origin. The assets are read and compressed once, on first use.
 */
export function createApiReferenceHandler() {
  let assets: Promise<Map<string, Asset>> | undefined;
  const load = () =>
    (assets ??= Promise.all([
      asset(Buffer.from(PAGE), "text/html; charset=utf-8"),
      loadRenderer().then((body) => asset(body, "text/javascript; charset=utf-8")),
      asset(Buffer.from(START), "text/javascript; charset=utf-8"),
    ]).then(
      ([page, renderer, start]) =>
        new Map([
          [API_REFERENCE_PATH, page!],
          [RENDERER_PATH, renderer!],
          [START_PATH, start!],
        ]),
    ));

  return async (req: IncomingMessage, res: ServerResponse, method: string, path: string): Promise<void> => {
    const file = (await load()).get(path === `${API_REFERENCE_PATH}/` ? API_REFERENCE_PATH : path);
    if (!file) throw new AppError("NOT_FOUND", `no route ${path}`);
    if (method !== "GET" && method !== "HEAD") {
      res.setHeader("Allow", "GET, HEAD");
      throw new AppError("METHOD_NOT_ALLOWED", "method not allowed; allowed: GET, HEAD");
    }
    const gzipped = /\bgzip\b/.test(String(req.headers["accept-encoding"] ?? ""));
    const body = gzipped ? file.gzipped : file.body;
    const etag = gzipped ? file.etag.replace(/"$/, '-gzip"') : file.etag;
    res.setHeader("Content-Type", file.type);
    res.setHeader("Content-Security-Policy", CONTENT_SECURITY_POLICY);
    res.setHeader("Cache-Control", file.type.startsWith("text/html") ? "no-cache" : "public, max-age=3600");
    res.setHeader("ETag", etag);
    res.setHeader("Vary", "Accept-Encoding");
    if (req.headers["if-none-match"] === etag) {
      res.statusCode = 304;
      res.end();
      return;
    }
    if (gzipped) res.setHeader("Content-Encoding", "gzip");
    res.setHeader("Content-Length", body.length);
    res.statusCode = 200;
    res.end(method === "HEAD" ? undefined : body);
  };
}
