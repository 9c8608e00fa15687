import { readFile, writeFile } from "node:fs/promises";
import { OPENAPI_TYPES_FILE, generateOpenApiTypes } from "./openapi-types";

// `./qc pnpm --filter @quantum-custody/sdk generate`: rewrites src/openapi.ts from the routers.
const text = await generateOpenApiTypes();
const before = await readFile(OPENAPI_TYPES_FILE, "utf8").catch(() => "");
if (before === text) {
  console.log(`${OPENAPI_TYPES_FILE}: up to date`);
} else {
  await writeFile(OPENAPI_TYPES_FILE, text);
  console.log(`${OPENAPI_TYPES_FILE}: regenerated`);
}
