import { listIpAllowlistEntries, replaceIpAllowlistEntries } from "@qc/db/queries";
import { auditAction, type Actor } from "../audit/actor";
import { announceAuthChange, type AuthChangeDeps } from "../auth/authenticator";
import { ipAllowed, parseCidr } from "../auth/ip-allowlist";
import type { ServiceDeps } from "../deps/service-deps";
import { AppError } from "../errors";
import type { AllowlistEntry } from "./get-ip-allowlist";

/**
 * Replaces the tenant's allowlist (an empty list allows every address). Entries are
 * normalised (`10.0.0.7` → `10.0.0.7/32`, host bits must be zero). A list that would shut out
 * the caller making the change, API key or dashboard session alike (both are held to the list),
 * is refused unless the caller says `allowSelfLockout`: a tenant that locked its own sessions
 * out would have no way left to repair the list.
 */
export async function replaceIpAllowlist(
  deps: Pick<ServiceDeps, "db" | "now"> & AuthChangeDeps,
  input: { tenantId: string; actor: Actor; callerIp: string; entries: AllowlistEntry[]; allowSelfLockout?: boolean },
): Promise<AllowlistEntry[]> {
  const fields: { path: string; message: string }[] = [];
  const entries = input.entries.map((entry, index) => {
    const parsed = parseCidr(entry.cidr.trim());
    if (!parsed) {
      fields.push({ path: `entries.${index}.cidr`, message: "not an IPv4/IPv6 address or CIDR range" });
      return entry;
    }
    const [address, bits] = parsed;
    return { cidr: `${address.toString()}/${bits}`, label: entry.label };
  });
  if (fields.length) throw new AppError("VALIDATION_FAILED", "invalid allowlist entries", { details: { fields } });
  const seen = new Set<string>();
  for (const [index, entry] of entries.entries()) {
    if (seen.has(entry.cidr)) fields.push({ path: `entries.${index}.cidr`, message: "duplicate entry" });
    seen.add(entry.cidr);
  }
  if (fields.length) throw new AppError("VALIDATION_FAILED", "invalid allowlist entries", { details: { fields } });
  const heldToList = input.actor.type === "api_key" || input.actor.type === "user";
  if (
    heldToList &&
    !input.allowSelfLockout &&
    !ipAllowed(
      input.callerIp,
      entries.map((e) => e.cidr),
    )
  ) {
    throw new AppError(
      "CONFLICT",
      `this list would lock out the caller (address ${input.callerIp}); send "allowSelfLockout": true to apply it anyway`,
      {
        details: { callerIp: input.callerIp },
      },
    );
  }
  return deps.db.transaction(async (tx) => {
    const before = await listIpAllowlistEntries(tx, { tenantId: input.tenantId, lock: "update" });
    await replaceIpAllowlistEntries(tx, { tenantId: input.tenantId, entries, createdAt: deps.now() });
    await auditAction(tx, input.actor, {
      tenantId: input.tenantId,
      action: "settings.ip_allowlist_replaced",
      details: { before: before.map((r) => r.cidr), after: entries.map((e) => e.cidr), allowSelfLockout: input.allowSelfLockout ?? false },
    });
    await announceAuthChange(tx, `tenant:${input.tenantId}`, deps.authenticator);
    return entries;
  });
}
