import type { Database } from "@qc/db";
import { listIpAllowlistEntries } from "@qc/db/queries";
import type { CredentialCache } from "./credential-cache";

/** Each tenant's IP allowlist, cached and dropped when the tenant's settings change (`tenant:<id>`). */
export class AllowlistCache {
  constructor(
    private readonly db: Database,
    private readonly cache: CredentialCache<string[]>,
  ) {}

  /** The tenant's allowlist CIDRs (empty: all allowed). */
  async entries(tenantId: string): Promise<string[]> {
    const entries = await this.cache.get(tenantId, async () =>
      (await listIpAllowlistEntries(this.db, { tenantId })).map((entry) => entry.cidr),
    );
    return entries ?? [];
  }
}
