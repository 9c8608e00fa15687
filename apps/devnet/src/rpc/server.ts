import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { INVALID_REQUEST, METHOD_NOT_FOUND, PARSE_ERROR, RpcError } from "./errors";
import { CLIENT_VERSION, METHODS, toRpcError, type RpcContext } from "./methods";

const MAX_BODY_BYTES = 16 * 1024 * 1024;

type JsonRpcRequest = { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown };
type JsonRpcResponse = { jsonrpc: "2.0"; id: unknown; result?: unknown; error?: ReturnType<RpcError["toJSON"]> };

/** Handles one JSON-RPC request object; `undefined` for a notification (no id). */
export async function handleRequest(request: unknown, ctx: RpcContext): Promise<JsonRpcResponse | undefined> {
  const req = request as JsonRpcRequest;
  const id = req && typeof req === "object" && "id" in req ? (req.id ?? null) : null;
  const isNotification = !!req && typeof req === "object" && !("id" in req);
  let response: JsonRpcResponse;
  try {
    if (!req || typeof req !== "object" || Array.isArray(req) || typeof req.method !== "string") {
      throw new RpcError(INVALID_REQUEST, "invalid request");
    }
    const handler = Object.hasOwn(METHODS, req.method) && !ctx.disabledMethods?.includes(req.method) ? METHODS[req.method] : undefined;
    if (!handler) throw new RpcError(METHOD_NOT_FOUND, `the method ${req.method} does not exist/is not available`);
    const params = req.params === undefined ? [] : req.params;
    if (!Array.isArray(params)) throw new RpcError(-32602, "invalid params: params must be an array");
    // Faults never touch devnet_* so a test can always inspect and clear them.
    if (!req.method.startsWith("devnet_")) {
      await ctx.faults.waitWhileStalled();
      const injected = ctx.faults.consumeRpcError();
      if (injected) throw new RpcError(injected.code, injected.message);
    }
    response = { jsonrpc: "2.0", id, result: await handler(params, ctx) };
  } catch (error) {
    response = { jsonrpc: "2.0", id, error: toRpcError(error).toJSON() };
  }
  return isNotification ? undefined : response;
}

/** Single request or batch (array) → response body; `undefined` when nothing is to be sent. */
export async function handleBody(body: string, ctx: RpcContext): Promise<unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { jsonrpc: "2.0", id: null, error: new RpcError(PARSE_ERROR, "parse error").toJSON() };
  }
  if (Array.isArray(parsed)) {
    if (parsed.length === 0) return { jsonrpc: "2.0", id: null, error: new RpcError(INVALID_REQUEST, "empty batch").toJSON() };
    // In order, like a node applying a batch sequentially (nonce order matters for sends).
    const out: JsonRpcResponse[] = [];
    for (const item of parsed) {
      const response = await handleRequest(item, ctx);
      if (response) out.push(response);
    }
    return out.length > 0 ? out : undefined;
  }
  return handleRequest(parsed, ctx);
}

function readBody(req: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        resolve(undefined);
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body, (_k, v: unknown) => (typeof v === "bigint" ? `0x${v.toString(16)}` : v));
  res.writeHead(status, {
    "content-type": "application/json",
    "access-control-allow-origin": "*",
    "content-length": Buffer.byteLength(text),
  });
  res.end(text);
}

/** JSON-RPC over HTTP POST on any path; GET answers a short description (handy with curl). */
export function createRpcServer(ctx: RpcContext): Server {
  const server = createServer(async (req, res) => {
    try {
      if (req.method === "OPTIONS") {
        res.writeHead(204, {
          "access-control-allow-origin": "*",
          "access-control-allow-methods": "POST, GET, OPTIONS",
          "access-control-allow-headers": "content-type",
          "access-control-max-age": "86400",
        });
        res.end();
        return;
      }
      if (req.method === "GET") {
        send(res, 200, {
          client: CLIENT_VERSION,
          chainId: ctx.node.chainId,
          head: Number(ctx.node.head().number),
          usage: 'POST JSON-RPC 2.0 here, e.g. {"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}',
        });
        return;
      }
      if (req.method !== "POST") {
        send(res, 405, { jsonrpc: "2.0", id: null, error: new RpcError(INVALID_REQUEST, "use POST").toJSON() });
        return;
      }
      const body = await readBody(req);
      if (body === undefined) {
        send(res, 413, { jsonrpc: "2.0", id: null, error: new RpcError(INVALID_REQUEST, "request body too large").toJSON() });
        return;
      }
      const response = await handleBody(body, ctx);
      if (response === undefined) {
        res.writeHead(204, { "access-control-allow-origin": "*" });
        res.end();
        return;
      }
      send(res, 200, response);
    } catch (error) {
      if (!res.headersSent) send(res, 500, { jsonrpc: "2.0", id: null, error: toRpcError(error).toJSON() });
    }
  });
  server.keepAliveTimeout = 5_000;
  return server;
}

export function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve(server.address() as AddressInfo);
    });
  });
}
