import { defineConfig } from "vitest/config";

// The same db tests again, through the Neon serverless driver (WebSocket) instead of node-postgres.
export default defineConfig({
  test: {
    name: "db-neon",
    include: ["src/**/*.test.ts"],
    globalSetup: ["./src/testing/global-setup.ts", "./src/testing/neon-global-setup.ts"],
    setupFiles: ["./src/testing/neon-setup-file.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
