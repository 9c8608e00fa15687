import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

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
