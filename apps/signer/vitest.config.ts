import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "signer",
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    globalSetup: ["../../packages/db/src/testing/global-setup.ts"],
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
