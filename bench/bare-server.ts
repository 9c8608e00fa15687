/**
 * Baselines for bench/http.ts, each its own process:
 *
 *   bare-server.ts <httpPort> <httpsPort> <certB64> <keyB64>
 *     the least a Node server can do per request, over plain HTTP and over TLS;
 *   bare-server.ts --select <httpsPort> <certB64> <keyB64> <databaseUrl> <tenantId> <vaultId> [--pool]
 *     node:https answering `GET /<vaultId>` with the web's vault read and nothing else: the same
 *     SQL text as `findVaultRow` (packages/db/src/queries/vaults.ts), as the same named prepared
 *     statement, on what the web runs it on (@qc/db's pipelined read connections, as many as the
 *     web's default), for the tenant given; 200 with the row as JSON. The database work of
 *     `GET /v1/vault/accounts/{id}` without the framework around it. With `--pool`, on a
 *     node-postgres pool of the web's default size instead (how the web ran it before).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createServer as createTlsServer } from "node:https";

/**
 * What the web process sends for the vault read, copied: drizzle's text for
 * `select().from(vaults).where(and(eq(id, $vaultId), eq(tenantId, $tenantId)))`, prepared under
 * the web's statement name. Checked at start against drizzle's text for that query, so a column
 * added to `vaults` stops the run instead of leaving the baseline reading less than the web.
 */
const FIND_VAULT_SQL =
  'select "id", "tenant_id", "network_code", "name", "status", "metadata", "archived_at", "created_at", "updated_at" from "vaults" where ("vaults"."id" = $1 and "vaults"."tenant_id" = $2)';
const FIND_VAULT_NAME = "qc_find_vault";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

if (process.argv[2] === "--select") {
  await runSelectServer(process.argv.slice(3));
} else {
  runStaticServers(process.argv.slice(2));
}

async function runSelectServer([httpsPort, certB64, keyB64, databaseUrl, tenantId, vaultId, mode]: string[]): Promise<void> {
  // The database package only for its node-postgres pool and pipelined reads (the web's driver and settings).
  const { and, createDatabase, eq, PipelinedReads, readDbEnv, schema, sql } = await import("@qc/db");
  const { db, pool } = createDatabase({ url: databaseUrl!, poolMax: 10, pipelinedReads: 0, applicationName: "qc-bench-bare-select" });
  const built = db
    .select()
    .from(schema.vaults)
    .where(and(eq(schema.vaults.id, sql.placeholder("vaultId")), eq(schema.vaults.tenantId, sql.placeholder("tenantId"))))
    .toSQL().sql;
  if (built !== FIND_VAULT_SQL)
    throw new Error(`the vault read's SQL changed; update FIND_VAULT_SQL in bench/bare-server.ts to:\n${built}`);
  const reads =
    mode === "--pool"
      ? pool
      : new PipelinedReads({
          connectionString: databaseUrl!,
          connections: readDbEnv().DB_PIPELINED_READS,
          applicationName: "qc-bench-bare-select/reads",
          connectionTimeoutMillis: 5_000,
        });
  const findVault = (id: string) => reads.query({ name: FIND_VAULT_NAME, text: FIND_VAULT_SQL, values: [id, tenantId] });

  // The vault must be there, or every request would be a cheap 404.
  if ((await findVault(vaultId!)).rowCount !== 1) throw new Error(`vault ${vaultId} of tenant ${tenantId} not found`);

  const answer = (res: ServerResponse, status: number, body: unknown) => {
    const text = JSON.stringify(body);
    res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) }).end(text);
  };
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const id = req.url?.slice(1) ?? "";
    if (req.method !== "GET" || !UUID.test(id)) return answer(res, 404, { error: "NOT_FOUND" });
    findVault(id).then(
      ({ rows }) => (rows[0] ? answer(res, 200, rows[0]) : answer(res, 404, { error: "NOT_FOUND" })),
      () => answer(res, 500, { error: "INTERNAL" }),
    );
  };
  createTlsServer({ cert: Buffer.from(certB64!, "base64"), key: Buffer.from(keyB64!, "base64") }, handler).listen(
    Number(httpsPort),
    "127.0.0.1",
    () => process.stdout.write("ready\n"),
  );
}

function runStaticServers([httpPort, httpsPort, certB64, keyB64]: string[]): void {
  const body = JSON.stringify({ status: "ok" });
  const handler = (_req: unknown, res: ServerResponse) => {
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
    res.end(body);
  };
  createServer(handler).listen(Number(httpPort), "127.0.0.1");
  createTlsServer({ cert: Buffer.from(certB64!, "base64"), key: Buffer.from(keyB64!, "base64") }, handler).listen(
    Number(httpsPort),
    "127.0.0.1",
    () => process.stdout.write("ready\n"),
  );
}
