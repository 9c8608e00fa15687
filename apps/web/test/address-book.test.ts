import { defaultTransferConfig } from "@qc/core";
import { createKeyFixture, createMemberFixture, createSessionFixture, createTenantFixture } from "@qc/core/testing";
import { and, eq, schema } from "@qc/db";
import { useTestDatabase } from "@qc/db/testing";
import { checksumAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectError, NATIVE, newSignerKey } from "./custody-helpers";
import { startTestServer, TEST_PEPPER, type TestServer } from "./harness";
import { memberRequests } from "./member-requests";
import { fundedSource, nativeTransfer, type FundedSource } from "./transfers-front-helpers";

interface Entry {
  id: string;
  networkCode: string;
  address: string;
  label: string;
  assetIds: string[] | null;
  status: "PENDING" | "ACTIVE" | "REMOVED";
  activatesAt: string;
  createdAt: string;
  createdBy: string;
  removedAt: string | null;
  removedBy: string | null;
}
type Page = { entries: Entry[]; page: { nextCursor: string | null; hasMore: boolean } };

const ACTIVATION_SECONDS = 3600;

/**
 * The address book over HTTPS (CONTRACT §16): CRUD with audit rows and events, 409
 * ADDRESS_ALREADY_LISTED (1501), validation, another tenant's entries 404, who may change the book
 * (§14: `administer`), and the activation delay to the second through the dry run with the
 * server's clock fixed (ADDRESS_BOOK_ACTIVATION_SECONDS 3600 here).
 */
describe("the address book", () => {
  const t = useTestDatabase();
  let server: TestServer;
  let fixed: Date | undefined;
  beforeAll(async () => {
    server = await startTestServer({
      database: t,
      now: () => fixed ?? new Date(),
      config: { transfers: { ...defaultTransferConfig(), addressBookActivationSeconds: ACTIVATION_SECONDS } },
    });
  });
  afterAll(() => server?.close());

  const { send, answer } = memberRequests(() => server);
  const db = () => ({ db: t.db, pepper: TEST_PEPPER });
  const add = async (by: { authorization: string }, body: Record<string, unknown>): Promise<Entry> => {
    const res = await send(by, "POST", "/v1/address-book", body);
    expect(res.status, res.text).toBe(201);
    return res.json<Entry>();
  };
  const payee = (label = "Payee") => ({ networkCode: "QUANTUM_SANDBOX", address: newSignerKey().address, label });
  const auditRows = (tenantId: string, action: string) =>
    t.db
      .select()
      .from(schema.auditEvents)
      .where(and(eq(schema.auditEvents.tenantId, tenantId), eq(schema.auditEvents.action, action)));
  const eventTypes = async (entryId: string) =>
    (await t.db.select().from(schema.eventOutbox).where(eq(schema.eventOutbox.aggregateId, entryId))).map((e) => e.type).sort();

  it("adds (PENDING, activatesAt = creation + the delay), lists, reads and removes entries, audited, with their events", async () => {
    const owner = await createTenantFixture(db());
    const address = newSignerKey().address;
    const before = Date.now();
    const entry = await add(owner, { networkCode: "QUANTUM_SANDBOX", address: checksumAddress(address), label: "  Acme deposit " });
    expect(Object.keys(entry).sort()).toEqual(
      [
        "id",
        "networkCode",
        "address",
        "label",
        "assetIds",
        "status",
        "activatesAt",
        "createdAt",
        "createdBy",
        "removedAt",
        "removedBy",
        "removalReason",
        "approvals",
      ].sort(),
    );
    expect(entry).toMatchObject({
      networkCode: "QUANTUM_SANDBOX",
      address: address.toLowerCase(),
      label: "Acme deposit",
      assetIds: null,
      status: "PENDING",
      createdBy: owner.keyId,
      removedAt: null,
      removedBy: null,
      removalReason: null,
      approvals: null,
    });
    expect(new Date(entry.createdAt).getTime()).toBeGreaterThanOrEqual(before - 1);
    expect(new Date(entry.activatesAt).getTime() - new Date(entry.createdAt).getTime()).toBe(ACTIVATION_SECONDS * 1000);

    const limited = await add(owner, { ...payee("Token payee"), assetIds: [NATIVE.QUANTUM_SANDBOX] });
    expect(limited.assetIds).toEqual([NATIVE.QUANTUM_SANDBOX]);

    const first = await send(owner, "GET", "/v1/address-book?limit=1");
    expect(first.status, first.text).toBe(200);
    const page = first.json<Page>();
    expect(page.entries).toEqual([limited]);
    expect(page.page.hasMore).toBe(true);
    expect((await send(owner, "GET", `/v1/address-book?limit=1&cursor=${page.page.nextCursor}`)).json<Page>().entries).toEqual([entry]);
    expect((await send(owner, "GET", `/v1/address-book/${entry.id}`)).json()).toEqual(entry);
    expect((await send(owner, "GET", "/v1/address-book?status=PENDING")).json<Page>().entries.map((e) => e.id)).toEqual([
      limited.id,
      entry.id,
    ]);
    expect((await send(owner, "GET", "/v1/address-book?status=ACTIVE")).json<Page>().entries).toEqual([]);

    // Listed already (in any case, pending or active): 409 1501 naming the address.
    const again = await send(owner, "POST", "/v1/address-book", {
      networkCode: "QUANTUM_SANDBOX",
      address: address.toUpperCase().replace("0X", "0x"),
      label: "Again",
    });
    expectError(again, 409, "ADDRESS_ALREADY_LISTED", 1501);
    expect(again.json<{ message: string }>().message).toContain(address.toLowerCase());
    // The same address on the other network is another entry.
    expect((await add(owner, { networkCode: "QUANTUM_MAINNET", address, label: "Mainnet" })).networkCode).toBe("QUANTUM_MAINNET");

    expect(answer(await send(owner, "DELETE", `/v1/address-book/${entry.id}`))).toBe("204");
    const removed = (await send(owner, "GET", `/v1/address-book/${entry.id}`)).json<Entry>();
    expect(removed).toMatchObject({ status: "REMOVED", removedBy: owner.keyId });
    expect(removed.removedAt).not.toBeNull();
    expect(answer(await send(owner, "DELETE", `/v1/address-book/${entry.id}`))).toBe("204");
    expect((await send(owner, "GET", "/v1/address-book?status=REMOVED")).json<Page>().entries.map((e) => e.id)).toEqual([entry.id]);
    // Removed, the address may be listed again: a new entry with its own delay.
    const relisted = await add(owner, { networkCode: "QUANTUM_SANDBOX", address, label: "Acme deposit (new)" });
    expect(relisted).toMatchObject({ status: "PENDING" });
    expect(relisted.id).not.toBe(entry.id);

    const [added] = await auditRows(owner.tenantId, "address_book.entry_added");
    expect(added).toBeDefined();
    const removals = await auditRows(owner.tenantId, "address_book.entry_removed");
    expect(removals).toHaveLength(1);
    expect(removals[0]).toMatchObject({
      targetId: entry.id,
      actorId: owner.keyId,
      details: { networkCode: "QUANTUM_SANDBOX", address: address.toLowerCase(), label: "Acme deposit" },
    });
    expect(await eventTypes(entry.id)).toEqual(["address_book.entry_added", "address_book.entry_removed"]);
  });

  it("refuses malformed addresses, labels, assets and filters with 400", async () => {
    const owner = await createTenantFixture(db());
    const good = payee();
    const mixed = checksumAddress(good.address);
    // One letter's case flipped: mixed case that fails the EIP-55 checksum.
    const i = mixed.slice(2).search(/[a-fA-F]/) + 2;
    const badChecksum =
      mixed.slice(0, i) + (mixed[i] === mixed[i]!.toUpperCase() ? mixed[i]!.toLowerCase() : mixed[i]!.toUpperCase()) + mixed.slice(i + 1);
    for (const address of ["0x12", "not an address", badChecksum, "0x" + "g".repeat(40)]) {
      const res = await send(owner, "POST", "/v1/address-book", { ...good, address });
      expect(answer(res), address).toBe("400 VALIDATION_FAILED");
      expect(JSON.stringify(res.json()), address).toContain("address");
    }
    for (const label of ["", "   ", "a\u0000b", "line\nbreak", "x".repeat(101)])
      expect(answer(await send(owner, "POST", "/v1/address-book", { ...good, label })), JSON.stringify(label)).toBe(
        "400 VALIDATION_FAILED",
      );
    expect(answer(await send(owner, "POST", "/v1/address-book", { ...good, networkCode: "ETHEREUM" }))).toBe("400 VALIDATION_FAILED");
    expect(answer(await send(owner, "POST", "/v1/address-book", { ...good, assetIds: [] }))).toBe("400 VALIDATION_FAILED");
    expect(answer(await send(owner, "POST", "/v1/address-book", { ...good, assetIds: ["nope"] }))).toBe("400 VALIDATION_FAILED");
    expect(answer(await send(owner, "POST", "/v1/address-book", { ...good, assetIds: [NATIVE.QUANTUM_MAINNET] }))).toBe(
      "400 UNKNOWN_ASSET",
    );
    expect(answer(await send(owner, "GET", "/v1/address-book?status=ARCHIVED"))).toBe("400 VALIDATION_FAILED");
    expect(answer(await send(owner, "GET", "/v1/address-book/not-a-uuid"))).toBe("400 VALIDATION_FAILED");
    // Nothing was stored by any of them.
    expect((await send(owner, "GET", "/v1/address-book")).json<Page>().entries).toEqual([]);
  });

  it("answers 404 for another tenant's entry, whatever the verb, and never lists it", async () => {
    const owner = await createTenantFixture(db());
    const other = await createTenantFixture(db());
    const entry = await add(owner, payee());
    for (const method of ["GET", "DELETE"])
      expect(answer(await send(other, method, `/v1/address-book/${entry.id}`)), method).toBe("404 NOT_FOUND");
    expect((await send(other, "GET", "/v1/address-book")).json()).toEqual({ entries: [], page: { nextCursor: null, hasMore: false } });
    expect((await send(owner, "GET", `/v1/address-book/${entry.id}`)).json<Entry>().status).toBe("PENDING");
    expect(answer(await send(owner, "GET", "/v1/address-book/0194f2c4-0000-7000-8000-000000000001"))).toBe("404 NOT_FOUND");
  });

  it("lets only OWNER and ADMIN (with an admin-scoped key) change the book; every member reads it", async () => {
    const owner = await createTenantFixture(db());
    const admin = await createMemberFixture(db(), owner, "ADMIN");
    const entry = await add(admin, payee("By the admin"));
    for (const role of ["INITIATOR", "APPROVER", "VIEWER"] as const) {
      const someone = await createMemberFixture(db(), owner, role);
      const session = await createSessionFixture({ db: t.db }, someone);
      for (const by of [someone, session]) {
        expect(answer(await send(by, "POST", "/v1/address-book", payee())), role).toBe("403 INSUFFICIENT_ROLE");
        expect(answer(await send(by, "DELETE", `/v1/address-book/${entry.id}`)), role).toBe("403 INSUFFICIENT_ROLE");
        expect(answer(await send(by, "GET", `/v1/address-book/${entry.id}`)), role).toBe("200");
        expect(answer(await send(by, "GET", "/v1/address-book")), role).toBe("200");
      }
    }
    const writer = await createKeyFixture(db(), owner, ["write"]);
    expectError(await send(writer, "POST", "/v1/address-book", payee()), 403, "INSUFFICIENT_SCOPE", 1020);
    expect((await send(owner, "GET", `/v1/address-book/${entry.id}`)).json<Entry>().status).toBe("PENDING");
  });

  describe("with a policy rule on destination", () => {
    let source: FundedSource;
    beforeAll(async () => {
      source = await fundedSource(() => server, t.db, undefined, 0n);
    });

    const evaluate = async (body: unknown) => {
      const res = await source.api.post("/v1/policies/evaluate", body);
      expect(res.status, res.text).toBe(200);
      return res.json<{ decision: string; ruleId: string | null; reason: string; destinationLabel?: string | null }>();
    };

    it("counts an entry from activatesAt to the second: blocked by NOT_ADDRESS_BOOK → BLOCK 1 s before, allowed 1 s after", async () => {
      const destination = newSignerKey().address.toLowerCase();
      fixed = undefined;
      const entry = await add(source.tenant, { networkCode: "QUANTUM_SANDBOX", address: destination, label: "Supplier" });
      const put = await source.api.put("/v1/policies", {
        defaultAction: "ALLOW",
        rules: [{ id: "book", name: "Only the address book", action: "BLOCK", match: { destination: "NOT_ADDRESS_BOOK" } }],
      });
      expect(put.status, put.text).toBe(200);
      expect(put.json()).toMatchObject({ rules: [{ match: { destination: "NOT_ADDRESS_BOOK" } }] });
      const transfer = nativeTransfer(source, 1n, { destinationAddress: destination });
      const activatesAt = new Date(entry.activatesAt).getTime();
      try {
        fixed = new Date(activatesAt - 1000);
        const blocked = await evaluate(transfer);
        expect(blocked).toMatchObject({ decision: "BLOCK", ruleId: "book", destinationLabel: null });
        expect(blocked.reason).toContain("not in the address book");
        expect((await send(source.tenant, "GET", `/v1/address-book/${entry.id}`)).json<Entry>().status).toBe("PENDING");

        fixed = new Date(activatesAt + 1000);
        expect(await evaluate(transfer)).toMatchObject({ decision: "ALLOW", ruleId: null, destinationLabel: "Supplier" });
        expect((await send(source.tenant, "GET", `/v1/address-book/${entry.id}`)).json<Entry>().status).toBe("ACTIVE");

        // Removal counts at once.
        expect(answer(await send(source.tenant, "DELETE", `/v1/address-book/${entry.id}`))).toBe("204");
        expect(await evaluate(transfer)).toMatchObject({ decision: "BLOCK", ruleId: "book" });
      } finally {
        fixed = undefined;
      }
    });

    it("refuses a destination match that is not one of the two words (400 at rules.0.match.destination)", async () => {
      const res = await source.api.put("/v1/policies", {
        defaultAction: "ALLOW",
        rules: [{ id: "book", name: "Book", action: "BLOCK", match: { destination: "WHITELIST" } }],
      });
      expect(answer(res)).toBe("400 VALIDATION_FAILED");
      expect(JSON.stringify(res.json())).toContain("rules.0.match.destination");
    });
  });
});
