import { connect } from "node:net";
import { WebSocketServer } from "ws";

/**
 * The WebSocket-to-TCP bridge that Neon runs in front of PostgreSQL, for loopback use: lets
 * the @neondatabase/serverless driver talk to an ordinary local server in tests.
 */
export async function startNeonWsProxy(): Promise<{ endpoint: string; close(): Promise<void> }> {
  const server = new WebSocketServer({ host: "127.0.0.1", port: 0 });
  server.on("connection", (socket, request) => {
    const address = new URL(request.url ?? "/", "http://proxy").searchParams.get("address") ?? "";
    const [host, port] = address.split(":");
    if (!host || !port || !["127.0.0.1", "localhost", "::1"].includes(host)) return socket.close(1008, "loopback only");
    const tcp = connect(Number(port), host);
    tcp.on("data", (chunk) => socket.send(chunk));
    tcp.on("close", () => socket.close());
    tcp.on("error", () => socket.close());
    socket.on("message", (data) => tcp.write(data as Buffer));
    socket.on("close", () => tcp.end());
  });
  await new Promise<void>((resolve) => server.on("listening", resolve));
  const { port } = server.address() as { port: number };
  return { endpoint: `127.0.0.1:${port}/v1`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
