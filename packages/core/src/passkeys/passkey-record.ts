import type { PasskeyRow } from "@qc/db/queries";

/** A passkey as the routes answer it: never its key material. */
export interface PasskeyRecord {
  id: string;
  name: string;
  transports: string[];
  createdAt: string;
  lastUsedAt: string | null;
}

export function toPasskeyRecord(row: Pick<PasskeyRow, "id" | "name" | "transports" | "createdAt" | "lastUsedAt">): PasskeyRecord {
  return {
    id: row.id,
    name: row.name,
    transports: row.transports,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  };
}
