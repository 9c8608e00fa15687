/** Every scope an API key can carry (CONTRACT §3, plus `signer`: docs/decisions/access-control.md). */
export const SCOPES = ["read", "write", "admin", "signer"] as const;
export type Scope = (typeof SCOPES)[number];

/**
 * What each scope grants. `read` ⊂ `write` ⊂ `admin` as CONTRACT §3 orders them. `signer` is
 * beside them, not above: it grants the signer's own routes (enrolling pool keys, registering
 * wallets, the signing queue, signatures and rejections) plus `read`, which is every other call
 * the reference signer makes, and nothing `write` or `admin` grants. Neither `write` nor `admin`
 * implies it: an integration key that leaks cannot plant keys in the pool `wallets/generate`
 * draws from, nor sign (security review H2).
 */
const GRANTS: Record<Scope, readonly Scope[]> = {
  read: ["read"],
  write: ["read", "write"],
  admin: ["read", "write", "admin"],
  signer: ["read", "signer"],
};

/** Whether a key with `granted` may call a route that needs `required`; no scopes is full access, `signer` included. */
export function hasScope(granted: readonly Scope[], required: Scope): boolean {
  if (granted.length === 0) return true;
  return granted.some((scope) => GRANTS[scope].includes(required));
}
