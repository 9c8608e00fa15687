import { Column, getTableColumns, is, sql, SQL, type Table } from "drizzle-orm";

/**
 * Column lists, casts and defaults for the statements written in SQL (./define-query
 * `defineStatement`, the batch insert): all taken from the drizzle table definitions, so a new
 * column is added to the schema and nowhere else.
 */

type ColumnKey<T extends Table> = keyof T["_"]["columns"] & string;

const tableColumns = new WeakMap<Table, [string, Column][]>();
function columnsOf(table: Table): [string, Column][] {
  let columns = tableColumns.get(table);
  if (!columns) tableColumns.set(table, (columns = Object.entries(getTableColumns(table))));
  return columns;
}

/** The column's SQL type as a cast (`::uuid`, `::jsonb`, `::transaction_status`, …). */
function castTo(column: Column): SQL {
  return sql.raw(`::${column.getSQLType()}`);
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
      columns.map(([key]) => sql.placeholder(`${prefix}${key}`)),
      sql`, `,
    ),
  };
}

/**
 * `insert into <table> (<columns>) select <values>`: the columns of `values`, in the table's
 * order, each written as its SQL. For an insert that selects from a CTE (the caller appends
 * `from …`); the columns left out take their database defaults.
 */
export function insertSelect<T extends Table>(table: T, values: Partial<Record<ColumnKey<T>, SQL>>): SQL {
  const given = columnsOf(table).filter(([key]) => (values as Record<string, SQL | undefined>)[key] !== undefined);
  return sql`insert into ${table} (${sql.join(
    given.map(([, column]) => sql.identifier(column.name)),
    sql`, `,
  )}) select ${sql.join(
    given.map(([key]) => (values as Record<string, SQL>)[key]!),
    sql`, `,
  )}`;
}

/** `insertSelect`'s values for `keys`: the placeholder `<prefix><key>`, cast to the column's type. */
export function placeholdersFor<T extends Table>(
  table: T,
  prefix: string,
  keys: readonly ColumnKey<T>[],
): Partial<Record<ColumnKey<T>, SQL>> {
  const columns = getTableColumns(table) as Record<string, Column>;
  return Object.fromEntries(keys.map((key) => [key, sql`${sql.placeholder(`${prefix}${key}`)}${castTo(columns[key]!)}`])) as Partial<
    Record<ColumnKey<T>, SQL>
  >;
}

/**
 * A row's values for the placeholders of `insertColumns` (every column) or `placeholdersFor`
 * (`keys`), encoded as drizzle encodes them (dates, JSON, …); null stays SQL NULL. A value left
 * out takes the column's `$defaultFn`; a column with only a database default must be given (the
 * statement names it), so leaving it out is an error, not a silent NULL (`completeRow` fills them).
 */
export function rowValues(table: Table, row: object, prefix = "", keys?: readonly string[]): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [key, column, placeholder] of placeholderColumns(table, prefix, keys)) {
    let value = (row as Record<string, unknown>)[key];
    if (value === undefined && column.defaultFn) value = column.defaultFn();
    if (value === undefined && column.hasDefault) throw new Error(`no value for ${column.name}: a prepared insert names every column`);
    values[placeholder] = value === null || value === undefined ? null : column.mapToDriverValue(value);
  }
  return values;
}

/**
 * `rowValues`' columns for a table, prefix and key list, worked out once (every create runs
 * `rowValues` three times; the key lists are module constants, so they key the cache by identity).
 */
type PlaceholderColumn = [key: string, column: Column, placeholder: string];
const placeholderPlans = new WeakMap<Table, Map<string, Map<readonly string[] | undefined, PlaceholderColumn[]>>>();
function placeholderColumns(table: Table, prefix: string, keys: readonly string[] | undefined): PlaceholderColumn[] {
  let byPrefix = placeholderPlans.get(table);
  if (!byPrefix) placeholderPlans.set(table, (byPrefix = new Map()));
  let byKeys = byPrefix.get(prefix);
  if (!byKeys) byPrefix.set(prefix, (byKeys = new Map()));
  let plan = byKeys.get(keys);
  if (!plan) {
    plan = columnsOf(table)
      .filter(([key]) => !keys || keys.includes(key))
      .map(([key, column]): PlaceholderColumn => [key, column, `${prefix}${key}`]);
    byKeys.set(keys, plan);
  }
  return plan;
}

/**
 * The complete row an insert of `values` stores, from the column definitions: a value given is
 * kept; otherwise the column's `$defaultFn`, its literal default, `now` for a timestamp that
 * defaults to now(), or null. So a caller can build the row it inserts (every column named)
 * without restating the table's defaults. A default in SQL of any other kind throws: add it here.
 */
export function completeRow<T extends Table>(table: T, values: T["$inferInsert"], now: Date): T["$inferSelect"] {
  const row: Record<string, unknown> = {};
  for (const [key, defaultOf] of defaultsOf(table)) {
    const value = (values as Record<string, unknown>)[key];
    row[key] = value !== undefined ? value : defaultOf(now);
  }
  return row as T["$inferSelect"];
}

/** Each column's default as `completeRow` takes it, worked out once per table from its definition. */
type DefaultOf = (now: Date) => unknown;
const tableDefaults = new WeakMap<Table, [string, DefaultOf][]>();
function defaultsOf(table: Table): [string, DefaultOf][] {
  let defaults = tableDefaults.get(table);
  if (!defaults) tableDefaults.set(table, (defaults = columnsOf(table).map(([key, column]) => [key, defaultFor(column)])));
  return defaults;
}

function defaultFor(column: Column): DefaultOf {
  const { defaultFn } = column;
  if (defaultFn) return () => defaultFn();
  if (!column.hasDefault || column.default === undefined) return () => null;
  const literal: unknown = column.default;
  if (!is(literal, SQL)) return () => literal;
  if (
    column.columnType === "PgTimestamp" &&
    literal.queryChunks.some((chunk) => String((chunk as { value?: unknown }).value ?? "").includes("now()"))
  )
    return (now) => now;
  return () => {
    throw new Error(`completeRow: ${column.name}'s default is SQL it cannot evaluate`);
  };
}

/**
 * Many rows of `table` in one statement with one parameter, a JSON array read by
 * `jsonb_to_recordset` (its record type and the insert's column list from the table's columns):
 * for batches where a statement of thousands of parameters costs the web process more CPU than
 * PostgreSQL spends on the insert. A value left out takes the column's `$defaultFn`; a NOT NULL
 * column with a database default takes that default (`coalesce`), as drizzle's insert sends
 * `default` for it.
 */
export function recordsetInsert(table: Table, rows: readonly Record<string, unknown>[]): SQL {
  const columns = columnsOf(table).filter(
    ([, column]) => !(column.columnType === "PgBigSerial64" || column.columnType === "PgBigSerial53" || column.columnType === "PgSerial"),
  );
  const records = rows.map((row) => {
    const record: Record<string, unknown> = {};
    for (const [key, column] of columns) {
      let value = row[key];
      if (value === undefined && column.defaultFn) value = column.defaultFn();
      const json = column.getSQLType() === "jsonb" || column.getSQLType() === "json";
      record[column.name] = value === null || value === undefined ? null : json ? value : column.mapToDriverValue(value);
    }
    return record;
  });
  const names = sql.join(
    columns.map(([, column]) => sql.identifier(column.name)),
    sql`, `,
  );
  const selected = sql.join(
    columns.map(([, column]) => {
      const read = sql`r.${sql.identifier(column.name)}`;
      if (!column.notNull || !column.hasDefault || column.defaultFn || column.default === undefined) return read;
      return sql`coalesce(${read}, ${is(column.default, SQL) ? column.default : sql`${column.default}${castTo(column)}`})`;
    }),
    sql`, `,
  );
  const recordType = sql.join(
    columns.map(([, column]) => sql`${sql.identifier(column.name)} ${sql.raw(column.getSQLType())}`),
    sql`, `,
  );
  return sql`insert into ${table} (${names}) select ${selected} from jsonb_to_recordset(${JSON.stringify(records)}::jsonb) as r(${recordType})`;
}
