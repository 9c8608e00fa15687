import { loadSecret } from "@qc/core";

function parsePepper(text: string): Buffer {
  const value = /^[0-9a-f]+$/i.test(text) ? Buffer.from(text, "hex") : Buffer.from(text, "base64");
  if (value.length < 32) throw new Error("API_KEY_PEPPER must hold at least 32 bytes (hex or base64)");
  return value;
}

/**
 * The API-key pepper: from configuration in production (where a missing one stops the boot);
 * in development generated once and kept under DATA_DIR, so keys survive restarts.
 */
export function loadPepper(options: { configured?: string; dataDir: string; production: boolean }): Buffer {
  return loadSecret({ name: "API_KEY_PEPPER", file: "api-key-pepper", parse: parsePepper, ...options });
}
