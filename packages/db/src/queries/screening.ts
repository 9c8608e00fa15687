import { and, asc, eq, sql } from "drizzle-orm";
import type { Executor } from "../client";
import { preparedRead } from "./prepared";
import { screeningDenylistEntries } from "../schema/transfers";

export interface ScreeningDenylistEntryValue {
  /** Canonical form: lower-case 0x + 40 hex. */
  address: string;
  label: string;
}

/** The tenant's screening denylist in its order; `lock` holds the rows until the transaction ends. */
export async function listScreeningDenylistEntries(db: Executor, params: { tenantId: string; lock?: "update" }): Promise<ScreeningDenylistEntryValue[]> {
  const query = db
    .select({ address: screeningDenylistEntries.address, label: screeningDenylistEntries.label })
    .from(screeningDenylistEntries)
    .where(eq(screeningDenylistEntries.tenantId, params.tenantId))
    .orderBy(asc(screeningDenylistEntries.position));
  return params.lock ? query.for(params.lock) : query;
}

/** Replaces the tenant's whole denylist with `entries` (canonical, distinct), in that order. */
export async function replaceScreeningDenylistEntries(db: Executor, params: { tenantId: string; entries: ScreeningDenylistEntryValue[] }): Promise<void> {
  await db.delete(screeningDenylistEntries).where(eq(screeningDenylistEntries.tenantId, params.tenantId));
  if (params.entries.length === 0) return;
  await db
    .insert(screeningDenylistEntries)
    .values(params.entries.map((e, position) => ({ tenantId: params.tenantId, address: e.address, label: e.label, position })));
}

/** The entries of the tenant's denylist among `addresses` (canonical form). */
export async function findScreeningDenylistMatches(db: Executor, params: { tenantId: string; addresses: string[] }): Promise<ScreeningDenylistEntryValue[]> {
  if (params.addresses.length === 0) return [];
  // Every transfer's screening asks it: a prepared read (./prepared), the addresses as one array
  // parameter so that one text serves any number of them.
  return preparedRead(db, "qc_find_screening_denylist_matches", (executor) =>
    executor
      .select({ address: screeningDenylistEntries.address, label: screeningDenylistEntries.label })
      .from(screeningDenylistEntries)
      .where(and(eq(screeningDenylistEntries.tenantId, sql.placeholder("tenantId")), sql`${screeningDenylistEntries.address} = any(${sql.placeholder("addresses")}::text[])`))
      .prepare("qc_find_screening_denylist_matches"),
  ).execute({ tenantId: params.tenantId, addresses: params.addresses });
}
