import { asc, eq } from "drizzle-orm";
import type { Executor } from "../client";
import { ipAllowlistEntries } from "../schema/identity";

export interface IpAllowlistEntryValue {
  cidr: string;
  label: string;
}

/** The tenant's allowlist in its order; `lock` holds the rows until the transaction ends. */
export async function listIpAllowlistEntries(
  db: Executor,
  params: { tenantId: string; lock?: "update" },
): Promise<IpAllowlistEntryValue[]> {
  const query = db
    .select({ cidr: ipAllowlistEntries.cidr, label: ipAllowlistEntries.label })
    .from(ipAllowlistEntries)
    .where(eq(ipAllowlistEntries.tenantId, params.tenantId))
    .orderBy(asc(ipAllowlistEntries.position));
  return params.lock ? query.for(params.lock) : query;
}

/** Replaces the tenant's whole allowlist with `entries`, in that order. */
export async function replaceIpAllowlistEntries(
  db: Executor,
  params: { tenantId: string; entries: IpAllowlistEntryValue[]; createdAt: Date },
): Promise<void> {
  await db.delete(ipAllowlistEntries).where(eq(ipAllowlistEntries.tenantId, params.tenantId));
  if (params.entries.length === 0) return;
  await db.insert(ipAllowlistEntries).values(
    params.entries.map((e, position) => ({
      tenantId: params.tenantId,
      cidr: e.cidr,
      label: e.label,
      position,
      createdAt: params.createdAt,
    })),
  );
}
