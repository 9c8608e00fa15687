import { createServer, type Server } from "node:https";
import type { IncomingMessage } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { defaultWebhookConfig, type WebhookConfig } from "@qc/core";
import { createTenantFixture, type TenantFixture } from "@qc/core/testing";
import type { TestDatabase } from "@qc/db/testing";
import type { Daemon } from "@qc/daemon";
import { testCertificate } from "@qc/webhooks/testing";
import { afterAll, afterEach, beforeAll, expect } from "vitest";
import { client, type Client } from "./custody-helpers";
import { startTestServer, TEST_PEPPER, type TestServer } from "./harness";
import { startTestDaemon } from "./identity-helpers";

/** What an integrator's endpoint got: the raw bytes, as its verifier must see them. */
export interface ReceivedRequest {
  path: string;
  headers: IncomingMessage["headers"];
  body: Buffer;
  /** The n-th request to this path, from 1. */
  nth: number;
  /** Parsed body, for assertions. */
  json: { id: string; type: string; timestamp: string; sequence: number; data: Record<string, unknown> };
}

/** A delivery as `GET /v1/webhooks/{id}/deliveries` lists it, the fields tests read. */
export interface DeliveryView {
  id: string;
  eventId: string;
  status: string;
  attemptCount: number;
  nextAttemptAt: string | null;
  attempts: { attemptedAt: string; statusCode: number | null; durationMs: number; responseExcerpt: string | null; error: string | null }[];
}

/** How the receiver answers one request: a status (and body, headers), or never. */
export type ReceiverAnswer = { status: number; body?: string; headers?: Record<string, string> } | "hang";
export type ReceiverScript = (request: ReceivedRequest) => ReceiverAnswer;

export interface TestReceiver {
  /** `https://127.0.0.1:<port><path>`. */
  url(path: string): string;
  /** PEM of its self-signed certificate (names 127.0.0.1), for the deliverer to trust. */
  certificate: string;
  received: ReceivedRequest[];
  /** Requests whose answer is being held ("hang"), until released or their socket dies. */
  held(): number;
  /** How a path answers; unscripted paths answer 204. */
  script(path: string, answer: ReceiverScript): void;
  close(): Promise<void>;
}

/**
 * A real HTTPS webhook receiver on 127.0.0.1 (a self-signed certificate the deliverer is told
 * to trust), scripted per path: fail n times, answer 410, hang, succeed.
 */
export async function startReceiver(): Promise<TestReceiver> {
  const pems = await testCertificate({ commonName: "receiver.test" });
  const received: ReceivedRequest[] = [];
  const scripts = new Map<string, ReceiverScript>();
  const counts = new Map<string, number>();
  const sockets = new Set<Socket>();
  let hanging = 0;
  const server: Server = createServer(pems, (request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const path = request.url ?? "/";
      const nth = (counts.get(path) ?? 0) + 1;
      counts.set(path, nth);
      const body = Buffer.concat(chunks);
      let parsed: ReceivedRequest["json"];
      try {
        parsed = JSON.parse(body.toString("utf8"));
      } catch {
        parsed = {} as ReceivedRequest["json"];
      }
      const entry: ReceivedRequest = { path, headers: request.headers, body, nth, json: parsed };
      received.push(entry);
      const answer: ReceiverAnswer = (scripts.get(path) ?? (() => ({ status: 204 })))(entry);
      if (answer === "hang") {
        hanging += 1;
        response.on("close", () => (hanging -= 1));
        return;
      }
      response.writeHead(answer.status, { "content-type": "text/plain", ...answer.headers }).end(answer.body ?? "");
    });
  });
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (path) => `https://127.0.0.1:${port}${path}`,
    certificate: pems.cert,
    received,
    held: () => hanging,
    script: (path, answer) => void scripts.set(path, answer),
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * A clock the services read (`now` in ServiceDeps): real time plus an offset the test moves
 * forward to bring the next scheduled attempt due, instead of waiting minutes or days.
 */
export function testClock() {
  let offsetMs = 0;
  return {
    now: () => new Date(Date.now() + offsetMs),
    /** Moves the clock to `at` (or leaves it, if it is already later). */
    advanceTo(at: Date) {
      offsetMs = Math.max(offsetMs, at.getTime() - Date.now());
    },
    reset() {
      offsetMs = 0;
    },
  };
}

/**
 * The stack a delivery test drives, for one test file: a real receiver, the server and a daemon
 * delivering to it (loopback allowed, the receiver's certificate trusted, a 1 s delivery
 * timeout), all reading `clock`. Registers its own beforeAll / afterEach / afterAll.
 */
export function useWebhookDeliveryStack(t: TestDatabase, options: { sweepIntervalMs: number }) {
  const clock = testClock();
  let receiver: TestReceiver | undefined;
  let server: TestServer | undefined;
  let daemon: Daemon | undefined;
  beforeAll(async () => {
    receiver = await startReceiver();
    const webhooks: WebhookConfig = {
      ...defaultWebhookConfig(),
      allowPrivateUrls: true,
      trustedCertificates: receiver.certificate,
      deliveryTimeoutMs: 1_000,
      sweepIntervalMs: options.sweepIntervalMs,
    };
    server = await startTestServer({ database: t, now: clock.now, config: { webhooks } });
    daemon = await startTestDaemon(t.url, { now: clock.now, config: { webhooks } });
  });
  afterEach(() => clock.reset());
  afterAll(async () => {
    await daemon?.stop({ timeoutMs: 5_000 });
    await server?.close();
    await receiver?.close();
  });
  return {
    clock,
    receiver: () => receiver!,
    server: () => server!,
    /** The requests the receiver got on `path`, in order. */
    receivedAt: (path: string) => receiver!.received.filter((r) => r.path === path),
  };
}

/** A fresh tenant subscribed to `path` of the receiver; `body` adds to the create body. */
export async function subscribeReceiver<Hook = { id: string; secret: string }>(
  t: TestDatabase,
  stack: ReturnType<typeof useWebhookDeliveryStack>,
  path: string,
  body: Record<string, unknown> = {},
  tenant?: TenantFixture,
): Promise<{ tenant: TenantFixture; api: Client; hook: Hook }> {
  tenant ??= await createTenantFixture({ db: t.db, pepper: TEST_PEPPER });
  const api = client(stack.server, tenant.authorization);
  const res = await api.post("/v1/webhooks", { url: stack.receiver().url(path), ...body });
  expect(res.status, res.text).toBe(201);
  return { tenant, api, hook: res.json() };
}

/** `POST /v1/webhooks/{id}/test` → the event id (its `webhook-id`). */
export async function sendTestEvent(s: { api: Client; hook: { id: string } }): Promise<string> {
  const res = await s.api.post(`/v1/webhooks/${s.hook.id}/test`);
  expect(res.status, res.text).toBe(202);
  return res.json().eventId as string;
}
