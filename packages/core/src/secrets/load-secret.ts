import { randomBytes } from "node:crypto";
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface LoadSecretOptions {
  /** The variable that configures it, named in errors (e.g. `API_KEY_PEPPER`). */
  name: string;
  /** The configured value, when the variable is set. */
  configured?: string;
  /** Decodes a configured or stored value; throws with a message naming what is wrong (never the value). */
  parse(text: string): Buffer;
  /** Where the development value lives: `<dataDir>/secrets/<file>`. */
  dataDir: string;
  file: string;
  production: boolean;
  /** Size of a generated value (stored as hex). */
  bytes?: number;
}

/**
 * A server secret (API-key pepper, webhook secret key): from configuration in production, where
 * a missing one stops the boot; on a development machine generated once under
 * `<DATA_DIR>/secrets/` and reused, so what it protects survives restarts.
 *
 * The web process and the daemon both load the same secrets and may start at the same moment:
 * the file is written under a temporary name and linked into place, which fails if the other
 * process got there first, so both end up reading the one value that won.
 */
export function loadSecret(options: LoadSecretOptions): Buffer {
  if (options.configured !== undefined && options.configured !== "") return options.parse(options.configured);
  if (options.production) throw new Error(`invalid configuration: ${options.name} is required in production`);
  const dir = join(options.dataDir, "secrets");
  const file = join(dir, options.file);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const candidate = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  writeFileSync(candidate, randomBytes(options.bytes ?? 32).toString("hex"), { mode: 0o600 });
  try {
    linkSync(candidate, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    rmSync(candidate, { force: true });
  }
  try {
    return options.parse(readFileSync(file, "utf8").trim());
  } catch (error) {
    throw new Error(`${file} does not hold a valid ${options.name}: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
}
