/**
 * The bare node:https baselines of bench/transfers-create.ts, each run in its own process like the
 * web server (transfers-create.ts starts itself with one of the flags below): one INSERT of the
 * body, and the create's statements on raw `pg` (one round trip each, or pipelined as the web
 * sends them).
 */
import { randomUUID } from "node:crypto";
import { createServer } from "node:https";
import { createDatabase } from "@qc/db";
export const BARE_FLAG = "--bare-insert-server";
export const ROUND_TRIPS_FLAG = "--bare-round-trips-server";
/** With ROUND_TRIPS_FLAG: the same statements pipelined as the web sends them (four round trips). */
export const PIPELINED_FLAG = "--pipelined";
/** Connections per server process, the same for all (the web's DB_POOL_MAX default is 10). */
export const POOL_MAX = Number(process.env.BENCH_POOL_MAX ?? 10);

/**
 * The round-trips baseline's statements, one round trip each, in the order it sends them per
 * request (what the web sends per create, as bench/statement-counter.ts lists it, minus the
 * framework): named prepared statements except begin and commit. Printed beside the web's count.
 */
export const ROUND_TRIPS = {
  begin: "begin",
  lockAndReadKey:
    "select pg_try_advisory_xact_lock(hashtextextended($1::text || ':' || $2::text, 0)) as locked, (select status " +
    "from tenants where id = $1::text::uuid) as tenant_status, k.response_status, k.response_body from (select 1) " +
    "as one left join bench_keys k on k.key = $2",
  wallet: "select * from wallets where id = $1 and tenant_id = $2",
  // The id is made by the handler, as the web makes its rows' ids: the job needs no answer first.
  insertTransfer: "insert into bench_transfers (id, body) values ($1, $2::jsonb)",
  insertJob: "insert into bench_jobs (name, data) values ('transfers.check', $1::jsonb)",
  insertKey: "insert into bench_keys (tenant_id, key, response_status, response_body) values ($1, $2, 201, $3::json)",
  commit: "commit",
} as const;

/**
 * The baseline, in its own process like the web server: parse the JSON body, one INSERT on a
 * pool of the same size as the web's, answer 201 with the row's id.
 */
export async function runBareInsertServer(): Promise<void> {
  const [, , , url, port, certB64, keyB64] = process.argv;
  const database = createDatabase({ url: url!, poolMax: POOL_MAX, applicationName: "qc-bench-bare" });
  const server = createServer({ cert: Buffer.from(certB64!, "base64"), key: Buffer.from(keyB64!, "base64") }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      database.pool
        .query<{ id: string }>("insert into bench_transfers (body) values ($1::jsonb) returning id", [body])
        .then(({ rows }) => {
          const answer = JSON.stringify({ id: rows[0]!.id });
          res.writeHead(201, { "content-type": "application/json", "content-length": Buffer.byteLength(answer) }).end(answer);
        })
        .catch(() => res.writeHead(500).end());
    });
  });
  server.listen(Number(port), "127.0.0.1", () => process.stdout.write("ready\n"));
}

/**
 * The second baseline, in its own process too: per request, on one pooled connection of a pool
 * the web's size, the create's round trips (ROUND_TRIPS) with raw `pg`: one transaction taking
 * the key's advisory lock and reading it and the tenant's status in one statement (refused
 * unless VERIFIED), reading the source wallet (the real `wallets` row, by the body's
 * sourceWalletId), inserting the body, a job row and the key with its answer (unique key); 201
 * with the row's id. One statement per round trip; `pipelined`: the same statements in the web's
 * four round trips (BEGIN with the lock statement, the row with the job, the answer with COMMIT)
 * on the pool's connections in pipeline mode, as @qc/db's `pipelinedTransaction` sends them.
 */
export async function runBareRoundTripsServer(pipelined: boolean): Promise<void> {
  const [url, port, certB64, keyB64, tenantId] = process.argv.slice(2).filter((arg) => !arg.startsWith("--"));
  const { pool } = createDatabase({ url: url!, poolMax: POOL_MAX, applicationName: "qc-bench-bare-round-trips" });
  const named = (name: keyof typeof ROUND_TRIPS, values: unknown[]) => ({ name: `bench_${name}`, text: ROUND_TRIPS[name], values });

  const create = async (key: string, body: string): Promise<{ status: number; answer: string }> => {
    const walletId = (JSON.parse(body) as { sourceWalletId?: unknown }).sourceWalletId;
    if (typeof walletId !== "string") return { status: 400, answer: '{"error":"sourceWalletId"}' };
    const client = await pool.connect();
    let broken: Error | undefined;
    try {
      type Locked = { locked: boolean; tenant_status: string | null; response_status: number | null; response_body: unknown };
      const begun = client.query(ROUND_TRIPS.begin);
      const lock = pipelined ? client.query<Locked>(named("lockAndReadKey", [tenantId, key])) : undefined;
      await begun;
      try {
        const [found] = (await (lock ?? client.query<Locked>(named("lockAndReadKey", [tenantId, key])))).rows;
        let refused: { status: number; answer: string } | undefined;
        if (found?.tenant_status !== "VERIFIED") refused = { status: 403, answer: '{"error":"tenant"}' };
        else if (!found.locked) refused = { status: 409, answer: '{"error":"key in use"}' };
        else if (found.response_status !== null) refused = { status: found.response_status, answer: JSON.stringify(found.response_body) };
        else if ((await client.query(named("wallet", [walletId, tenantId]))).rowCount !== 1)
          refused = { status: 404, answer: '{"error":"wallet"}' };
        if (refused) {
          await client.query("rollback");
          return refused;
        }
        const id = randomUUID();
        const answer = JSON.stringify({ id });
        if (pipelined) {
          await Promise.all([
            client.query(named("insertTransfer", [id, body])),
            client.query(named("insertJob", [JSON.stringify({ transactionId: id })])),
          ]);
          const [, committed] = await Promise.all([
            client.query(named("insertKey", [tenantId, key, answer])),
            client.query(ROUND_TRIPS.commit),
          ]);
          if (committed.command !== "COMMIT") throw new Error(`commit answered ${committed.command}`);
        } else {
          await client.query(named("insertTransfer", [id, body]));
          await client.query(named("insertJob", [JSON.stringify({ transactionId: id })]));
          await client.query(named("insertKey", [tenantId, key, answer]));
          await client.query(ROUND_TRIPS.commit);
        }
        return { status: 201, answer };
      } catch (error) {
        await client.query("rollback").catch(() => undefined);
        throw error;
      }
    } catch (error) {
      broken = error as Error;
      throw error;
    } finally {
      client.release(broken);
    }
  };

  const server = createServer({ cert: Buffer.from(certB64!, "base64"), key: Buffer.from(keyB64!, "base64") }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const key = req.headers["x-idempotency-key"];
      if (typeof key !== "string") return void res.writeHead(400).end();
      create(key, Buffer.concat(chunks).toString("utf8"))
        .then(({ status, answer }) =>
          res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(answer) }).end(answer),
        )
        .catch(() => res.writeHead(500).end());
    });
  });
  server.listen(Number(port), "127.0.0.1", () => process.stdout.write("ready\n"));
}
