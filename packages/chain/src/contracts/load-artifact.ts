import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { CompiledContract } from "./compile";

/** A committed artifact of `packages/chain/contracts/`, as `scripts/compile-contracts.ts` wrote it. */
export function loadArtifact(fileName: string): CompiledContract {
  return JSON.parse(readFileSync(fileURLToPath(new URL(`../../contracts/${fileName}`, import.meta.url)), "utf8")) as CompiledContract;
}
