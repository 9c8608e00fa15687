/**
 * The stack the pipeline benchmark drives, each part in its own process as `./qc start` runs
 * them: a QUANTUM devnet (1 s blocks), the web server (HTTPS on loopback, its own self-signed
 * certificate) and one or more daemons on one database. Every process is registered with
 * stopOnSignal, so an interrupted benchmark leaves none behind.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { Agent, request } from "node:https";
import { join, resolve } from "node:path";
import { freePort } from "./database";
import { stopChild, stopOnSignal } from "./stop-on-signal";
import { benchWebEnv, compiledAppArgs, loopbackCertificate } from "./web-server";

const root = resolve(import.meta.dirname, "..");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export type StackProcess = { name: string; child: ChildProcess };

export type PipelineStack = {
  rpcUrl: string;
  baseUrl: string;
  /** The web server's certificate, to trust instead of turning TLS checks off. */
  ca: string;
  processes: StackProcess[];
  stop(): Promise<void>;
};

export type StartStackParameters = {
  databaseUrl: string;
  work: string;
  apiKeyPepper: Buffer;
  daemons: number;
  blockTimeMs: number;
  /** Resolves when the daemons have written their heartbeats. */
  daemonsReady: (count: number) => Promise<boolean>;
  deadline: number;
  /** Another checkout whose web server and daemon run instead of this one's (a paired baseline; the devnet stays this one's). */
  checkout?: string;
  /** More environment for the web server and the daemons (e.g. NONCE_WINDOW). */
  env?: Record<string, string>;
  /** Node flags for the daemons only (e.g. `--cpu-prof --cpu-prof-dir=<dir>`: a profile written when each stops). */
  daemonNodeFlags?: string[];
};

/** Spawns `node <args>`, keeping its output for error messages. */
function startProcess(name: string, args: string[], env: Record<string, string>, cwd = root): StackProcess & { output: () => string } {
  const child = spawn(process.execPath, args, {
    cwd,
    env: { ...process.env, ...env } as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  stopOnSignal(() => stopChild(child));
  let output = "";
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout!.on("data", keep);
  // Warnings and errors of the servers stay visible; their routine output does not.
  child.stderr!.on("data", (chunk: Buffer) => {
    keep(chunk);
    process.stderr.write(`[${name}] ${chunk.toString()}`);
  });
  return { name, child, output: () => output };
}

async function waitFor(what: string, deadline: number, probe: () => Promise<boolean> | boolean, processes: StackProcess[]) {
  for (;;) {
    const dead = processes.find((p) => p.child.exitCode !== null || p.child.signalCode !== null);
    if (dead) throw new Error(`${dead.name} exited (${dead.child.signalCode ?? dead.child.exitCode}) while waiting for ${what}`);
    if (await probe()) return;
    if (Date.now() > deadline) throw new Error(`deadline passed while waiting for ${what}`);
    await sleep(200);
  }
}

function readyz(baseUrl: string, ca: string): Promise<boolean> {
  return new Promise((done) => {
    const req = request(`${baseUrl}/readyz`, { ca, timeout: 2_000 }, (res) => {
      res.resume();
      done(res.statusCode === 200);
    });
    req.on("error", () => done(false));
    req.on("timeout", () => req.destroy());
    req.end();
  });
}

export async function startPipelineStack(params: StartStackParameters): Promise<PipelineStack> {
  const processes: StackProcess[] = [];
  const stop = async () => {
    // Daemons first (they hold jobs), then the web server, the devnet last.
    for (const p of [...processes].reverse()) await stopChild(p.child);
  };
  try {
    const devnet = startProcess(
      "devnet",
      ["--import", "tsx", "src/main.ts", "--chain-id", "20804", "--port", "0", "--block-time", String(params.blockTimeMs)],
      {},
      join(root, "apps/devnet"),
    );
    processes.push(devnet);
    await waitFor("the devnet", params.deadline, () => /http:\/\/127\.0\.0\.1:\d+/.test(devnet.output()), processes);
    const rpcUrl = /http:\/\/127\.0\.0\.1:\d+/.exec(devnet.output())![0];

    const { cert } = await loopbackCertificate(params.work);
    const shared = {
      DATABASE_URL: params.databaseUrl,
      QUANTUM_SANDBOX_RPC_URL: rpcUrl,
      DATA_DIR: params.work,
      LOG_LEVEL: "warn",
      NODE_ENV: "production",
      KYC_WEBHOOK_SECRET: "bench-kyc-secret-0123456789abcdef",
      // Production's daemon needs a mail server; the benchmark sends no email, so none listens here.
      SMTP_URL: "smtp://127.0.0.1:9",
      WEBHOOK_SECRET_KEY: randomBytes(32).toString("hex"),
      ...params.env,
    };
    const [httpsPort, httpPort] = await Promise.all([freePort(), freePort()]);
    processes.push(
      startProcess("web", await compiledAppArgs("web", params.checkout), {
        ...benchWebEnv({ databaseUrl: params.databaseUrl, work: params.work, httpsPort, httpPort, apiKeyPepper: params.apiKeyPepper }),
        ...shared,
      }),
    );
    const baseUrl = `https://127.0.0.1:${httpsPort}`;
    await waitFor("the web server", params.deadline, () => readyz(baseUrl, cert), processes);

    for (let i = 1; i <= params.daemons; i++) {
      processes.push(
        startProcess(`daemon-${i}`, [...(params.daemonNodeFlags ?? []), ...(await compiledAppArgs("daemon", params.checkout))], {
          ...shared,
          DAEMON_INSTANCE_ID: `bench-daemon-${i}`,
        }),
      );
    }
    await waitFor(`${params.daemons} daemon heartbeat(s)`, params.deadline, () => params.daemonsReady(params.daemons), processes);
    return { rpcUrl, baseUrl, ca: cert, processes, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Keep-alive HTTPS to the web server, trusting only its certificate. */
export function webClient(baseUrl: string, ca: string, authorization: string) {
  const agent = new Agent({ keepAlive: true, maxSockets: 64, ca });
  return async function api<T>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; json: T }> {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    return new Promise((done, fail) => {
      const req = request(
        `${baseUrl}${path}`,
        {
          method,
          agent,
          timeout: 60_000,
          headers: {
            authorization,
            ...(payload ? { "content-type": "application/json", "content-length": payload.length } : {}),
            ...headers,
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => {
            const text = Buffer.concat(chunks).toString();
            done({ status: res.statusCode ?? 0, json: (text ? JSON.parse(text) : undefined) as T });
          });
          res.on("error", fail);
        },
      );
      req.on("timeout", () => req.destroy(new Error(`${method} ${path}: no answer within 60 s`)));
      req.on("error", fail);
      req.end(payload);
    });
  };
}

/** One JSON-RPC call; a connection the devnet closed under us (keep-alive race) is tried again. */
export async function rpc<T>(url: string, method: string, params: unknown[] = []): Promise<T> {
  const request = () =>
    fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    });
  const res = await request().catch(() => sleep(100).then(request));
  const body = (await res.json()) as { result?: T; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result as T;
}
