import { AppError } from "@qc/core";

const MESSAGE = "the key `__proto__` is not accepted in a JSON body";

/**
 * A JSON body (or tRPC `?input=`) with a `__proto__` key anywhere is refused: 400
 * VALIDATION_FAILED naming its path in the body as sent (`metadata.__proto__`). JSON.parse makes
 * such a key an ordinary own property, but zod's records skip it without a word (it would replace
 * the prototype of the object they build), so a vault's metadata `{"__proto__": "x"}` was
 * answered 201 without the key, and its value never checked. No request of the contract has such
 * a key. Run after the depth limit (so the walk recurses at most 64 levels) and after the
 * key-material guard (so key material is audited first).
 */
export function rejectPrototypeKeys(body: unknown): void {
  const path = prototypeKeyPath(body, []);
  if (path === null) return;
  throw new AppError("VALIDATION_FAILED", MESSAGE, { details: { fields: [{ path: path.join("."), message: MESSAGE }] } });
}

/** The path to the first `__proto__` key in document order, or null when there is none. */
function prototypeKeyPath(value: unknown, path: string[]): string[] | null {
  if (value === null || typeof value !== "object") return null;
  if (!Array.isArray(value) && Object.hasOwn(value, "__proto__")) return [...path, "__proto__"];
  for (const [key, child] of Object.entries(value)) {
    path.push(key);
    const found = prototypeKeyPath(child, path);
    path.pop();
    if (found) return found;
  }
  return null;
}
