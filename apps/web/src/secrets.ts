import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * The API-key pepper: from configuration in production (where a missing one stops the boot);
 * in development generated once and kept under DATA_DIR, so keys survive restarts.
 */
export function loadPepper(options: { configured?: string; dataDir: string; production: boolean }): Buffer {
  if (options.configured) {
    const value = /^[0-9a-f]+$/i.test(options.configured) ? Buffer.from(options.configured, "hex") : Buffer.from(options.configured, "base64");
    if (value.length < 32) throw new Error("API_KEY_PEPPER must hold at least 32 bytes (hex or base64)");
    return value;
  }
  if (options.production) throw new Error("API_KEY_PEPPER is required in production");
  const dir = join(options.dataDir, "secrets");
  const file = join(dir, "api-key-pepper");
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(file, randomBytes(32).toString("hex"), { mode: 0o600 });
  }
  return Buffer.from(readFileSync(file, "utf8").trim(), "hex");
}
