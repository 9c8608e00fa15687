import { defineConfig } from "vitest/config";

// One test command for the whole workspace: every package or app with a
// vitest.config.ts is a project. Projects that need PostgreSQL share the
// globalSetup in packages/db/src/testing/global-setup.ts.
export default defineConfig({
  test: {
    projects: ["packages/*/vitest.config.ts", "packages/db/vitest.neon.config.ts", "apps/*/vitest.config.ts", "bench/vitest.config.ts"],
    reporters: ["default", "./scripts/summary-reporter.ts"],
  },
});
