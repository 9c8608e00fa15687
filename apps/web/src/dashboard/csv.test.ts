import { describe, expect, it } from "vitest";
import { parseCsv } from "../../test/dashboard/csv-reader";
import { csvDocument, csvField, csvRecord } from "./csv";

describe("CSV (RFC 4180)", () => {
  it("leaves plain fields alone and quotes those with a comma, a quote, CR or LF, doubling quotes", () => {
    expect(csvField("abc")).toBe("abc");
    expect(csvField("1.5")).toBe("1.5");
    expect(csvField("")).toBe("");
    expect(csvField(null)).toBe("");
    expect(csvField("a,b")).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField("two\nlines")).toBe('"two\nlines"');
    expect(csvField("cr\rhere")).toBe('"cr\rhere"');
    expect(csvRecord(["a", "b,c", null])).toBe('a,"b,c",');
  });

  it("neutralises what a spreadsheet would run as a formula with a leading apostrophe", () => {
    expect(csvField('=HYPERLINK("http://x")')).toBe('"\'=HYPERLINK(""http://x"")"');
    expect(csvField("+1")).toBe("'+1");
    expect(csvField("-1")).toBe("'-1");
    expect(csvField("@SUM(A1:A2)")).toBe("'@SUM(A1:A2)");
    expect(csvField("\tcmd")).toBe("'\tcmd");
    expect(csvField("\r=1")).toBe('"\'\r=1"');
    // Only at the start: a formula character inside a field is text already.
    expect(csvField("a=b")).toBe("a=b");
    expect(csvField("0x5b38da6a701c568545dcfcb03fcb875f56beddc4")).toBe("0x5b38da6a701c568545dcfcb03fcb875f56beddc4");
  });

  it("writes a header and records, each ending with CRLF, that read back to the same fields", () => {
    const rows = [
      ["1", "plain", "with,comma"],
      ["2", 'with "quotes"', "multi\r\nline"],
      ["3", "=1+2", ""],
    ];
    const text = csvDocument(["n", "a", "b"], rows);
    expect(text.endsWith("\r\n")).toBe(true);
    expect(parseCsv(text)).toEqual([["n", "a", "b"], rows[0], rows[1], ["3", "'=1+2", ""]]);
    expect(csvDocument(["only"], [])).toBe("only\r\n");
  });
});
