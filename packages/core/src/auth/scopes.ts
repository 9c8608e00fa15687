export type Scope = "read" | "write" | "admin";

const RANK: Record<Scope, number> = { read: 1, write: 2, admin: 3 };

/** CONTRACT §3: ordered scopes, read ⊂ write ⊂ admin; a key with no scopes has full access. */
export function hasScope(granted: readonly Scope[], required: Scope): boolean {
  if (granted.length === 0) return true;
  return Math.max(...granted.map((s) => RANK[s])) >= RANK[required];
}
