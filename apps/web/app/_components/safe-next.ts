/**
 * Where to go after login: `value` only when it is a page of this site, as a path (`/x?y#z`),
 * otherwise `fallback`. The value is resolved the way the browser will resolve it (WHATWG URL,
 * which drops tabs and newlines and reads `\` as `/`), so `//evil.example`, `/%09/evil.example`
 * once decoded, `/\evil.example` and `https://evil.example` all land on `fallback`.
 */
export function safeNext(value: string | null, fallback: string, origin: string = window.location.origin): string {
  if (!value || !value.startsWith("/")) return fallback;
  let url: URL;
  try {
    url = new URL(value, origin);
  } catch {
    return fallback;
  }
  if (url.origin !== new URL(origin).origin) return fallback;
  return `${url.pathname}${url.search}${url.hash}`;
}
