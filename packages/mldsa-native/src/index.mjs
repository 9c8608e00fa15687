// Loads the ML-DSA-87 verify add-on built by scripts/build.mjs. Plain JavaScript so that a
// worker thread can import it without a TypeScript loader (like the verify pool's thread body).
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

/** Where `pnpm install` leaves the add-on when a C compiler was present. */
export const NATIVE_ADDON_PATH = fileURLToPath(new URL("../build/mldsa87.node", import.meta.url));

const requireAddon = createRequire(import.meta.url);

/**
 * @param {string} [path]
 * @returns {import("./index.d.mts").LoadNativeMlDsa87Result}
 */
export function loadNativeMlDsa87(path = NATIVE_ADDON_PATH) {
  if (!existsSync(path)) return { ok: false, path, reason: "not built (no C compiler at install, or the build failed)" };
  try {
    const addon = requireAddon(path);
    if (typeof addon.verify !== "function" || addon.algorithm !== "ML-DSA-87")
      return { ok: false, path, reason: "not the ML-DSA-87 verify add-on" };
    return { ok: true, path, verify: addon.verify };
  } catch (error) {
    return { ok: false, path, reason: `failed to load: ${error instanceof Error ? error.message : String(error)}` };
  }
}
