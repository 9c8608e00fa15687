import { fillPlaceholders, is, type SQL } from "drizzle-orm";
import { PgDialect, PgTransaction } from "drizzle-orm/pg-core";
import { driverConnection, pipelinedReadHandle, type Database, type Executor } from "../client";
import type { BuiltStatement } from "./pipelined-transaction";

/**
 * The one way to define a named prepared statement (see ./index.ts for why they exist): the
 * name is written once, here, and every name lives in one registry. Definitions are made at
 * module level, so a second definition under a name already taken throws when its module is
 * imported: a copy-pasted name fails loudly instead of running the other query.
 */
const definedNames = new Set<string>();
function register(name: string): void {
  if (definedNames.has(name))
    throw new Error(`the statement name ${name} is defined twice: a named statement has one text, give this one its own name`);
  definedNames.add(name);
}

/**
 * A built query is bound to what it runs on, so it is kept per owner: the database handle (its
 * pool, for the life of the process) or, inside a transaction, the pooled connection the
 * transaction holds. A pooled connection outlives its transactions, so the next transaction on
 * it finds the query built; it only ever runs on that connection, inside whichever transaction
 * holds it then. A connection the pool drops is forgotten with it (weak keys). A transaction
 * whose connection cannot be seen (an unknown driver) builds the query for itself, as drizzle
 * always does. Keyed by the definition itself, never by its name.
 */
const built = new WeakMap<object, Map<object, unknown>>();
function builtOn<Q>(db: Executor, definition: object, build: (db: Executor) => Q): Q {
  const owner = is(db, PgTransaction) ? driverConnection(db) : db;
  if (owner === undefined) return build(db);
  let queries = built.get(owner);
  if (!queries) built.set(owner, (queries = new Map()));
  let query = queries.get(definition) as Q | undefined;
  if (query === undefined) queries.set(definition, (query = build(db)));
  return query;
}

/** A drizzle query builder that `defineQuery` prepares under its name. */
export interface Preparable<Q> {
  prepare(name: string): Q;
}

export interface DefinedQuery<Q> {
  readonly name: string;
  /** The prepared query on `db`: the database's pool, or the transaction `db` is. */
  on(db: Executor): Q;
}

/**
 * A drizzle query as a named prepared statement: `build` returns the query builder with
 * `sql.placeholder(…)` for every value (this calls its `.prepare(name)`), and the call site runs
 * `query.on(db).execute(values)`. It runs where `db` runs: on the pool, or in the transaction.
 */
export function defineQuery<Q>(name: string, build: (db: Executor) => Preparable<Q>): DefinedQuery<Q> {
  register(name);
  const definition: DefinedQuery<Q> = { name, on: (db) => builtOn(db, definition, (executor) => build(executor).prepare(name)) };
  return definition;
}

/**
 * `defineQuery` for a single read-only statement: on the database handle (not a transaction) it
 * runs on the handle's pipelined read connections (./pipelined-reads) where there are some, on
 * the pool otherwise; inside a transaction it runs in the transaction. Only a plain SELECT by key
 * belongs here: nothing that writes, locks rows (FOR UPDATE/SHARE) or sets session state.
 */
export function defineRead<Q>(name: string, build: (db: Executor) => Preparable<Q>): DefinedQuery<Q> {
  register(name);
  const definition: DefinedQuery<Q> = {
    name,
    on: (db) => {
      const reads = is(db, PgTransaction) ? undefined : pipelinedReadHandle(db as Database);
      return builtOn(reads ?? db, definition, (executor) => build(executor).prepare(name));
    },
  };
  return definition;
}

export interface DefinedStatement<Row extends Record<string, unknown>> {
  readonly name: string;
  /** The statement on `db` (pool or transaction); rows come back by column name, timestamps as text. */
  on(db: Executor): { execute(values: Record<string, unknown>): Promise<{ rows: Row[] }> };
  /** The statement with these values, to hand to the driver itself (`pipelinedTransaction`'s last statement). */
  with(values: Record<string, unknown>): BuiltStatement;
}

const dialect = new PgDialect();

/**
 * A statement written in SQL (what drizzle's query builders cannot say, e.g. data-modifying
 * CTEs) as a named prepared statement: `build` returns it with `sql.placeholder(name)` for every
 * value; its text is built once per process (on first use), and it runs with the values by
 * placeholder name. Values go to the driver as they are (encode dates and JSON first: see
 * ./columns `rowValues`).
 */
export function defineStatement<Row extends Record<string, unknown> = Record<string, unknown>>(
  name: string,
  build: () => SQL,
): DefinedStatement<Row> {
  register(name);
  let text: ReturnType<PgDialect["sqlToQuery"]> | undefined;
  const textOf = () => (text ??= dialect.sqlToQuery(build()));
  const definition: DefinedStatement<Row> = {
    name,
    on: (db) =>
      builtOn(
        db,
        definition,
        (executor) =>
          executor._.session.prepareQuery(textOf(), undefined, name, false) as unknown as {
            execute(values: Record<string, unknown>): Promise<{ rows: Row[] }>;
          },
      ),
    with: (values) => {
      const query = textOf();
      return { name, text: query.sql, values: fillPlaceholders(query.params, values) };
    },
  };
  return definition;
}
