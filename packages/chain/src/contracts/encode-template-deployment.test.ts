import { checksumAddress, decodeDeployData, encodeDeployData, keccak256, type Abi } from "viem";
import { describe, expect, test } from "vitest";
import { encodeTemplateDeployment, InvalidConstructorArgumentsError, TemplateBytecodeMismatchError } from "./encode-template-deployment";
import { findContractTemplate, type ContractTemplate } from "./templates";

const FIXED = findContractTemplate("erc20-fixed-supply")!;
const VAULT = findContractTemplate("timelock-vault")!;
const HOLDER = "0x5b38da6a701c568545dcfcb03fcb875f56beddc4";
const VALID = { tokenName: "Quantum Dollar", tokenSymbol: "QD", tokenDecimals: "6", initialSupply: "1000000000000", initialHolder: HOLDER };

function fieldsOf(template: ContractTemplate, constructorArgs: unknown) {
  try {
    encodeTemplateDeployment({ template, constructorArgs });
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidConstructorArgumentsError);
    return (error as InvalidConstructorArgumentsError).fields;
  }
  throw new Error("expected InvalidConstructorArgumentsError");
}

describe("encodeTemplateDeployment", () => {
  test("creation data is the pinned bytecode followed by viem's ABI encoding of the arguments", () => {
    const { data, constructorArgs, bytecodeHash } = encodeTemplateDeployment({ template: FIXED, constructorArgs: VALID });
    const abi = FIXED.artifact.abi as Abi;
    expect(data).toBe(
      encodeDeployData({ abi, bytecode: FIXED.artifact.bytecode, args: ["Quantum Dollar", "QD", 6, 1_000_000_000_000n, HOLDER] }),
    );
    expect(data.startsWith(FIXED.artifact.bytecode)).toBe(true);
    expect(bytecodeHash).toBe(FIXED.bytecodeHash);
    expect(keccak256(data.slice(0, FIXED.artifact.bytecode.length) as `0x${string}`)).toBe(FIXED.bytecodeHash);
    expect(decodeDeployData({ abi, bytecode: FIXED.artifact.bytecode, data }).args).toEqual([
      "Quantum Dollar",
      "QD",
      6,
      1_000_000_000_000n,
      checksumAddress(HOLDER),
    ]);
    expect(constructorArgs).toEqual(VALID);
  });

  test("arguments are canonicalised: addresses lower-case, defaults filled in, ABI order", () => {
    const { constructorArgs, data } = encodeTemplateDeployment({
      template: FIXED,
      constructorArgs: { initialSupply: "5", tokenDecimals: "0", tokenSymbol: "X", tokenName: "X", initialHolder: checksumAddress(HOLDER) },
    });
    expect(constructorArgs).toEqual({ tokenName: "X", tokenSymbol: "X", tokenDecimals: "0", initialSupply: "5", initialHolder: HOLDER });
    expect(Object.keys(constructorArgs)).toEqual(["tokenName", "tokenSymbol", "tokenDecimals", "initialSupply", "initialHolder"]);
    // Without 0x and upper-case is the same address, hence the same bytes.
    expect(
      encodeTemplateDeployment({ template: FIXED, constructorArgs: { ...constructorArgs, initialHolder: HOLDER.slice(2).toUpperCase() } })
        .data,
    ).toBe(data);

    const implicit = encodeTemplateDeployment({
      template: FIXED,
      constructorArgs: { tokenName: "X", tokenSymbol: "X", tokenDecimals: "0", initialSupply: "5" },
    });
    expect(implicit.constructorArgs.initialHolder).toBe("0x0000000000000000000000000000000000000000");
  });

  test("the canonical arguments re-encode to the same bytes (what the service and the signer rebuild from)", () => {
    const first = encodeTemplateDeployment({ template: FIXED, constructorArgs: { ...VALID, initialHolder: checksumAddress(HOLDER) } });
    const again = encodeTemplateDeployment({ template: FIXED, constructorArgs: JSON.parse(JSON.stringify(first.constructorArgs)) });
    expect(again.data).toBe(first.data);
  });

  test("a JSON number for an integer is refused, naming the argument (never coerced)", () => {
    expect(fieldsOf(FIXED, { ...VALID, initialSupply: 1000 })).toEqual([
      { path: "constructorArgs.initialSupply", message: "expected a decimal uint256 string" },
    ]);
    expect(fieldsOf(FIXED, { ...VALID, tokenDecimals: 6 })).toEqual([
      { path: "constructorArgs.tokenDecimals", message: "expected a decimal uint8 string" },
    ]);
    const error = (() => {
      try {
        encodeTemplateDeployment({ template: FIXED, constructorArgs: { ...VALID, initialSupply: 1000 } });
      } catch (e) {
        return e as InvalidConstructorArgumentsError;
      }
    })();
    expect(error?.shortMessage).toBe("constructorArgs.initialSupply: expected a decimal uint256 string");
  });

  test.each([
    ["-1", "expected a decimal uint256 string"],
    ["01", "expected a decimal uint256 string"],
    ["1e3", "expected a decimal uint256 string"],
    [" 1", "expected a decimal uint256 string"],
    ["0x10", "expected a decimal uint256 string"],
    ["", "expected a decimal uint256 string"],
    [
      (2n ** 256n).toString(),
      "out of range for uint256 (0 to 115792089237316195423570985008687907853269984665640564039457584007913129639935)",
    ],
    ["9".repeat(500), "expected a decimal uint256 string"],
  ])("initialSupply %j is refused: %s", (value, message) => {
    expect(fieldsOf(FIXED, { ...VALID, initialSupply: value })).toEqual([{ path: "constructorArgs.initialSupply", message }]);
  });

  test("uint256 bounds are inclusive", () => {
    expect(
      encodeTemplateDeployment({ template: FIXED, constructorArgs: { ...VALID, initialSupply: "0" } }).constructorArgs.initialSupply,
    ).toBe("0");
    const max = (2n ** 256n - 1n).toString();
    expect(
      encodeTemplateDeployment({ template: FIXED, constructorArgs: { ...VALID, initialSupply: max } }).constructorArgs.initialSupply,
    ).toBe(max);
  });

  test("uint8 range and the template's own rule (decimals at most 36)", () => {
    expect(fieldsOf(FIXED, { ...VALID, tokenDecimals: "256" })).toEqual([
      { path: "constructorArgs.tokenDecimals", message: "out of range for uint8 (0 to 255)" },
    ]);
    expect(fieldsOf(FIXED, { ...VALID, tokenDecimals: "37" })).toEqual([
      { path: "constructorArgs.tokenDecimals", message: "must be at most 36" },
    ]);
    expect(
      encodeTemplateDeployment({ template: FIXED, constructorArgs: { ...VALID, tokenDecimals: "36" } }).constructorArgs.tokenDecimals,
    ).toBe("36");
  });

  test("addresses: format and EIP-55 checksum as everywhere in the service; zero refused where the contract would revert", () => {
    // The EIP-55 form with the case of its first letter flipped.
    const checksummed = checksumAddress(HOLDER);
    const letter = checksummed.slice(2).search(/[a-fA-F]/) + 2;
    const flipped =
      checksummed[letter] === checksummed[letter]!.toUpperCase() ? checksummed[letter]!.toLowerCase() : checksummed[letter]!.toUpperCase();
    const badChecksum = `${checksummed.slice(0, letter)}${flipped}${checksummed.slice(letter + 1)}`;
    expect(badChecksum.toLowerCase()).toBe(HOLDER);
    for (const value of ["0x123", badChecksum, 42, null, `0X${HOLDER.slice(2)}`]) {
      expect(fieldsOf(FIXED, { ...VALID, initialHolder: value })).toEqual([
        {
          path: "constructorArgs.initialHolder",
          message: "expected an address: 40 hex digits with optional 0x; mixed case must pass EIP-55",
        },
      ]);
    }
    expect(fieldsOf(VAULT, { vaultBeneficiary: "0x0000000000000000000000000000000000000000", vaultReleaseTime: "1700000000" })).toEqual([
      { path: "constructorArgs.vaultBeneficiary", message: "must not be the zero address" },
    ]);
  });

  test("strings: type, length in characters, well-formed, no control characters", () => {
    expect(fieldsOf(FIXED, { ...VALID, tokenName: 7 })).toEqual([{ path: "constructorArgs.tokenName", message: "expected a string" }]);
    expect(fieldsOf(FIXED, { ...VALID, tokenName: "" })).toEqual([
      { path: "constructorArgs.tokenName", message: "must be 1 to 64 characters" },
    ]);
    expect(fieldsOf(FIXED, { ...VALID, tokenSymbol: "S".repeat(17) })).toEqual([
      { path: "constructorArgs.tokenSymbol", message: "must be 1 to 16 characters" },
    ]);
    // Sixteen emoji are sixteen characters (not 32 UTF-16 units).
    expect(
      encodeTemplateDeployment({ template: FIXED, constructorArgs: { ...VALID, tokenSymbol: "🪙".repeat(16) } }).constructorArgs
        .tokenSymbol,
    ).toBe("🪙".repeat(16));
    expect(fieldsOf(FIXED, { ...VALID, tokenName: "bad\nname" })).toEqual([
      { path: "constructorArgs.tokenName", message: "must not contain control characters (U+0000–U+001F, U+007F)" },
    ]);
    expect(fieldsOf(FIXED, { ...VALID, tokenName: "half \ud800" })).toEqual([
      { path: "constructorArgs.tokenName", message: "must be well-formed Unicode (no unpaired surrogate)" },
    ]);
  });

  test("missing, unknown and several bad arguments are all reported", () => {
    expect(fieldsOf(FIXED, { tokenName: "X", tokenSymbol: 1, extra: "1" })).toEqual([
      {
        path: "constructorArgs.extra",
        message:
          "not a constructor argument of erc20-fixed-supply (expected: tokenName, tokenSymbol, tokenDecimals, " +
          "initialSupply, initialHolder)",
      },
      { path: "constructorArgs.tokenSymbol", message: "expected a string" },
      { path: "constructorArgs.tokenDecimals", message: "required (uint8)" },
      { path: "constructorArgs.initialSupply", message: "required (uint256)" },
    ]);
  });

  test.each([[null], [[]], ["x"], [1], [undefined]])("constructorArgs %j is not an object", (value) => {
    expect(fieldsOf(FIXED, value)).toEqual([
      { path: "constructorArgs", message: "expected an object of constructor arguments keyed by name" },
    ]);
  });

  test("an own property named like an Object.prototype member is an unknown argument, not a lookup", () => {
    expect(
      fieldsOf(FIXED, JSON.parse(`{"tokenName":"X","tokenSymbol":"X","tokenDecimals":"1","initialSupply":"1","__proto__":"1"}`)),
    ).toEqual([expect.objectContaining({ path: "constructorArgs.__proto__" })]);
    expect(fieldsOf(FIXED, { ...VALID, toString: "1" })[0]?.path).toBe("constructorArgs.toString");
  });

  test("timelock: release time in seconds, at least 1, at most year 9999 (milliseconds are refused)", () => {
    expect(
      encodeTemplateDeployment({ template: VAULT, constructorArgs: { vaultBeneficiary: HOLDER, vaultReleaseTime: "1700000000" } })
        .constructorArgs,
    ).toEqual({
      vaultBeneficiary: HOLDER,
      vaultReleaseTime: "1700000000",
    });
    expect(fieldsOf(VAULT, { vaultBeneficiary: HOLDER, vaultReleaseTime: "1700000000000" })).toEqual([
      { path: "constructorArgs.vaultReleaseTime", message: "must be at most 253402300799" },
    ]);
    expect(fieldsOf(VAULT, { vaultBeneficiary: HOLDER, vaultReleaseTime: "0" })).toEqual([
      { path: "constructorArgs.vaultReleaseTime", message: "must be at least 1" },
    ]);
    expect(fieldsOf(VAULT, { vaultBeneficiary: HOLDER })).toEqual([
      { path: "constructorArgs.vaultReleaseTime", message: "required (uint64)" },
    ]);
  });

  test("bytes that do not hash to the pinned value are refused before any encoding", () => {
    const tampered: ContractTemplate = {
      ...FIXED,
      artifact: { ...FIXED.artifact, bytecode: `0x${FIXED.artifact.bytecode.slice(2, -2)}00` },
    };
    expect(() => encodeTemplateDeployment({ template: tampered, constructorArgs: VALID })).toThrow(TemplateBytecodeMismatchError);
  });
});
