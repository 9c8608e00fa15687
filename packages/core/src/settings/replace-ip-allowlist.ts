import { asc, eq, schema, type Database } from "@qc/db";
import { recordAuditEvent } from "../audit/record-audit-event";
import { announceAuthChange } from "../auth/authenticator";
import { ipAllowed, parseCidr } from "../auth/ip-allowlist";
import type { Principal } from "../auth/authenticator";
import { AppError } from "../errors";

export interface AllowlistEntry {
  cidr: string;
  label: string;
}

export async function getIpAllowlist(db: Database, tenantId: string): Promise<AllowlistEntry[]> {
  const rows = await db
    .select({ cidr: schema.ipAllowlistEntries.cidr, label: schema.ipAllowlistEntries.label })
    .from(schema.ipAllowlistEntries)
    .where(eq(schema.ipAllowlistEntries.tenantId, tenantId))
    .orderBy(asc(schema.ipAllowlistEntries.position));
  return rows;
}

/**
 * Replaces the tenant's allowlist (an empty list allows every address). Entries are
 * normalised (`10.0.0.7` → `10.0.0.7/32`, host bits must be zero). A list that would shut out
 * the API key making the change is refused unless the caller says `allowSelfLockout`.
 * Dashboard sessions are not subject to the allowlist (it restricts API keys), so they can
 * always repair it.
 */
export async function replaceIpAllowlist(
  deps: { db: Database },
  input: { principal: Principal; callerIp: string; entries: AllowlistEntry[]; allowSelfLockout?: boolean; requestId?: string },
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
  if (input.principal.kind === "api_key" && !input.allowSelfLockout && !ipAllowed(input.callerIp, entries.map((e) => e.cidr))) {
    throw new AppError("CONFLICT", `this list would lock out the calling key (address ${input.callerIp}); send "allowSelfLockout": true to apply it anyway`, {
      details: { callerIp: input.callerIp },
    });
  }
  return deps.db.transaction(async (tx) => {
    const before = await tx
      .select({ cidr: schema.ipAllowlistEntries.cidr })
      .from(schema.ipAllowlistEntries)
      .where(eq(schema.ipAllowlistEntries.tenantId, input.principal.tenantId))
      .for("update");
    await tx.delete(schema.ipAllowlistEntries).where(eq(schema.ipAllowlistEntries.tenantId, input.principal.tenantId));
    if (entries.length) {
      await tx.insert(schema.ipAllowlistEntries).values(entries.map((e, position) => ({ tenantId: input.principal.tenantId, cidr: e.cidr, label: e.label, position })));
    }
    await recordAuditEvent(tx, {
      action: "settings.ip_allowlist_replaced",
      actorType: input.principal.kind === "api_key" ? "api_key" : "user",
      actorId: input.principal.keyId ?? input.principal.userId ?? null,
      tenantId: input.principal.tenantId,
      requestId: input.requestId,
      ip: input.callerIp,
      details: { before: before.map((r) => r.cidr), after: entries.map((e) => e.cidr), allowSelfLockout: input.allowSelfLockout ?? false },
    });
    await announceAuthChange(tx, `tenant:${input.principal.tenantId}`);
    return entries;
  });
}
