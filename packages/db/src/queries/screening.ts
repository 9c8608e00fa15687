import { and, asc, eq, sql } from "drizzle-orm";
import type { Executor } from "../client";
import { defineRead } from "../hot-path/define-query";
import { screeningDenylistEntries } from "../schema/transfers";

export interface ScreeningDenylistEntryValue {
  /** Canonical form: lower-case 0x + 40 hex. */
  address: string;
  label: string;
}

/** The tenant's screening denylist in its order; `lock` holds the rows until the transaction ends. */
export async function listScreeningDenylistEntries(
  db: Executor,
  params: { tenantId: string; lock?: "update" },
): Promise<ScreeningDenylistEntryValue[]> {
  const query = db
    .select({ address: screeningDenylistEntries.address, label: screeningDenylistEntries.label })
    .from(screeningDenylistEntries)
    .where(eq(screeningDenylistEntries.tenantId, params.tenantId))
    .orderBy(asc(screeningDenylistEntries.position));
  return params.lock ? query.for(params.lock) : query;
}

/** Replaces the tenant's whole denylist with `entries` (canonical, distinct), in that order. */
export async function replaceScreeningDenylistEntries(
  db: Executor,
  params: { tenantId: string; entries: ScreeningDenylistEntryValue[] },
): Promise<void> {
  await db.delete(screeningDenylistEntries).where(eq(screeningDenylistEntries.tenantId, params.tenantId));
  if (params.entries.length === 0) return;
  await db
    .insert(screeningDenylistEntries)
    .values(params.entries.map((e, position) => ({ tenantId: params.tenantId, address: e.address, label: e.label, position })));
}

/** The entries of the tenant's denylist among `addresses` (canonical form). */
export async function findScreeningDenylistMatches(
  db: Executor,
  params: { tenantId: string; addresses: string[] },
): Promise<ScreeningDenylistEntryValue[]> {
  if (params.addresses.length === 0) return [];
  // Every transfer's screening asks it: a prepared read (../hot-path), the addresses as one array
  // parameter so that one text serves any number of them.
  return findScreeningDenylistMatchesRead.on(db).execute({ tenantId: params.tenantId, addresses: params.addresses });
}
const findScreeningDenylistMatchesRead = defineRead("qc_find_screening_denylist_matches", (db) =>
  db
    .select({ address: screeningDenylistEntries.address, label: screeningDenylistEntries.label })
    .from(screeningDenylistEntries)
    .where(
      and(
        eq(screeningDenylistEntries.tenantId, sql.placeholder("tenantId")),
        sql`${screeningDenylistEntries.address} = any(${sql.placeholder("addresses")}::text[])`,
      ),
    ),
);
