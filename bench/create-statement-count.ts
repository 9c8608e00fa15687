/**
 * The statements the web process sends per create, for bench/transfers-create.ts: the counter
 * (bench/statement-counter.ts) compiled into a preload for the compiled web server, and the
 * sequential creates it counts over.
 */
import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import type { RecordedStatement } from "./statement-counter";

/**
 * `node` flags that install bench/statement-counter.ts in the web process before its first module:
 * the counter compiled to plain JavaScript in `work` (a `--import` preload reaches the verify
 * pool's worker threads too, where a TypeScript one would need tsx; the counter does nothing
 * there). Its `import.meta.dirname` stays bench/, where it finds packages/db's `pg`.
 */
export async function statementCounterFlags(work: string): Promise<string[]> {
  const outfile = join(work, "statement-counter.mjs");
  await build({
    entryPoints: [join(import.meta.dirname, "statement-counter.ts")],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20.11",
    define: { "import.meta.dirname": JSON.stringify(import.meta.dirname) },
    logLevel: "warning",
  });
  return ["--import", pathToFileURL(outfile).href];
}

/** One create with a fresh idempotency key; throws unless it answers 201. */
export async function createOnce(base: string, authorization: string, body: string): Promise<void> {
  const res = await fetch(`${base}/v1/transactions`, {
    method: "POST",
    headers: { authorization, "content-type": "application/json", "x-idempotency-key": `count-${randomBytes(8).toString("hex")}` },
    body,
    signal: AbortSignal.timeout(30_000),
  });
  if (res.status !== 201) throw new Error(`POST /v1/transactions answered ${res.status}: ${await res.text()}`);
  await res.arrayBuffer();
}

/**
 * Statements the web process sends per create (each one a database round trip), counted by
 * bench/statement-counter.ts over sequential creates after a warm-up (caches filled, pool
 * connected), so each statement is attributed to the create that caused it.
 */
export async function countStatementsPerCreate(web: ChildProcess, log: string, create: () => Promise<void>) {
  const creates = 40;
  for (let i = 0; i < 10; i++) await create();
  web.kill("SIGUSR1");
  await new Promise((r) => setTimeout(r, 300)); // the handler runs before the next request arrives
  for (let i = 0; i < creates; i++) await create();
  web.kill("SIGUSR2");
  for (let waited = 0; !existsSync(log); waited += 50) {
    if (waited > 10_000) throw new Error("the web process wrote no statement log");
    await new Promise((r) => setTimeout(r, 50));
  }
  await new Promise((r) => setTimeout(r, 100)); // one small write; let it finish
  const { statements: recorded, sharedRoundTrips } = JSON.parse(readFileSync(log, "utf8")) as {
    statements: RecordedStatement[];
    sharedRoundTrips: number;
  };
  const texts = recorded.map((statement) => statement.text.replace(/\s+/g, " ").trim());
  const counts = new Map<string, number>();
  for (const text of texts) counts.set(text, (counts.get(text) ?? 0) + 1);
  const begins = texts.filter((t) => /^begin\b/i.test(t)).length;
  return {
    creates,
    perCreate: texts.length / creates,
    roundTripsPerCreate: (texts.length - sharedRoundTrips) / creates,
    transactionsPerCreate: begins / creates,
    byStatement: [...counts.entries()].sort((a, b) => b[1] - a[1]),
    /** Every statement as sent, in order (the replay baseline's template: bench/create-replay.ts). */
    recorded,
  };
}

export type StatementCount = Awaited<ReturnType<typeof countStatementsPerCreate>>;
