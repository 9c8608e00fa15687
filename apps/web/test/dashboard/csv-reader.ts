import { expect } from "vitest";

/**
 * RFC 4180 read back, independently of the dashboard's writer: the fields of each record, quotes
 * undone. Expects every record to end with CRLF.
 */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let fields: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      fields.push(field);
      field = "";
    } else if (c === "\r" && text[i + 1] === "\n") {
      fields.push(field);
      records.push(fields);
      fields = [];
      field = "";
      i++;
    } else field += c;
  }
  expect(field + fields.join(""), "the document ends with CRLF").toBe("");
  return records;
}

/** The records as objects keyed by the header's names. */
export function csvObjects(text: string): Record<string, string>[] {
  const [header, ...records] = parseCsv(text);
  return records.map((record) => {
    expect(record).toHaveLength(header!.length);
    return Object.fromEntries(header!.map((name, i) => [name, record[i]!]));
  });
}
