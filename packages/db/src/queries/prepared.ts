import { is } from "drizzle-orm";
import { PgTransaction } from "drizzle-orm/pg-core";
import type { Executor } from "../client";

/**
 * The hot read queries of the request path (docs/performance.md) as named prepared statements:
 * drizzle builds each one's SQL once per database handle instead of on every call (about two
 * thirds of a small query's CPU), and PostgreSQL parses and plans it once per connection. Both
 * drivers pass the name to the server (node-postgres and Neon's pg-compatible Pool, whose pooler
 * supports protocol-level prepared statements); each connection parses a statement the first time
 * it runs it, so a new or replaced connection needs nothing special.
 *
 * Queries are cached per database handle, which lives as long as the process. An open
 * transaction runs on its own connection and ends soon: it gets the statement built for it, under
 * the same name, and nothing is cached for it.
 */
const cache = new WeakMap<Executor, Map<string, unknown>>();

export function preparedQuery<Q>(db: Executor, name: string, build: (db: Executor) => Q): Q {
  if (is(db, PgTransaction)) return build(db);
  let queries = cache.get(db);
  if (!queries) cache.set(db, (queries = new Map()));
  let query = queries.get(name) as Q | undefined;
  if (query === undefined) queries.set(name, (query = build(db)));
  return query;
}
