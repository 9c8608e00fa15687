import { readFileSync } from "node:fs";
import { z } from "zod";
import { writeFileAtomic } from "./atomic-write";
import { SignerError } from "./errors";

/**
 * Where the signer talks to: the service URL, the tenant the API key belongs to (the
 * ownership proofs name it) and the PEM of a development CA to trust. No secret lives here:
 * the API key is kept encrypted in the keystore.
 */
export const profileSchema = z.object({
  format: z.literal("quantum-signer-profile"),
  version: z.literal(1),
  url: z.string(),
  tenantId: z.string(),
  ca: z.string().nullable(),
  updatedAt: z.string(),
});
export type Profile = z.infer<typeof profileSchema>;

export function readProfile(path: string): Profile {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT")
      throw new SignerError("not logged in: run `signer login --url <baseUrl> --key <keyId:secret>` first");
    throw new SignerError(`cannot read the profile ${path} (${(error as NodeJS.ErrnoException).code ?? "read error"})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new SignerError(`${path} is not a signer profile (not JSON); log in again`);
  }
  const parsed = profileSchema.safeParse(json);
  if (!parsed.success) throw new SignerError(`${path} is not a valid signer profile; log in again`);
  return parsed.data;
}

export function writeProfile(path: string, profile: Omit<Profile, "format" | "version" | "updatedAt">): Profile {
  const full: Profile = { format: "quantum-signer-profile", version: 1, ...profile, updatedAt: new Date().toISOString() };
  writeFileAtomic(path, `${JSON.stringify(full, null, 2)}\n`, { mode: 0o600 });
  return full;
}
