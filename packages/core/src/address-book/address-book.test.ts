import { and, eq, schema } from "@qc/db";
import { useTestDatabase } from "@qc/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServiceDeps } from "../deps/service-deps";
import { NATIVE_ASSET_IDS } from "../assets/native-assets";
import { decideTransferPolicy } from "../policies/decide-transfer-policy";
import { replacePolicy } from "../policies/replace-policy";
import { createTenantFixture, type TenantFixture } from "../testing/fixtures";
import { POLICY_TRANSFER } from "../testing/policy-fixtures";
import { createTestServiceDeps } from "../testing/service-deps";
import { announceEntryActivation } from "./announce-entry-activation";
import { createAddressBookEntry } from "./create-address-book-entry";
import { getAddressBookEntry, listAddressBookEntries } from "./list-address-book-entries";
import { removeAddressBookEntry } from "./remove-address-book-entry";

const DAY_MS = 86_400_000;
const TOKEN_ASSET_ID = "0194f2c4-9c32-7f40-8b5c-3d4e5f607182";

/**
 * The address book against the database with the service's clock fixed (CONTRACT §16): an entry
 * counts for `destination` rules from `activatesAt` to the millisecond, a removal counts at once,
 * `assetIds` limits it, and the activation job announces it once, never for a removed entry.
 */
describe("the address book", () => {
  const t = useTestDatabase();
  let clock = new Date("2026-11-25T12:00:00.000Z");
  let deps: ServiceDeps & { close(): Promise<void> };
  let tenant: TenantFixture;
  beforeAll(async () => {
    deps = await createTestServiceDeps({ database: t, now: () => clock });
    tenant = await createTenantFixture({ db: t.db, pepper: Buffer.alloc(32, 5) });
  });
  afterAll(() => deps?.close());

  const actor = () => ({ type: "api_key" as const, id: tenant.keyId });
  const add = (address: string, extra: { assetIds?: string[]; networkCode?: "QUANTUM_SANDBOX" | "QUANTUM_MAINNET" } = {}) =>
    createAddressBookEntry(deps, {
      tenantId: tenant.tenantId,
      networkCode: extra.networkCode ?? "QUANTUM_SANDBOX",
      address,
      label: `Payee ${address.slice(2, 6)}`,
      assetIds: extra.assetIds,
      actor: actor(),
    });
  const blockOutsideBook = () =>
    replacePolicy(deps, {
      tenantId: tenant.tenantId,
      actor: actor(),
      document: {
        defaultAction: "ALLOW",
        rules: [{ id: "book-only", name: "Address book only", action: "BLOCK", match: { destination: "NOT_ADDRESS_BOOK" } }],
      },
    });
  const decideAt = (now: Date, transfer: Partial<typeof POLICY_TRANSFER> = {}) =>
    decideTransferPolicy(t.db, { tenantId: tenant.tenantId, transfer: { ...POLICY_TRANSFER, ...transfer }, at: now, now });
  const events = (entryId: string, type: string) =>
    t.db
      .select()
      .from(schema.eventOutbox)
      .where(and(eq(schema.eventOutbox.aggregateId, entryId), eq(schema.eventOutbox.type, type)));

  it("counts an entry from activatesAt exactly: blocked by a NOT_ADDRESS_BOOK rule 1 s before, allowed at it and 1 s after", async () => {
    const destination = "0xabcabcabcabcabcabcabcabcabcabcabcabcabca";
    clock = new Date("2026-11-25T12:00:00.123Z");
    const entry = await add(destination.toUpperCase().replace("0X", "0x"));
    expect(entry).toMatchObject({
      networkCode: "QUANTUM_SANDBOX",
      address: destination,
      assetIds: null,
      status: "PENDING",
      activatesAt: new Date(clock.getTime() + DAY_MS).toISOString(),
      createdAt: clock.toISOString(),
      createdBy: tenant.keyId,
      removedAt: null,
    });
    await blockOutsideBook();
    const activatesAt = new Date(entry.activatesAt!);
    const transfer = { destinationAddress: destination };

    const before = await decideAt(new Date(activatesAt.getTime() - 1000), transfer);
    expect(before).toMatchObject({ decision: "BLOCK", ruleId: "book-only", destinationLabel: null });
    expect(before.reason).toContain("not in the address book");
    expect((await decideAt(new Date(activatesAt.getTime() - 1), transfer)).decision).toBe("BLOCK");
    expect(await decideAt(activatesAt, transfer)).toMatchObject({ decision: "ALLOW", ruleId: null, destinationLabel: entry.label });
    expect(await decideAt(new Date(activatesAt.getTime() + 1000), transfer)).toMatchObject({
      decision: "ALLOW",
      destinationLabel: entry.label,
    });

    // Its status follows the same clock; the list's filter too.
    clock = new Date(activatesAt.getTime() - 1000);
    expect((await getAddressBookEntry(deps, { tenantId: tenant.tenantId, entryId: entry.id })).status).toBe("PENDING");
    const pendingIds = (await listAddressBookEntries(deps, { tenantId: tenant.tenantId, status: "PENDING", limit: 50 })).entries.map(
      (e) => e.id,
    );
    expect(pendingIds).toContain(entry.id);
    clock = activatesAt;
    expect((await getAddressBookEntry(deps, { tenantId: tenant.tenantId, entryId: entry.id })).status).toBe("ACTIVE");
    const active = await listAddressBookEntries(deps, { tenantId: tenant.tenantId, status: "ACTIVE", limit: 50 });
    expect(active.entries.map((e) => e.id)).toContain(entry.id);
    expect(
      (await listAddressBookEntries(deps, { tenantId: tenant.tenantId, status: "PENDING", limit: 50 })).entries.map((e) => e.id),
    ).not.toContain(entry.id);

    // Another network's transfer to the same address is not in the book.
    expect((await decideAt(activatesAt, { ...transfer, networkCode: "QUANTUM_MAINNET" })).decision).toBe("BLOCK");
  });

  it("stops counting an entry at once when it is removed; the address may be listed again, with a new delay", async () => {
    const destination = "0x2222222222222222222222222222222222222222";
    clock = new Date("2026-11-25T13:00:00.000Z");
    const entry = await add(destination);
    await expect(add(destination)).rejects.toMatchObject({ error: "ADDRESS_ALREADY_LISTED" });
    // Listed on another network: a different entry.
    await add(destination, { networkCode: "QUANTUM_MAINNET" });
    await blockOutsideBook();
    clock = new Date(new Date(entry.activatesAt!).getTime() + 5000);
    expect((await decideAt(clock, { destinationAddress: destination })).decision).toBe("ALLOW");

    await removeAddressBookEntry(deps, { tenantId: tenant.tenantId, entryId: entry.id, actor: actor() });
    expect((await decideAt(clock, { destinationAddress: destination })).decision).toBe("BLOCK");
    expect(await getAddressBookEntry(deps, { tenantId: tenant.tenantId, entryId: entry.id })).toMatchObject({
      status: "REMOVED",
      removedAt: clock.toISOString(),
      removedBy: tenant.keyId,
    });
    // Removing again changes nothing; one removal event.
    await removeAddressBookEntry(deps, { tenantId: tenant.tenantId, entryId: entry.id, actor: actor() });
    expect(await events(entry.id, "address_book.entry_removed")).toHaveLength(1);
    expect(await events(entry.id, "address_book.entry_added")).toHaveLength(1);

    const again = await add(destination);
    expect(again).toMatchObject({ status: "PENDING", activatesAt: new Date(clock.getTime() + DAY_MS).toISOString() });
    expect((await decideAt(clock, { destinationAddress: destination })).decision).toBe("BLOCK");

    const other = await createTenantFixture({ db: t.db, pepper: Buffer.alloc(32, 5) });
    await expect(getAddressBookEntry(deps, { tenantId: other.tenantId, entryId: again.id })).rejects.toMatchObject({ error: "NOT_FOUND" });
    await expect(
      removeAddressBookEntry(deps, { tenantId: other.tenantId, entryId: again.id, actor: { type: "api_key", id: other.keyId } }),
    ).rejects.toMatchObject({ error: "NOT_FOUND" });
  });

  it("limits an entry with assetIds to those assets, and refuses an asset of another network", async () => {
    const destination = "0x3333333333333333333333333333333333333333";
    clock = new Date("2026-11-25T14:00:00.000Z");
    const sandboxNative = NATIVE_ASSET_IDS.QUANTUM_SANDBOX;
    await expect(add(destination, { assetIds: [NATIVE_ASSET_IDS.QUANTUM_MAINNET] })).rejects.toMatchObject({ error: "UNKNOWN_ASSET" });
    const entry = await add(destination, { assetIds: [sandboxNative, sandboxNative] });
    expect(entry.assetIds).toEqual([sandboxNative]);
    await blockOutsideBook();
    const at = new Date(new Date(entry.activatesAt!).getTime() + 1000);
    expect(await decideAt(at, { destinationAddress: destination, assetId: sandboxNative })).toMatchObject({ decision: "ALLOW" });
    expect(await decideAt(at, { destinationAddress: destination, assetId: TOKEN_ASSET_ID })).toMatchObject({
      decision: "BLOCK",
      destinationLabel: null,
    });
  });

  it("reads no address book for a policy without a destination rule (no destinationLabel), and ADDRESS_BOOK rules match only listed ones", async () => {
    const destination = "0x4444444444444444444444444444444444444444";
    clock = new Date("2026-11-25T15:00:00.000Z");
    const entry = await add(destination);
    const at = new Date(new Date(entry.activatesAt!).getTime() + 1000);
    await replacePolicy(deps, { tenantId: tenant.tenantId, actor: actor(), document: { defaultAction: "BLOCK", rules: [] } });
    expect(await decideAt(at, { destinationAddress: destination })).not.toHaveProperty("destinationLabel");
    await replacePolicy(deps, {
      tenantId: tenant.tenantId,
      actor: actor(),
      document: {
        defaultAction: "BLOCK",
        rules: [{ id: "book", name: "Known payees", action: "ALLOW", match: { destination: "ADDRESS_BOOK" } }],
      },
    });
    expect(await decideAt(at, { destinationAddress: destination })).toMatchObject({
      decision: "ALLOW",
      ruleId: "book",
      destinationLabel: entry.label,
    });
    expect(await decideAt(at, { destinationAddress: "0x4444444444444444444444444444444444444445" })).toMatchObject({
      decision: "BLOCK",
      ruleId: null,
      destinationLabel: null,
    });
  });

  it("schedules the activation's announcement at activatesAt and sends address_book.entry_activated once, never for a removed entry", async () => {
    clock = new Date("2026-11-25T16:00:00.000Z");
    const entry = await add("0x5555555555555555555555555555555555555555");
    const queued = await deps.jobs.boss.findJobs("address-book.announce-activation", { data: { entryId: entry.id }, queued: true });
    expect(queued).toHaveLength(1);
    expect(queued[0]!.startAfter.toISOString()).toBe(entry.activatesAt);
    expect(queued[0]!.singletonKey).toBe(`address-book-activation:${entry.id}`);

    const run = () => announceEntryActivation(deps, { tenantId: tenant.tenantId, entryId: entry.id });
    // Run early (another instance's clock ahead): nothing sent, the job put back at activatesAt.
    clock = new Date(new Date(entry.activatesAt!).getTime() - 1000);
    expect(await run()).toEqual({ announced: false, reason: "not active yet" });
    expect(await events(entry.id, "address_book.entry_activated")).toHaveLength(0);

    clock = new Date(entry.activatesAt!);
    const [first, second] = await Promise.all([run(), run()]);
    expect([first, second]).toEqual(expect.arrayContaining([{ announced: true }, { announced: false, reason: "already announced" }]));
    expect(await run()).toEqual({ announced: false, reason: "already announced" });
    const sent = await events(entry.id, "address_book.entry_activated");
    expect(sent).toHaveLength(1);
    expect(sent[0]!.data).toMatchObject({ entry: { id: entry.id, status: "ACTIVE" } });

    clock = new Date("2026-11-25T17:00:00.000Z");
    const removed = await add("0x6666666666666666666666666666666666666666");
    await removeAddressBookEntry(deps, { tenantId: tenant.tenantId, entryId: removed.id, actor: actor() });
    clock = new Date(new Date(removed.activatesAt!).getTime() + 1000);
    expect(await announceEntryActivation(deps, { tenantId: tenant.tenantId, entryId: removed.id })).toEqual({
      announced: false,
      reason: "removed",
    });
    expect(await events(removed.id, "address_book.entry_activated")).toHaveLength(0);
  });
});
