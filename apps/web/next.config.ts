import type { NextConfig } from "next";

const config: NextConfig = {
  // The API never goes through Next (server.ts hands /v1 and /api/trpc to the adapters).
  poweredByHeader: false,
  reactStrictMode: true,
  typedRoutes: false,
};

export default config;
