import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { GENERATE_COMMAND, OPENAPI_TYPES_FILE, generateOpenApiTypes } from "../scripts/openapi-types";

it("src/openapi.ts is the types of the routers' current /v1/openapi.json", async () => {
  const generated = await generateOpenApiTypes();
  const committed = readFileSync(OPENAPI_TYPES_FILE, "utf8");
  expect(committed === generated, `packages/sdk/src/openapi.ts is stale: run \`${GENERATE_COMMAND}\` and commit it`).toBe(true);
}, 120_000);
