/**
 * Text from the service made safe to print: control characters (which could move the cursor
 * and overwrite the destination line a person is reading), bidirectional overrides (which
 * could reorder it) and other invisible format characters are shown as `\u{…}` escapes, and
 * overlong text is cut.
 */
export function printableText(text: string, maxLength = 200): string {
  const escaped = text.replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, (char) => `\\u{${char.codePointAt(0)!.toString(16)}}`);
  return escaped.length > maxLength ? `${escaped.slice(0, maxLength)}…` : escaped;
}
