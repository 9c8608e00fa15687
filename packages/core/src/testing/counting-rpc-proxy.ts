import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { useTestDatabase } from "@qc/db/testing";
import { useDevnet } from "@qc/devnet/testing";
import { afterAll, beforeAll } from "vitest";
import type { ServiceDeps } from "../deps/service-deps";
import { createTenantFixture, type TenantFixture } from "./fixtures";
import { createTestServiceDeps } from "./service-deps";

/**
 * An HTTP hop in front of a JSON-RPC node (the devnet) that notes how many calls each HTTP request
 * carried (1 for a single call, n for a batch of n), in arrival order: what a test of the RPC
 * client's batching counts.
 */
export async function countingRpcProxy(target: string): Promise<{ url: string; requests: number[]; close(): Promise<void> }> {
  const requests: number[] = [];
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      const parsed = JSON.parse(body) as unknown;
      requests.push(Array.isArray(parsed) ? parsed.length : 1);
      void fetch(target, { method: "POST", headers: { "content-type": "application/json" }, body }).then(async (answer) => {
        res.writeHead(answer.status, { "content-type": "application/json" });
        res.end(await answer.text());
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * For a `describe` whose tests count the node's HTTP requests: a test database, a devnet, service
 * deps whose chain requests go through a counting hop, and a tenant (its pepper from `pepperByte`),
 * set up before the tests and closed after.
 */
export function useCountedChain(pepperByte: number) {
  const t = useTestDatabase();
  const devnet = useDevnet();
  const state = {} as {
    proxy: Awaited<ReturnType<typeof countingRpcProxy>>;
    deps: ServiceDeps & { close(): Promise<void> };
    tenant: TenantFixture;
  };
  beforeAll(async () => {
    state.proxy = await countingRpcProxy(devnet().url);
    state.deps = await createTestServiceDeps({ database: t, config: { rpcUrls: { QUANTUM_SANDBOX: [state.proxy.url] } } });
    state.tenant = await createTenantFixture({ db: t.db, pepper: Buffer.alloc(32, pepperByte) });
  });
  afterAll(async () => {
    await state.deps?.close();
    await state.proxy?.close();
  });
  return { t, devnet, state };
}
