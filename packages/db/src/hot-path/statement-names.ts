import { createHash } from "node:crypto";

/**
 * The name of a statement whose text is only known when it is sent (a drizzle insert or update
 * built from a row, pg-boss's SQL), derived from a hash of that text: one name never carries two
 * texts, which node-postgres would refuse on a connection that parsed the first. Undefined to
 * send the statement unnamed: texts come from the code (a few dozen shapes, a handful per pg-boss
 * queue), and past `MAX_NAMED_TEXTS` distinct texts in a process, further ones go unnamed, so
 * texts that embedded values could not grow the server's statements without bound.
 */
const MAX_NAMED_TEXTS = 400;
const namesByText = new Map<string, string>();
export function statementNameOfText(text: string, prefix = "qc_"): string | undefined {
  let name = namesByText.get(text);
  if (name === undefined && namesByText.size < MAX_NAMED_TEXTS) {
    name = `${prefix}${createHash("sha256").update(text).digest("hex").slice(0, 32)}`;
    namesByText.set(text, name);
  }
  return name;
}

/** A drizzle insert, update or delete built from values (no placeholders). */
export interface NamedByText<R> extends PromiseLike<R> {
  toSQL(): { sql: string };
  prepare(name: string): { execute(): Promise<R> };
}

/**
 * Runs a drizzle statement built from a row as a named prepared statement named by its text
 * (`statementNameOfText`): the other entities' status changes and single audit rows go this way, and
 * PostgreSQL then parses and plans each text once per connection instead of on every call
 * (docs/performance/database.md; docs/history/performance-journal.md, "Tenth sitting"). Drizzle writes every plain value as a parameter, so a
 * statement's text depends only on its shape.
 */
export async function executeNamedByText<R>(query: NamedByText<R>): Promise<R> {
  const name = statementNameOfText(query.toSQL().sql);
  return name ? query.prepare(name).execute() : await query;
}
