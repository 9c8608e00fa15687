import { parseAddress } from "@qc/chain";
import { isUniqueViolation } from "@qc/db";
import { listScreeningDenylistEntries, replaceScreeningDenylistEntries, type ScreeningDenylistEntryValue } from "@qc/db/queries";
import { auditAction, type Actor } from "../audit/actor";
import type { ServiceDeps } from "../deps/service-deps";
import { AppError, type FieldError } from "../errors";

/**
 * Replaces the tenant's screening denylist as a whole (an empty list removes every entry).
 * Addresses are accepted in any input form (CONTRACT §1) and stored canonical; a duplicate is
 * 400. Audited with the entries added and removed. Applies to every screening that starts
 * after the commit: the checks, and their re-run before a waiting transfer is released or
 * broadcast once its decision is older than RECHECK_AFTER_SECONDS (`recheckTransfer`).
 */
export async function replaceScreeningDenylist(
  deps: Pick<ServiceDeps, "db">,
  input: { tenantId: string; entries: { address: string; label?: string | undefined }[]; actor: Actor },
): Promise<ScreeningDenylistEntryValue[]> {
  const fields: FieldError[] = [];
  const seen = new Set<string>();
  const entries: ScreeningDenylistEntryValue[] = [];
  input.entries.forEach((entry, index) => {
    let address: string;
    try {
      address = parseAddress(entry.address);
    } catch {
      fields.push({
        path: `entries.${index}.address`,
        message: "not an address: 40 hex digits with optional 0x; mixed case must pass EIP-55",
      });
      return;
    }
    if (seen.has(address)) fields.push({ path: `entries.${index}.address`, message: "duplicate entry" });
    seen.add(address);
    entries.push({ address, label: entry.label ?? "" });
  });
  if (fields.length) throw new AppError("VALIDATION_FAILED", "invalid denylist entries", { details: { fields } });
  try {
    return await deps.db.transaction(async (tx) => {
      const before = await listScreeningDenylistEntries(tx, { tenantId: input.tenantId, lock: "update" });
      await replaceScreeningDenylistEntries(tx, { tenantId: input.tenantId, entries });
      const previous = new Set(before.map((e) => e.address));
      await auditAction(tx, input.actor, {
        tenantId: input.tenantId,
        action: "settings.screening_denylist_replaced",
        details: {
          added: entries.filter((e) => !previous.has(e.address)).map((e) => e.address),
          removed: before.filter((e) => !seen.has(e.address)).map((e) => e.address),
          count: entries.length,
        },
      });
      return entries;
    });
  } catch (error) {
    // Two replacements of an empty list lock no row: the unique index decides.
    if (isUniqueViolation(error, "screening_denylist_tenant_address_unique"))
      throw new AppError("CONFLICT", "the denylist was replaced concurrently; read it again and retry");
    throw error;
  }
}
