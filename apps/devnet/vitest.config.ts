import { defineConfig } from "vitest/config";

export default defineConfig({
  test: { name: "devnet", include: ["src/**/*.test.ts", "test/**/*.test.ts"], testTimeout: 120_000, hookTimeout: 60_000 },
});
