// Rebuilds the committed contract artifacts: `pnpm --filter @qc/chain exec tsx scripts/compile-contracts.ts`
import { writeFileSync } from "node:fs";
import { compileContract } from "../src/contracts/compile";

const artifact = compileContract("QuantumTestToken.sol", "QuantumTestToken");
const path = new URL("../contracts/QuantumTestToken.json", import.meta.url);
writeFileSync(path, `${JSON.stringify(artifact, null, 2)}\n`);
console.log(`wrote ${path.pathname} (bytecode keccak256 ${artifact.bytecodeKeccak256})`);
