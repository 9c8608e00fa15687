/** Baseline: the least a Node server can do per request, over plain HTTP and over TLS. */
import { createServer } from "node:http";
import { createServer as createTlsServer } from "node:https";

const body = JSON.stringify({ status: "ok" });
const handler = (_req: unknown, res: import("node:http").ServerResponse) => {
  res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
  res.end(body);
};
const [httpPort, httpsPort, certB64, keyB64] = process.argv.slice(2);
createServer(handler).listen(Number(httpPort), "127.0.0.1");
createTlsServer({ cert: Buffer.from(certB64!, "base64"), key: Buffer.from(keyB64!, "base64") }, handler).listen(Number(httpsPort), "127.0.0.1", () => process.stdout.write("ready\n"));
