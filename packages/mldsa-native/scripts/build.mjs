// Builds the ML-DSA-87 verify add-on (build/mldsa87.node) from the vendored PQClean sources,
// run by `pnpm install` (this package's `install` script). A machine without a C compiler, or
// a compiler that fails, still installs: the add-on is then absent, and the verify pool uses
// @noble/post-quantum and says so (QC_VERIFY_IMPL=native refuses to start without it).
//
// Why not node-gyp: it downloads Node's headers for each build unless told where they are,
// and needs Python; Node-API needs only four headers, shipped by `node-api-headers`, and one
// compiler call.
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { platform } from "node:process";
import { fileURLToPath } from "node:url";

/** @param {string} path */
const here = (path) => fileURLToPath(new URL(`../${path}`, import.meta.url));
const OUTPUT = here("build/mldsa87.node");
/** @param {string} dir */
const sourcesIn = (dir) =>
  readdirSync(here(dir))
    .filter((f) => f.endsWith(".c"))
    .map((f) => here(`${dir}/${f}`));

// eslint-disable-next-line no-restricted-properties -- a build tool honours the usual CC, like make does
const compiler = process.env.CC || "cc";
/** @param {string} message */
const log = (message) => console.log(`[mldsa-native] ${message}`);

function compilerVersion() {
  const probe = spawnSync(compiler, ["--version"], { encoding: "utf8" });
  return probe.status === 0 ? probe.stdout.split("\n")[0] : undefined;
}

function build() {
  const version = compilerVersion();
  if (!version) {
    log(`no C compiler (${compiler}) found: the native ML-DSA-87 verify is not built; verification will use @noble/post-quantum`);
    return;
  }
  const { include_dir: nodeApiHeaders } = createRequire(import.meta.url)("node-api-headers");
  const sources = [...sourcesIn("src"), here("vendor/pqclean/common/fips202.c"), ...sourcesIn("vendor/pqclean/ml-dsa-87")];
  const flags = ["-O3", "-std=c11", "-fPIC", "-shared", "-fvisibility=hidden", "-Wall", "-Wextra"];
  // Node-API symbols are resolved against the running node binary when the add-on loads.
  if (platform === "darwin") flags.push("-undefined", "dynamic_lookup");
  const includes = [nodeApiHeaders, here("vendor/pqclean/common"), here("vendor/pqclean/ml-dsa-87")].map((dir) => `-I${dir}`);
  mkdirSync(here("build"), { recursive: true });
  const partial = `${OUTPUT}.${process.pid}.tmp`;
  const run = spawnSync(compiler, [...flags, ...includes, ...sources, "-o", partial], { encoding: "utf8" });
  if (run.status !== 0) {
    rmSync(partial, { force: true });
    log(
      `the compiler failed; the native ML-DSA-87 verify is not built, verification will use @noble/post-quantum:\n${run.stderr || run.error}`,
    );
    return;
  }
  if (run.stderr) log(run.stderr);
  renameSync(partial, OUTPUT); // never leave a half-written add-on where the loader looks
  writeFileSync(
    here("build/build-info.json"),
    `${JSON.stringify({ compiler: version, flags, builtAt: new Date().toISOString() }, null, 2)}\n`,
  );
  log(`built ${OUTPUT} with ${version}`);
}

build();
