import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { compileContract, QUANTUM_TEST_TOKEN, SOLC_VERSION } from "../src/contracts/index";

describe("test token artifact", () => {
  test("solc is pinned exactly in package.json", () => {
    const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
      devDependencies: Record<string, string>;
    };
    expect(pkg.devDependencies.solc).toBe(SOLC_VERSION);
  });

  test("the committed artifact is what the pinned solc builds from the committed source", () => {
    const fresh = compileContract("QuantumTestToken.sol", "QuantumTestToken");
    expect(fresh.solcVersion.startsWith(`${SOLC_VERSION}+`)).toBe(true);
    expect(fresh.sourceKeccak256).toBe(QUANTUM_TEST_TOKEN.sourceKeccak256);
    expect(fresh.bytecode).toBe(QUANTUM_TEST_TOKEN.bytecode);
    expect(fresh.bytecodeKeccak256).toBe(QUANTUM_TEST_TOKEN.bytecodeKeccak256);
    expect(fresh.abi).toEqual(QUANTUM_TEST_TOKEN.abi);
  });
});
