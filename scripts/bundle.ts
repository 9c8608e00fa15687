/**
 * The production build of the three processes: each entry bundled by esbuild into one plain
 * ES module (`apps/<app>/dist/<entry>.js`, with a source map beside it), run by `node` alone.
 *
 * - Our workspace sources (@qc/*) are bundled; every other package stays external and is loaded
 *   from node_modules at run time, exactly the file Node would pick for the source that imports
 *   it (pnpm gives each package only its own dependencies, so `pg`, imported by packages/db, is
 *   not reachable by name from apps/web/dist: the import is written as the path to that file).
 * - `import.meta.url` in a bundled source keeps meaning that source file's location, so what
 *   the code finds beside itself (packages/db/migrations, packages/chain/contracts, the verify
 *   worker, Next's apps/web directory) is found from dist/ too. The build is therefore run in
 *   the checkout it serves, with its node_modules installed (`./qc pnpm build`).
 * - No `keepNames`: functions and classes are not renamed at run time, and nothing here relies on
 *   a function's `.name`.
 */
import { readFile } from "node:fs/promises";
import { dirname, join, relative, resolve } from "node:path";
import { build, type Plugin } from "esbuild";

export const ROOT = resolve(import.meta.dirname, "..");

/** What `node` runs in production, per app: source entry → compiled entry. */
export const APPS = {
  web: { entry: "apps/web/server.ts", outfile: "apps/web/dist/server.js" },
  daemon: { entry: "apps/daemon/src/main.ts", outfile: "apps/daemon/dist/main.js" },
  signer: { entry: "apps/signer/src/main.ts", outfile: "apps/signer/dist/main.js" },
} as const;

export type AppName = keyof typeof APPS;

const BARE = /^[^./]/;
const WORKSPACE = /^@qc\//;
const SOURCE = /\.[cm]?[jt]sx?$/;

/** A path as an import specifier relative to the output's folder ("./x" or "../x"). */
function fromOutput(outdir: string, path: string): string {
  const rel = relative(outdir, path).split("\\").join("/");
  return rel.startsWith(".") ? rel : `./${rel}`;
}

function workspaceBundle(outdir: string): Plugin {
  return {
    name: "qc-workspace",
    setup(esbuild) {
      esbuild.onResolve({ filter: BARE }, async (args) => {
        if (WORKSPACE.test(args.path) || args.path.startsWith("node:") || args.pluginData === "external") return undefined;
        const found = await esbuild.resolve(args.path, {
          kind: args.kind,
          resolveDir: args.resolveDir,
          importer: args.importer,
          pluginData: "external",
        });
        if (found.errors.length > 0) return { errors: found.errors };
        // A Node built-in without the node: prefix stays as it is.
        if (found.external) return { path: args.path, external: true };
        return { path: fromOutput(outdir, found.path), external: true };
      });
      esbuild.onLoad({ filter: SOURCE }, async (args) => {
        if (args.path.includes("/node_modules/")) return undefined;
        const text = await readFile(args.path, "utf8");
        if (!text.includes("import.meta.url")) return undefined;
        const here = `new URL(${JSON.stringify(fromOutput(outdir, args.path))}, import.meta.url).href`;
        return {
          contents: text.replaceAll("import.meta.url", here),
          loader: args.path.endsWith(".ts") ? "ts" : args.path.endsWith(".tsx") ? "tsx" : "js",
          resolveDir: dirname(args.path),
        };
      });
    },
  };
}

/** Bundles one app's entry into its dist/ (a few seconds); returns the compiled entry's path. */
export async function bundleApp(app: AppName): Promise<string> {
  const { entry, outfile } = APPS[app];
  const out = join(ROOT, outfile);
  await build({
    entryPoints: [join(ROOT, entry)],
    outfile: out,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20.11",
    // Node's own conditions only (esbuild would add bundlers' "module").
    conditions: [],
    sourcemap: true,
    sourcesContent: false,
    logLevel: "warning",
    plugins: [workspaceBundle(dirname(out))],
  });
  return out;
}
