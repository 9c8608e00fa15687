import type { NextConfig } from "next";

const config: NextConfig = {
  // The API never goes through Next (server.ts hands /v1 and /api/trpc to the adapters).
  poweredByHeader: false,
  reactStrictMode: true,
  typedRoutes: false,
  // `tsc --noEmit -p apps/web` (./qc test) typechecks the pages with the rest of the package; a
  // second pass inside `next build` would only make every production build slower.
  typescript: { ignoreBuildErrors: true },
  // The dashboard talks only to its own origin.
  async headers() {
    return [
      {
        source: "/:path*",
        headers: [
          { key: "X-Frame-Options", value: "DENY" },
          { key: "Referrer-Policy", value: "same-origin" },
        ],
      },
    ];
  },
};

export default config;
