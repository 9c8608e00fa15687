import { defaultTransferConfig, type ServiceConfig } from "@qc/core";
import type { Daemon } from "@qc/daemon";
import { and, eq, schema } from "@qc/db";
import { useTestDatabase } from "@qc/db/testing";
import { useDevnet } from "@qc/devnet/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newSignerKey, Q } from "./custody-helpers";
import { startTestServer, type TestServer } from "./harness";
import { eventually } from "./identity-helpers";
import { memberRequests } from "./member-requests";
import {
  devnetConfig,
  fundedSource,
  nativeTransfer,
  startTransfersDaemon,
  waitForStatus,
  type FundedSource,
} from "./transfers-front-helpers";

const ENDED = ["PENDING_SIGNATURE", "QUEUED", "BLOCKED", "FAILED"];

/**
 * The address book in the transfer checks, end to end (CONTRACT §16): real HTTPS, the daemon's
 * checks and activation job, the devnet. ADDRESS_BOOK_ACTIVATION_SECONDS is 2 s here, so the
 * delay passes in the test's real time; the second-exact delay is tested with a fixed clock in
 * address-book.test.ts and packages/core/src/address-book/address-book.test.ts.
 */
describe("the address book in a transfer's checks", () => {
  const t = useTestDatabase();
  const devnet = useDevnet({ blockTimeMs: 100 });
  let server: TestServer;
  let daemon: Daemon;
  let source: FundedSource;

  beforeAll(async () => {
    const config: Partial<ServiceConfig> = devnetConfig(devnet(), {
      transfers: { ...defaultTransferConfig(), addressBookActivationSeconds: 2, recheckAfterSeconds: 0 },
    });
    server = await startTestServer({ database: t, config });
    daemon = await startTransfersDaemon(t.url, config);
    source = await fundedSource(() => server, t.db, devnet(), 10n * Q);
  });
  afterAll(async () => {
    await daemon?.stop({ timeoutMs: 5_000 });
    await server?.close();
  });

  const { send, answer } = memberRequests(() => server);
  const transfer = async (destinationAddress: string) => {
    const res = await source.api.createTransfer(nativeTransfer(source, 1n, { destinationAddress }));
    expect(res.status, res.text).toBe(201);
    return waitForStatus(source.api, res.json().id, ENDED);
  };

  it("blocks a pending entry's address, lets it through once active with its label on the record, announces the activation once, and blocks again after removal", async () => {
    const destination = newSignerKey().address.toLowerCase();
    const put = await source.api.put("/v1/policies", {
      defaultAction: "BLOCK",
      rules: [{ id: "book", name: "Known payees", action: "ALLOW", match: { destination: "ADDRESS_BOOK" } }],
    });
    expect(put.status, put.text).toBe(200);
    const added = await source.api.post("/v1/address-book", { networkCode: "QUANTUM_SANDBOX", address: destination, label: "Supplier" });
    expect(added.status, added.text).toBe(201);
    const entry = added.json<{ id: string; activatesAt: string }>();

    // Checked before activatesAt: not in the book yet, the default blocks it.
    const early = await transfer(destination);
    if (Date.now() < new Date(entry.activatesAt).getTime()) {
      expect(early).toMatchObject({
        status: "BLOCKED",
        subStatus: "BLOCKED_BY_POLICY",
        destinationLabel: null,
        policy: { decision: "BLOCK", ruleId: null },
      });
    }

    await eventually(async () => Date.now() > new Date(entry.activatesAt).getTime() + 100, 10_000);
    const allowed = await transfer(destination);
    expect(allowed).toMatchObject({
      status: "PENDING_SIGNATURE",
      destinationLabel: "Supplier",
      policy: { decision: "ALLOW", ruleId: "book" },
    });
    // GET and the list show the label the checks wrote.
    expect((await source.api.get(`/v1/transactions/${allowed.id}`)).json()).toMatchObject({ destinationLabel: "Supplier" });

    // The daemon's job announces the activation once.
    const activated = () =>
      t.db
        .select()
        .from(schema.eventOutbox)
        .where(and(eq(schema.eventOutbox.aggregateId, entry.id), eq(schema.eventOutbox.type, "address_book.entry_activated")));
    await eventually(async () => (await activated()).length > 0, 15_000);
    expect(await activated()).toHaveLength(1);

    // Removed: the next check no longer finds it.
    const [row] = await t.db.select().from(schema.addressBookEntries).where(eq(schema.addressBookEntries.id, entry.id));
    expect(row?.activationAnnouncedAt).not.toBeNull();
    expect(answer(await send(source.tenant, "DELETE", `/v1/address-book/${entry.id}`))).toBe("204");
    expect(await transfer(destination)).toMatchObject({ status: "BLOCKED", subStatus: "BLOCKED_BY_POLICY", destinationLabel: null });
  });
});
