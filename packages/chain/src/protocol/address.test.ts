import { checksumAddress } from "viem";
import { describe, expect, test } from "vitest";
import { InvalidAddressError, InvalidPublicKeyError } from "../errors/address";
import { addressFromPublicKey, isAddressInput, parseAddress } from "./address";

const lower = "0x52908400098527886e0f7030069857d2e4169ee7";
const checksummed = checksumAddress(lower);

describe("parseAddress", () => {
  test.each([
    [lower, lower],
    [lower.slice(2), lower],
    [lower.toUpperCase().replace("0X", "0x"), lower],
    [lower.slice(2).toUpperCase(), lower],
    [checksummed, lower],
    [checksummed.slice(2), lower],
  ])("accepts %s", (input, expected) => {
    expect(parseAddress(input)).toBe(expected);
    expect(isAddressInput(input)).toBe(true);
  });

  test("rejects mixed case that fails EIP-55", () => {
    // flip the case of the first letter that has case
    const idx = [...checksummed].findIndex((c, i) => i > 1 && /[a-fA-F]/.test(c));
    const ch = checksummed[idx]!;
    const flipped =
      checksummed.slice(0, idx) + (ch === ch.toUpperCase() ? ch.toLowerCase() : ch.toUpperCase()) + checksummed.slice(idx + 1);
    const error = (() => {
      try {
        parseAddress(flipped);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(InvalidAddressError);
    expect((error as InvalidAddressError).reason).toBe("checksum");
    expect(isAddressInput(flipped)).toBe(false);
  });

  test.each([
    "",
    "0x",
    "0x1234",
    `${lower}00`,
    `0X${lower.slice(2)}`,
    ` ${lower}`,
    `${lower} `,
    "0xg2908400098527886e0f7030069857d2e4169ee7",
  ])("rejects %j", (input) => {
    expect(() => parseAddress(input)).toThrow(InvalidAddressError);
    expect(isAddressInput(input)).toBe(false);
  });

  test("non-strings are not addresses", () => {
    expect(isAddressInput(42)).toBe(false);
    expect(() => parseAddress(undefined as unknown as string)).toThrow(InvalidAddressError);
  });
});

describe("addressFromPublicKey", () => {
  test("rejects wrong lengths", () => {
    expect(() => addressFromPublicKey(new Uint8Array(2591))).toThrow(InvalidPublicKeyError);
    expect(() => addressFromPublicKey("0xzz")).toThrow(InvalidPublicKeyError);
  });
});
