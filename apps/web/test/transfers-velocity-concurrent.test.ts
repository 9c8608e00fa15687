import type { Daemon } from "@qc/daemon";
import { useTestDatabase } from "@qc/db/testing";
import { useDevnet } from "@qc/devnet/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Q } from "./custody-helpers";
import { startTestServer, type TestServer } from "./harness";
import { eventually } from "./identity-helpers";
import { devnetConfig, fundedSource, nativeTransfer, startTransfersDaemon, waitForStatus } from "./transfers-front-helpers";

/** Where the checks leave a transfer: cleared (released or queued behind the first) or refused. */
const DECIDED = ["PENDING_SIGNATURE", "QUEUED", "BLOCKED", "FAILED"];
const CLEARED = ["PENDING_SIGNATURE", "QUEUED"];

/**
 * Velocity windows under concurrency, end to end (real HTTPS, the daemon's checks, the devnet for
 * balances): the usage buckets count every transfer created in the window's hours as soon as its
 * create commits, so transfers created at once can never all pass a limit that only some fit
 * under (docs/decisions/usage-buckets.md).
 */
describe("velocity limits with transfers created at once", () => {
  const t = useTestDatabase();
  const devnet = useDevnet({ blockTimeMs: 100 });
  let server: TestServer;
  let daemon: Daemon;

  beforeAll(async () => {
    const config = devnetConfig(devnet());
    server = await startTestServer({ database: t, config });
    daemon = await startTransfersDaemon(t.url, config);
  });
  afterAll(async () => {
    await daemon?.stop({ timeoutMs: 5_000 });
    await server?.close();
  });

  for (const scope of ["WALLET", "TENANT"] as const) {
    it(`20 transfers created at once against a ${scope} limit: those cleared sum to no more than the limit`, async () => {
      const s = await fundedSource(() => server, t.db, devnet(), 100n * Q);
      const limit = 5n * Q;
      const rule = {
        id: "velocity",
        name: "5 Q per hour",
        action: "BLOCK",
        match: {},
        velocity: { amount: limit.toString(), windowSeconds: 3600, scope },
      };
      expect((await s.api.put("/v1/policies", { defaultAction: "ALLOW", rules: [rule] })).status).toBe(200);

      const created = await Promise.all(Array.from({ length: 20 }, () => s.api.createTransfer(nativeTransfer(s, Q))));
      for (const res of created) expect(res.status, res.text).toBe(201);
      // One poller for the twenty (the tenant's rate limit), through the list.
      const ids = new Set(created.map((res) => res.json().id as string));
      const decided: { id: string; status: string; subStatus: string | null; amount: string; policy: unknown }[] = await eventually(
        async () => {
          const page = (await s.api.get("/v1/transactions?limit=100")).json();
          const mine = (page.transactions ?? []).filter((record: { id: string }) => ids.has(record.id));
          return mine.length === 20 && mine.every((record: { status: string }) => DECIDED.includes(record.status)) ? mine : undefined;
        },
        60_000,
        200,
      );

      const cleared = decided.filter((record) => CLEARED.includes(record.status));
      const blocked = decided.filter((record) => record.status === "BLOCKED");
      expect(cleared.length + blocked.length).toBe(20);
      for (const record of blocked) expect(record).toMatchObject({ subStatus: "BLOCKED_BY_POLICY", policy: { ruleId: "velocity" } });
      const clearedSum = cleared.reduce((sum, record) => sum + BigInt(record.amount), 0n);
      expect(clearedSum <= limit, `${cleared.length} cleared, ${clearedSum} above ${limit}`).toBe(true);

      // The blocked ones gave their usage back, exactly: what is left of the limit now clears, one more Qwei does not.
      const room = limit - clearedSum;
      if (room > 0n) {
        const fits = await s.api.createTransfer(nativeTransfer(s, room));
        expect(CLEARED).toContain((await waitForStatus(s.api, fits.json().id, DECIDED)).status);
      }
      const over = await s.api.createTransfer(nativeTransfer(s, 1n));
      expect(await waitForStatus(s.api, over.json().id, DECIDED)).toMatchObject({ status: "BLOCKED", subStatus: "BLOCKED_BY_POLICY" });
    });
  }
});
