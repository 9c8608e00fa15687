// Rebuilds the committed contract artifacts: `./qc pnpm --filter @qc/chain compile-contracts`.
// A catalog template whose bytecode hash changes also needs its pinned hash in
// src/contracts/templates.ts, a new version and a new REVIEW.md entry.
import { writeFileSync } from "node:fs";
import { compileContractReport } from "../src/contracts/compile";
import { OTHER_ARTIFACT_SOURCES, TEMPLATE_SOURCES } from "../src/contracts/template-sources";

for (const source of [...TEMPLATE_SOURCES, ...OTHER_ARTIFACT_SOURCES]) {
  const { artifact, warnings } = compileContractReport(source.sourceFile, source.contractName);
  for (const warning of warnings) console.warn(warning);
  const path = new URL(`../contracts/${source.artifactFile}`, import.meta.url);
  writeFileSync(path, `${JSON.stringify(artifact, null, 2)}\n`);
  console.log(`wrote ${path.pathname} (bytecode keccak256 ${artifact.bytecodeKeccak256})`);
}
