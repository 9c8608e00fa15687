import { randomBytes } from "node:crypto";
import { hash, verify, type Options } from "@node-rs/argon2";

/**
 * Argon2id with the OWASP baseline (19 MiB, 2 passes, 1 lane): about 20–40 ms per hash on one
 * core, which bounds how fast a stolen table can be guessed and keeps login latency low.
 */
// `algorithm: 2` is Argon2id (the package's const enum cannot be imported under isolatedModules).
const ARGON2_OPTIONS: Options = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1, outputLen: 32 };

export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 256;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

/** False for a wrong password and for a stored value that is not an Argon2 hash (fixtures). */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  if (!passwordHash.startsWith("$argon2")) return verifyAgainstDummyHash(password);
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/**
 * Login runs one Argon2id verification whatever happens: against the user's hash, or, for an
 * unknown email, against this hash of a random password made with the same parameters. Both
 * answers therefore cost the same time, so timing does not reveal which emails are registered.
 */
export async function verifyAgainstDummyHash(password: string): Promise<false> {
  dummyHash ??= hashPassword(randomBytes(32).toString("base64url"));
  await verify(await dummyHash, password).catch(() => false);
  return false;
}
