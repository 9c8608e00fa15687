import { createHash } from "node:crypto";
import { Column, fillPlaceholders, getTableColumns, getTableName, is, sql, SQL, type Table } from "drizzle-orm";
import { PgDialect, PgTransaction } from "drizzle-orm/pg-core";
import { driverConnection, pipelinedReadHandle, type Database, type Executor } from "../client";
import type { BuiltStatement } from "../pipelined-transaction";

/**
 * The hot queries of the request path (docs/performance/database.md) as named prepared statements:
 * drizzle builds each one's SQL once per connection owner instead of on every call (most of a
 * small query's CPU in the web process), and PostgreSQL parses and plans it once per connection.
 * Both drivers pass the name to the server (node-postgres and Neon's pg-compatible Pool, whose
 * pooler supports protocol-level prepared statements); each connection parses a statement the
 * first time it runs it, so a new or replaced connection needs nothing special.
 *
 * A built query is bound to what it runs on, so it is cached per owner: the database handle
 * (its pool, for the life of the process) or, inside a transaction, the pooled connection the
 * transaction holds. A pooled connection outlives its transactions, so the next transaction on
 * it finds the query built; it only ever runs on that connection, inside whichever transaction
 * holds it then. A connection the pool drops is forgotten with it (weak keys). A transaction
 * whose connection cannot be seen (an unknown driver) builds the query for itself, as drizzle
 * always does.
 */
const cache = new WeakMap<object, Map<string, unknown>>();

export function preparedQuery<Q>(db: Executor, name: string, build: (db: Executor) => Q): Q {
  const owner = is(db, PgTransaction) ? driverConnection(db) : db;
  if (owner === undefined) return build(db);
  let queries = cache.get(owner);
  if (!queries) cache.set(owner, (queries = new Map()));
  let query = queries.get(name) as Q | undefined;
  if (query === undefined) queries.set(name, (query = build(db)));
  return query;
}

/**
 * `preparedQuery` for a single read-only statement: called with the database handle (not a
 * transaction), it runs on the handle's pipelined read connections (../pipelined-reads) where
 * there are some, on the pool otherwise; inside a transaction it runs in the transaction. Only a
 * plain SELECT belongs here: nothing that writes, locks rows (FOR UPDATE/SHARE) or sets session
 * state.
 */
export function preparedRead<Q>(db: Executor, name: string, build: (db: Executor) => Q): Q {
  const reads = is(db, PgTransaction) ? undefined : pipelinedReadHandle(db as Database);
  return preparedQuery(reads ?? db, name, build);
}

const dialect = new PgDialect();
const statementTexts = new Map<string, ReturnType<PgDialect["sqlToQuery"]>>();

/**
 * A statement written in SQL (what drizzle's query builders cannot say, e.g. data-modifying
 * CTEs) as a named prepared statement: `build` returns it with `sql.placeholder(name)` for every
 * value; its text is built once per process, and it runs with the values by placeholder name.
 * Values are passed to the driver as they are (encode dates, JSON and the like first). Rows come
 * back as the driver returns them, by column name, timestamps as text.
 */
export function preparedStatement<Row extends Record<string, unknown>>(
  db: Executor,
  name: string,
  build: () => SQL,
): { execute(values: Record<string, unknown>): Promise<{ rows: Row[] }> } {
  return preparedQuery(db, name, (executor) => executor._.session.prepareQuery(statementText(name, build), undefined, name, false) as unknown as { execute(values: Record<string, unknown>): Promise<{ rows: Row[] }> });
}

/**
 * The `preparedStatement` of that name, with these values, as a statement to hand to the driver
 * itself (e.g. `pipelinedTransaction`'s last statement, sent with COMMIT). Same text, same name:
 * a connection that parsed it for one parses it for both.
 */
export function builtStatement(name: string, build: () => SQL, values: Record<string, unknown>): BuiltStatement {
  const query = statementText(name, build);
  return { name, text: query.sql, values: fillPlaceholders(query.params, values) };
}

function statementText(name: string, build: () => SQL): ReturnType<PgDialect["sqlToQuery"]> {
  let query = statementTexts.get(name);
  if (!query) statementTexts.set(name, (query = dialect.sqlToQuery(build())));
  return query;
}

/**
 * For a prepared insert of every column of `table`: the column list, and one placeholder per
 * column named `<prefix><key>`, in the table's column order (see `rowValues`).
 */
export function insertColumns(table: Table, prefix = ""): { names: SQL; placeholders: SQL } {
  const columns = columnsOf(table);
  return {
    names: sql.join(
      columns.map(([, column]) => sql.identifier(column.name)),
      sql`, `,
    ),
    placeholders: sql.join(
      placeholderColumns(table, prefix).map(([, , name]) => sql.placeholder(name)),
      sql`, `,
    ),
  };
}

const tableColumns = new WeakMap<Table, [string, Column][]>();
function columnsOf(table: Table): [string, Column][] {
  let columns = tableColumns.get(table);
  if (!columns) tableColumns.set(table, (columns = Object.entries(getTableColumns(table))));
  return columns;
}

/**
 * A row's values for `insertColumns`' placeholders, encoded as drizzle encodes them (dates,
 * JSON, …); null stays SQL NULL. A value left out takes the column's `$defaultFn`; a column with
 * only a database default must be given (the statement names every column), so leaving it out
 * is an error, not a silent NULL.
 */
export function rowValues(table: Table, row: Record<string, unknown>, prefix = ""): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [key, column, name] of placeholderColumns(table, prefix)) {
    let value = row[key];
    if (value === undefined && column.defaultFn) value = column.defaultFn();
    if (value === undefined && column.hasDefault) throw new Error(`no value for ${column.name}: a prepared insert names every column`);
    values[name] = value === null || value === undefined ? null : column.mapToDriverValue(value);
  }
  return values;
}

const placeholderNames = new WeakMap<Table, Map<string, [key: string, column: Column, placeholder: string][]>>();
function placeholderColumns(table: Table, prefix: string): [key: string, column: Column, placeholder: string][] {
  let byPrefix = placeholderNames.get(table);
  if (!byPrefix) placeholderNames.set(table, (byPrefix = new Map()));
  let columns = byPrefix.get(prefix);
  if (!columns) byPrefix.set(prefix, (columns = columnsOf(table).map(([key, column]) => [key, column, `${prefix}${key}`])));
  return columns;
}

/**
 * A name for a statement drizzle builds from a table and one row of values — a single-row
 * INSERT, or `updateWhereStatus`'s UPDATE — so that it can go as a named prepared statement
 * (PostgreSQL parses and plans it once per connection instead of on every call), or undefined
 * to send it unnamed. Drizzle writes every plain value as a parameter (null included), a column
 * left undefined as `default` or its `$defaultFn`'s parameter, and the columns in the table's
 * order: so the kind of statement, the table, which columns are given and `extra` (what else
 * shapes the text, e.g. the number of expected statuses) fix the text. A value that is SQL or a
 * column is written into the text: such a row goes unnamed. The name is derived from what fixes
 * the text, so a connection never meets one name with two texts. The shapes come from the code
 * (a few dozen); past `MAX_SHAPE_STATEMENTS` in a process, further ones go unnamed.
 */
const MAX_SHAPE_STATEMENTS = 200;
const shapeStatementNames = new Map<string, string>();
export function shapeStatementName(kind: "insert" | "move", table: Table, values: Record<string, unknown>, extra = 0): string | undefined {
  const columns: string[] = [];
  for (const [column, value] of Object.entries(values)) {
    if (value === undefined) continue;
    if (is(value, SQL) || is(value, Column) || is(value, SQL.Aliased)) return undefined;
    columns.push(column);
  }
  const shape = `${kind}|${getTableName(table)}|${extra}|${columns.sort().join(",")}`;
  let name = shapeStatementNames.get(shape);
  if (name === undefined && shapeStatementNames.size < MAX_SHAPE_STATEMENTS) {
    name = `qc_${kind}_${createHash("sha256").update(shape).digest("hex").slice(0, 32)}`;
    shapeStatementNames.set(shape, name);
  }
  return name;
}
