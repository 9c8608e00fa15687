import { describe, expect, it } from "vitest";
import { addPicked, isAddress, isUuid, resolvePick, type PickOption } from "./pick";

const OPS = "0194f2c4-d176-7384-af90-718293a4b5c6";
const OPS2 = "0194f2c4-e287-7495-b0a1-8293a4b5c6d7";
const COLD = "0194f2c4-f398-75a6-81b2-93a4b5c6d7e8";
const wallets: PickOption[] = [
  { value: OPS, label: "Operations · 0x4f6a0b…a6b7", keys: ["Operations", "0x4f6a0b9f8e0d35d7c1f0a3f5e4b1c2d3e4f5a6b7"] },
  { value: OPS2, label: "Operations payroll · 0x9a8b7c…1234", keys: ["Operations payroll"] },
  { value: COLD, label: "Cold storage · 0x11aa22…bb33", keys: ["Cold storage"] },
];

describe("a picker's text", () => {
  it("names an option by its label, one of its keys (a name, an address) or a unique part of its label, without case", () => {
    expect(resolvePick("operations", wallets, isUuid, "wallet")).toEqual({ ok: true, values: [OPS] });
    expect(resolvePick("Cold storage · 0x11aa22…bb33", wallets, isUuid, "wallet")).toEqual({ ok: true, values: [COLD] });
    expect(resolvePick("0x4F6A0B9F8E0D35D7C1F0A3F5E4B1C2D3E4F5A6B7", wallets, isUuid, "wallet")).toEqual({ ok: true, values: [OPS] });
    expect(resolvePick("cold", wallets, isUuid, "wallet")).toEqual({ ok: true, values: [COLD] });
  });

  it("keeps a pasted id as is, listed or not, and several pasted at once", () => {
    expect(resolvePick(` ${OPS2.toUpperCase()} `, wallets, isUuid, "wallet")).toEqual({ ok: true, values: [OPS2] });
    const other = "0194f2c4-0000-7000-8000-000000000000";
    expect(resolvePick(other, wallets, isUuid, "wallet")).toEqual({ ok: true, values: [other] });
    expect(resolvePick(`${OPS}\n${other}, ${COLD}`, wallets, isUuid, "wallet")).toEqual({ ok: true, values: [OPS, other, COLD] });
  });

  it("says why when it names none or several", () => {
    expect(resolvePick("", wallets, isUuid, "wallet")).toEqual({ ok: false, message: "type a wallet's name, or paste its id" });
    expect(resolvePick("treasury", wallets, isUuid, "wallet")).toEqual({ ok: false, message: 'no wallet matches "treasury"' });
    expect(resolvePick("oper", wallets, isUuid, "wallet")).toEqual({
      ok: false,
      message: '2 match "oper": type more of the name, or paste the id',
    });
  });

  it("adds without repeating, and tells ids and addresses by their shape", () => {
    expect(addPicked([OPS], [OPS.toUpperCase(), COLD])).toEqual([OPS, COLD]);
    expect([isUuid(OPS), isUuid("ops"), isAddress("ab".repeat(20)), isAddress("0x12")]).toEqual([true, false, true, false]);
  });
});
