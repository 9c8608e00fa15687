import { describe, expect, it } from "vitest";
import { multilineText, text } from "./common";

describe("the string rule", () => {
  const line = text().trim().min(1).max(20);
  const free = multilineText().max(20);

  it.each([
    ["NUL", "a\u0000b"],
    ["an unpaired high surrogate", "a\ud800"],
    ["an unpaired low surrogate", "\udc00a"],
    ["a reversed pair", "\udc00\ud800"],
    ["escape", "a\u001b[31m"],
    ["DEL", "a\u007f"],
  ])("refuses %s everywhere", (_name, value) => {
    expect(line.safeParse(value).success).toBe(false);
    expect(free.safeParse(value).success).toBe(false);
  });

  it("takes tab and line breaks in multi-line text only", () => {
    for (const value of ["a\tb", "a\nb", "a\r\nb"]) {
      expect(line.safeParse(value).success, JSON.stringify(value)).toBe(false);
      expect(free.safeParse(value).data, JSON.stringify(value)).toBe(value);
    }
  });

  it("takes any well-formed text, astral characters and U+2028 included, then applies the rest of the chain", () => {
    for (const value of ["Trésorerie", "金库", "vault 😀", "a\u2028b", "\u00a0x"]) expect(line.safeParse(value).data).toBe(value.trim());
    expect(line.safeParse("  padded  ").data).toBe("padded");
    expect(line.safeParse("x".repeat(21)).success).toBe(false);
  });

  it("names the broken rule in the message", () => {
    expect(line.safeParse("a\u0000").error?.issues.map((i) => i.message)).toEqual([
      "must not contain control characters (U+0000–U+001F, U+007F)",
    ]);
    expect(line.safeParse("a\ud800").error?.issues.map((i) => i.message)).toEqual(["must be well-formed Unicode (no unpaired surrogate)"]);
  });
});
