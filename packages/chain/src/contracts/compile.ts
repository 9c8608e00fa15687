import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { keccak256, type Abi, type Hex } from "viem";

/** solc version the artifacts are built with; package.json pins the same version exactly. */
export const SOLC_VERSION = "0.8.37";

export type CompiledContract = {
  contractName: string;
  sourceFile: string;
  solcVersion: string;
  settings: { optimizer: { enabled: boolean; runs: number }; evmVersion: string };
  abi: Abi;
  bytecode: Hex;
  bytecodeKeccak256: Hex;
  sourceKeccak256: Hex;
};

export type CompileReport = {
  artifact: CompiledContract;
  /** solc warnings and infos (formatted); an audited template is expected to have none. */
  warnings: string[];
};

export const COMPILER_SETTINGS = { optimizer: { enabled: true, runs: 200 }, evmVersion: "prague" } as const;

/** `fileName` is relative to `packages/chain/contracts/` (e.g. `testing/X.sol`). */
export function contractSourcePath(fileName: string): string {
  return fileURLToPath(new URL(`../../contracts/${fileName}`, import.meta.url));
}

/**
 * Compiles one self-contained contract (no imports) with the pinned solc from npm (a dev
 * dependency, loaded only here so the runtime never needs it). Used by the tests that check the
 * committed artifacts and by `scripts/compile-contracts.ts`.
 */
export function compileContractReport(fileName: string, contractName: string): CompileReport {
  const require = createRequire(import.meta.url);
  const solc = require("solc") as { compile(input: string): string; version(): string };
  const version = solc.version();
  if (!version.startsWith(`${SOLC_VERSION}+`)) throw new Error(`solc ${version} found, ${SOLC_VERSION} pinned`);
  const source = readFileSync(contractSourcePath(fileName), "utf8");
  const input = {
    language: "Solidity",
    sources: { [fileName]: { content: source } },
    settings: { ...COMPILER_SETTINGS, outputSelection: { "*": { "*": ["abi", "evm.bytecode.object"] } } },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as {
    errors?: { severity: string; formattedMessage: string }[];
    contracts?: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>;
  };
  const diagnostics = output.errors ?? [];
  const errors = diagnostics.filter((e) => e.severity === "error");
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join("\n"));
  const contract = output.contracts?.[fileName]?.[contractName];
  if (!contract) throw new Error(`${contractName} not found in ${fileName}`);
  const bytecode = `0x${contract.evm.bytecode.object}` as Hex;
  return {
    artifact: {
      contractName,
      sourceFile: `contracts/${fileName}`,
      solcVersion: version,
      settings: COMPILER_SETTINGS,
      abi: contract.abi,
      bytecode,
      bytecodeKeccak256: keccak256(bytecode),
      sourceKeccak256: keccak256(new TextEncoder().encode(source)),
    },
    warnings: diagnostics.filter((e) => e.severity !== "error").map((e) => e.formattedMessage),
  };
}

/** The artifact of `compileContractReport`, for callers that do not look at warnings. */
export function compileContract(fileName: string, contractName: string): CompiledContract {
  return compileContractReport(fileName, contractName).artifact;
}
