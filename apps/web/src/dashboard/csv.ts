/**
 * CSV as RFC 4180 writes it: fields separated by commas, records by CRLF, a field quoted when it
 * holds a comma, a double quote, CR or LF (its quotes doubled).
 *
 * A spreadsheet reads a cell that starts with `=`, `+`, `-`, `@`, tab or CR as a formula, so text
 * that came from outside (a note, a reference, a label) could run one when the file is opened
 * (OWASP "CSV injection"). Such a cell is written with a leading `'`, which the spreadsheet shows
 * as text. Numbers the dashboard writes itself never start with one of those characters (amounts
 * are unsigned), so no value of ours is altered.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One field: neutralised if a spreadsheet would read it as a formula, then quoted if it must be. */
export function csvField(value: string | null | undefined): string {
  let text = value ?? "";
  if (FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One record, without its line break. */
export function csvRecord(fields: readonly (string | null | undefined)[]): string {
  return fields.map(csvField).join(",");
}

/** A whole file: the header record, then one record per row, each ending with CRLF. */
export function csvDocument(header: readonly string[], rows: readonly (readonly (string | null | undefined)[])[]): string {
  return [header, ...rows].map((fields) => `${csvRecord(fields)}\r\n`).join("");
}
