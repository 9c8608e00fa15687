import { readFileSync } from "node:fs";
import { NETWORK_CODES } from "@qc/chain";
import { schema } from "@qc/db";
import { useTestDatabase } from "@qc/db/testing";
import { v5 as uuidv5 } from "uuid";
import { describe, expect, it } from "vitest";
import { NATIVE_ASSET_IDS } from "./native-assets";

describe("native assets", () => {
  const t = useTestDatabase();

  it("are one per code of @qc/chain's NETWORK_CODES, the list the db's network_code enum spells in the same order", () => {
    // @qc/db does not depend on @qc/chain, so its enum spells the codes; this holds the two equal.
    expect(schema.networkCode.enumValues).toEqual(NETWORK_CODES);
  });

  it("have the UUIDv5 of `<networkCode>:native` in the URL namespace", () => {
    expect(NETWORK_CODES).toHaveLength(2);
    for (const networkCode of NETWORK_CODES) expect(NATIVE_ASSET_IDS[networkCode]).toBe(uuidv5(`${networkCode}:native`, uuidv5.URL));
    const seed = readFileSync(new URL("../../../db/sql/020_seed_native_assets.sql", import.meta.url), "utf8");
    for (const networkCode of NETWORK_CODES)
      expect(seed).toContain(`('${uuidv5(`${networkCode}:native`, uuidv5.URL)}', NULL, '${networkCode}', 'NATIVE'`);
  });

  it("are seeded by the migrations: Q, Quantum, 18 decimals, no contract, global", async () => {
    const rows = await t.db.select().from(schema.assets);
    expect(rows.map(({ createdAt: _createdAt, ...row }) => row).sort((x, y) => x.networkCode.localeCompare(y.networkCode))).toEqual(
      [...NETWORK_CODES].sort().map((networkCode) => ({
        id: uuidv5(`${networkCode}:native`, uuidv5.URL),
        tenantId: null,
        networkCode,
        kind: "NATIVE",
        symbol: "Q",
        name: "Quantum",
        decimals: 18,
        contractAddress: null,
      })),
    );
  });
});
