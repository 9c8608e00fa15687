import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { CompiledContract } from "./compile";

export { compileContract, COMPILER_SETTINGS, SOLC_VERSION, type CompiledContract } from "./compile";

function loadArtifact(fileName: string): CompiledContract {
  return JSON.parse(readFileSync(fileURLToPath(new URL(`../../contracts/${fileName}`, import.meta.url)), "utf8")) as CompiledContract;
}

/**
 * The test ERC-20 (`contracts/QuantumTestToken.sol`), compiled with the pinned solc.
 * Constructor: `(string name, string symbol, uint8 decimals, uint256 initialSupply)`.
 * A test recompiles the source and compares.
 */
export const QUANTUM_TEST_TOKEN: CompiledContract = loadArtifact("QuantumTestToken.json");
