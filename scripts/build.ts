/**
 * `pnpm build` (`./qc pnpm build`): the production build, run once in the checkout after the
 * dependencies are installed and again after the sources or the dependencies change.
 *
 *   web     apps/web/dist/server.js, and the dashboard (`next build` into apps/web/.next,
 *           reused while its sources are unchanged: apps/web/src/dashboard/production-build.ts)
 *   daemon  apps/daemon/dist/main.js
 *   signer  apps/signer/dist/main.js
 *
 * `pnpm build web daemon` builds only those. Production then runs `node --enable-source-maps
 * apps/web/dist/server.js` and so on (README, "Running the pieces in production").
 */
import { relative } from "node:path";
import { ensureDashboardBuild } from "../apps/web/src/dashboard/production-build";
import { APPS, bundleApp, ROOT, type AppName } from "./bundle";

const names = Object.keys(APPS) as AppName[];
const asked = process.argv.slice(2);
const unknown = asked.filter((name) => !names.includes(name as AppName));
if (unknown.length > 0) {
  console.error(`[build] unknown app ${unknown.join(", ")}; the apps are ${names.join(", ")}`);
  process.exit(2);
}

for (const app of asked.length > 0 ? (asked as AppName[]) : names) {
  const startedAt = Date.now();
  const out = await bundleApp(app);
  console.log(`[build] ${app}: ${relative(ROOT, out)} in ${Date.now() - startedAt} ms`);
  if (app === "web") {
    const { built } = await ensureDashboardBuild({ env: process.env, log: (line) => console.log(`[build] next build: ${line}`) });
    console.log(`[build] web: dashboard in apps/web/.next ${built ? "built" : "already current, reused"}`);
  }
}
