/**
 * The baseline issue 30 asks for: a bare node:https handler sending **the create's own
 * statements** on raw `pg`, in one transaction, in the web's round trips. Not stand-ins: the
 * statements the web process sent for a create (recorded by bench/statement-counter.ts: text,
 * name, values, which ones shared a round trip), sent again per request with that request's own
 * ids, idempotency key and timestamps. So the database does exactly the create's work (the row
 * and its trail, the job through pg-boss's own insert, the usage buckets, the stored answer, the
 * same locks), and what the web adds on top of it is the framework and the domain code: tRPC,
 * zod, drizzle, authentication, the idempotency tier, the audit and event building.
 *
 * The handler checks nothing (no key in use, no tenant status, no wallet): it answers 201 once
 * COMMIT has been answered COMMIT, and 500 on any error (the benchmark then refuses a ratio).
 */
import { createServer } from "node:https";
import { readFileSync } from "node:fs";
import { createDatabase, newRowId } from "@qc/db";
import { POOL_MAX } from "./create-bare-servers";
import type { RecordedStatement } from "./statement-counter";

export const REPLAY_FLAG = "--bare-replay-server";

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const ISO_TIME = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z/g;

/** A statement to send per request: its values' JSON with the request's own tokens put in. */
interface ReplayStatement {
  text: string;
  name?: string;
  /** The recorded values as JSON text, per-request tokens to be replaced. */
  valuesJson: string;
}

/** The create's statements, grouped by the round trip they left in. */
export interface ReplayTemplate {
  roundTrips: ReplayStatement[][];
  /** The recorded create's own ids (made per request), to be replaced by fresh ones. */
  ids: string[];
  /** The recorded create's idempotency key, to be replaced by the request's. */
  key: string;
}

/**
 * The template of one create, from the recorded statements of sequential creates: the last two
 * database transactions (BEGIN … COMMIT) with the same statements; what differs between them is
 * what each request makes anew (ids, the key, timestamps), everything else (tenant, wallet,
 * asset, amounts) is sent as recorded. Throws when the recording has no such pair or the two
 * differ in a way this does not replace (the replay would not be the create's work).
 */
export function replayTemplate(recorded: RecordedStatement[]): ReplayTemplate {
  const transactions: RecordedStatement[][] = [];
  let open: RecordedStatement[] | undefined;
  for (const statement of recorded) {
    if (/^\s*begin\b/i.test(statement.text)) open = [];
    if (!open) continue;
    open.push(statement);
    if (/^\s*commit\b/i.test(statement.text)) {
      transactions.push(open);
      open = undefined;
    }
  }
  const same = (a: RecordedStatement[], b: RecordedStatement[]) => a.length === b.length && a.every((s, i) => s.text === b[i]!.text);
  const last = transactions.at(-1);
  const before = transactions.at(-2);
  if (!last || !before || !same(last, before)) throw new Error("the recording holds no two creates with the same statements");

  // The ids this create made: UUIDs in its values that the other create's values do not hold.
  const uuidsOf = (statements: RecordedStatement[]) => new Set(JSON.stringify(statements.map((s) => s.values)).match(UUID) ?? []);
  const otherIds = uuidsOf(before);
  const lastIds = uuidsOf(last);
  const ids = [...lastIds].filter((id) => !otherIds.has(id));
  const key = keyOf(last);
  const keyBefore = keyOf(before);
  const template = (statements: RecordedStatement[], own: string[], ownKey: string) =>
    statements.map((s) => normalize(JSON.stringify(s.values), own, ownKey));
  // Both creates, tokens replaced by placeholders, must then be identical: nothing else differs per request.
  const otherOwn = [...otherIds].filter((id) => !lastIds.has(id));
  const a = template(last, ids, key);
  const b = template(before, otherOwn, keyBefore);
  const differing = a.findIndex((values, i) => values !== b[i]);
  if (differing >= 0) throw new Error(`the two recorded creates differ beyond ids, key and time in: ${last[differing]!.text.slice(0, 80)}`);

  const roundTrips: ReplayStatement[][] = [];
  for (const statement of last) {
    const replay: ReplayStatement = {
      text: statement.text,
      ...(statement.name ? { name: statement.name } : {}),
      valuesJson: JSON.stringify(statement.values),
    };
    if (statement.shared && roundTrips.length > 0) roundTrips.at(-1)!.push(replay);
    else roundTrips.push([replay]);
  }
  return { roundTrips, ids, key };
}

/** The idempotency key of a recorded create (createOnce's `count-<16 hex>`), wherever its statements send it. */
function keyOf(statements: RecordedStatement[]): string {
  const key = JSON.stringify(statements.map((s) => s.values)).match(/count-[0-9a-f]{16}/)?.[0];
  if (!key) throw new Error("the recorded create sends no idempotency key");
  return key;
}

function normalize(json: string, ids: string[], key: string): string {
  let text = json.split(key).join("<key>").replace(ISO_TIME, "<time>");
  ids.forEach((id, i) => (text = text.split(id).join(`<id${i}>`)));
  return text;
}

/** The values of one request: fresh ids, its key, the time now. */
function valuesFor(template: ReplayTemplate, statement: ReplayStatement, fresh: string[], key: string, now: string): unknown[] {
  let text = statement.valuesJson.split(template.key).join(key).replace(ISO_TIME, now);
  template.ids.forEach((id, i) => (text = text.split(id).join(fresh[i]!)));
  return JSON.parse(text) as unknown[];
}

/**
 * The replay server, in its own process like the others: per request, on one pooled connection
 * (pipeline mode, as the web's), each recorded round trip's statements written together and
 * awaited together, then the next; 201 once COMMIT is answered COMMIT.
 */
export async function runReplayServer(): Promise<void> {
  const [url, port, certB64, keyB64, templateFile] = process.argv.slice(2).filter((arg) => !arg.startsWith("--"));
  const template = JSON.parse(readFileSync(templateFile!, "utf8")) as ReplayTemplate;
  const { pool } = createDatabase({ url: url!, poolMax: POOL_MAX, applicationName: "qc-bench-bare-replay" });

  const create = async (key: string): Promise<string> => {
    const fresh = template.ids.map(() => newRowId());
    const now = new Date().toISOString();
    const client = await pool.connect();
    let broken: Error | undefined;
    try {
      let committed = false;
      for (const roundTrip of template.roundTrips) {
        const results = await Promise.all(
          roundTrip.map((statement) =>
            client.query({
              text: statement.text,
              ...(statement.name ? { name: statement.name } : {}),
              values: valuesFor(template, statement, fresh, key, now),
            }),
          ),
        );
        committed = results.at(-1)?.command === "COMMIT";
      }
      if (!committed) throw new Error("COMMIT was not answered COMMIT");
      return JSON.stringify({ id: fresh[0] });
    } catch (error) {
      broken = error as Error;
      await client.query("rollback").catch(() => undefined);
      throw error;
    } finally {
      client.release(broken);
    }
  };

  const server = createServer({ cert: Buffer.from(certB64!, "base64"), key: Buffer.from(keyB64!, "base64") }, (req, res) => {
    req.resume();
    req.on("end", () => {
      const key = req.headers["x-idempotency-key"];
      if (typeof key !== "string") return void res.writeHead(400).end();
      create(key)
        .then((answer) =>
          res.writeHead(201, { "content-type": "application/json", "content-length": Buffer.byteLength(answer) }).end(answer),
        )
        .catch((error: unknown) => {
          process.stderr.write(`replay failed: ${String(error)}\n`);
          res.writeHead(500).end();
        });
    });
  });
  server.listen(Number(port), "127.0.0.1", () => process.stdout.write("ready\n"));
}
