import type { Scope } from "@qc/domain";

// The scopes are @qc/domain's (so the dashboard's pages can import them); what each grants is here.
export { SCOPES, type Scope } from "@qc/domain";

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
