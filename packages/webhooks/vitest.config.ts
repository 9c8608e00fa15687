import { defineConfig } from "vitest/config";

export default defineConfig({ test: { name: "webhooks", include: ["src/**/*.test.ts"] } });
