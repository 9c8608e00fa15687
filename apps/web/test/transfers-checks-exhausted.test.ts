import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FinalJobError } from "@qc/core";
import type { Daemon } from "@qc/daemon";
import { useTestDatabase } from "@qc/db/testing";
import { startTestServer, type TestServer } from "./harness";
import { startTestDaemon } from "./identity-helpers";
import { fundedSource, nativeTransfer, waitForStatus } from "./transfers-front-helpers";

/**
 * A transfer whose checks job dead-letters (its dependency stayed down past every retry) must not
 * wait in SUBMITTED forever: the daemon's dead-letter handler fails it closed, with the reason.
 */
describe("transfers whose checks can never complete", () => {
  const t = useTestDatabase();
  let server: TestServer;
  let daemon: Daemon;
  beforeAll(async () => {
    server = await startTestServer({ database: t });
    // The real runner, queues and dead-letter handling; only the checks' dependency is made to
    // fail for good (as a chain RPC that stayed down would after the last retry).
    daemon = await startTestDaemon(t.url, {
      handlers: {
        "transfers.check": async () => {
          throw new FinalJobError("chain RPC unreachable after every retry");
        },
      },
    });
  });
  afterAll(async () => {
    await daemon?.stop({ timeoutMs: 5_000 });
    await server?.close();
  });

  it("ends FAILED/INTERNAL_ERROR with the reason, and the history says who moved it", async () => {
    const source = await fundedSource(() => server, t.db, undefined, 0n);
    const created = await source.api.createTransfer(nativeTransfer(source, 1000n));
    expect(created.status, created.text).toBe(201);
    const id = created.json().id as string;
    const failed = await waitForStatus(source.api, id, ["FAILED"]);
    expect(failed).toMatchObject({ status: "FAILED", subStatus: "INTERNAL_ERROR", nonce: null, chainTxHash: null });
    expect(failed.statusReason).toMatch(/checks could not complete.*nothing was sent/);
    const events = await source.api.get(`/v1/transactions/${id}/events`);
    expect(events.status, events.text).toBe(200);
    const last = (events.json().events as { toStatus?: string; to?: string; actor?: { type: string; id: string } }[]).at(-1)!;
    expect(last).toMatchObject({ actor: { type: "system", id: "transfers.check" } });
  });
});
