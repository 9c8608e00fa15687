import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { connect as netConnect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { connect as tlsConnect, type SecureContextOptions, type TLSSocket } from "node:tls";
import { freePort } from "@qc/db/testing";

const ROOT = fileURLToPath(new URL("../../../../", import.meta.url));

/** The web process as production runs it (apps/web/server.ts in its own process), on a test database. */
export interface WebProcess {
  httpsPort: number;
  httpPort: number;
  cert: string;
  child: ChildProcess;
  /** What the process printed (its pino log), for assertions and a failing test's message. */
  output(): string;
  close(): Promise<void>;
}

export async function startWebProcess(databaseUrl: string, extraEnv: Record<string, string> = {}): Promise<WebProcess> {
  const [httpsPort, httpPort] = [await freePort(), await freePort()];
  const dataDir = mkdtempSync(join(tmpdir(), "qc-web-process-"));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "development",
    // Development behaviour (self-signed certificate, generated secrets) is opt-in.
    QC_DEV_MODE: "true",
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    HOST: "127.0.0.1",
    HTTPS_PORT: String(httpsPort),
    HTTP_PORT: String(httpPort),
    PUBLIC_URL: `https://localhost:${httpsPort}`,
    WEB_DASHBOARD: "false",
    // Unreachable on purpose: /healthz does not need the chain.
    QUANTUM_SANDBOX_RPC_URL: "http://127.0.0.1:1",
    QUANTUM_MAINNET_RPC_URL: "",
    LOG_LEVEL: "warn",
    NEXT_TELEMETRY_DISABLED: "1",
    ...extraEnv,
  };
  let output = "";
  const child = spawn(process.execPath, ["--import", "tsx", "apps/web/server.ts"], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-200_000);
  };
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      await new Promise<void>((done) => {
        child.once("exit", () => done());
        child.kill("SIGTERM");
        setTimeout(() => child.kill("SIGKILL"), 10_000).unref();
      });
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = performance.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) {
      await close();
      throw new Error(`the web process exited (${child.exitCode}) while starting:\n${output}`);
    }
    const probe = await rawExchange(
      { port: httpsPort, tls: { rejectUnauthorized: false } },
      [Buffer.from("GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")],
      2_000,
    );
    if (probe.bytes.subarray(0, 12).toString() === "HTTP/1.1 200") break;
    if (performance.now() > deadline) {
      await close();
      throw new Error(`the web process did not start within 120 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const cert = readFileSync(join(dataDir, "tls/localhost-cert.pem"), "utf8");
  return { httpsPort, httpPort, cert, child, output: () => output, close };
}

export interface RawExchange {
  /** Everything the server sent before it closed (or before the timeout). */
  bytes: Buffer;
  timedOut: boolean;
  /** The socket error that ended the exchange, if any (ECONNREFUSED: nothing listens any more). */
  errorCode?: string;
}

/**
 * Sends raw bytes (in pieces, a few ms apart), half-closes, and collects every byte until the
 * server closes. A server that neither answers nor closes within `timeoutMs` is a hang.
 * Node aborts a request still in progress when its client half-closes (no answer, a close):
 * `halfClose: false` keeps the connection open for a request that must be answered.
 */
export function rawExchange(
  target: {
    port: number;
    tls?: SecureContextOptions & { rejectUnauthorized?: boolean; session?: Buffer; onSession?: (s: Buffer) => void };
  },
  chunks: Buffer[],
  timeoutMs: number,
  options: { halfClose?: boolean } = {},
): Promise<RawExchange> {
  return new Promise((resolve) => {
    const received: Buffer[] = [];
    let settled = false;
    const finish = (timedOut: boolean, errorCode?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ bytes: Buffer.concat(received), timedOut, errorCode });
    };
    const send = async () => {
      for (const [i, chunk] of chunks.entries()) {
        if (socket.destroyed) return;
        socket.write(chunk);
        if (i < chunks.length - 1) await new Promise((r) => setTimeout(r, 5));
      }
      if (!socket.destroyed && options.halfClose !== false) socket.end();
    };
    let socket: Socket | TLSSocket;
    if (target.tls) {
      const { onSession, ...options } = target.tls;
      socket = tlsConnect({ host: "127.0.0.1", port: target.port, servername: "localhost", ...options }, () => void send());
      if (onSession) socket.on("session", onSession);
    } else {
      socket = netConnect({ host: "127.0.0.1", port: target.port }, () => void send());
    }
    socket.on("data", (chunk: Buffer) => received.push(chunk));
    // A reset after the answer (or instead of one) is a close, not a failure.
    socket.on("error", (error: NodeJS.ErrnoException) => finish(false, error.code));
    socket.on("close", () => finish(false));
    const timer = setTimeout(() => finish(true), timeoutMs);
  });
}

export interface ParsedResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** The first HTTP/1.x response in `bytes`; throws when the bytes are not one. */
export function parseFirstResponse(bytes: Buffer): ParsedResponse {
  const end = bytes.indexOf("\r\n\r\n");
  if (end === -1) throw new Error(`no complete header block: ${JSON.stringify(bytes.subarray(0, 200).toString("latin1"))}`);
  const [statusLine, ...lines] = bytes.subarray(0, end).toString("latin1").split("\r\n");
  const match = /^HTTP\/1\.[01] (\d{3}) [^\r\n]*$/.exec(statusLine!);
  if (!match) throw new Error(`malformed status line: ${JSON.stringify(statusLine)}`);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(":");
    if (colon <= 0) throw new Error(`malformed header line: ${JSON.stringify(line)}`);
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  const rest = bytes.subarray(end + 4);
  if (headers["transfer-encoding"]?.toLowerCase() === "chunked") return { status: Number(match[1]), headers, body: dechunk(rest) };
  const length = headers["content-length"] === undefined ? undefined : Number(headers["content-length"]);
  return { status: Number(match[1]), headers, body: length === undefined ? rest : rest.subarray(0, length) };
}

/** A chunked body's data; throws when the framing is broken. */
function dechunk(bytes: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = bytes.indexOf("\r\n", at);
    if (lineEnd === -1) throw new Error("chunked body cut short");
    const size = Number.parseInt(bytes.subarray(at, lineEnd).toString("latin1"), 16);
    if (!Number.isInteger(size) || size < 0) throw new Error("malformed chunk size");
    if (size === 0) return Buffer.concat(parts);
    parts.push(bytes.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}
