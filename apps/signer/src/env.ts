import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { z } from "zod";
import { UsageError } from "./lib/errors";

const schema = z.object({
  QC_SIGNER_HOME: z.string().trim().min(1).optional(),
  /** For automation; people are asked on the terminal instead. */
  QC_SIGNER_PASSPHRASE: z.string().min(1).optional(),
});

export type SignerEnv = {
  /** The directory holding keystore.json and profile.json. */
  home: string;
  passphrase: string | undefined;
};

/** The signer's configuration, read once from the environment. */
export function readSignerEnv(env: NodeJS.ProcessEnv = process.env): SignerEnv {
  const parsed = schema.safeParse({
    QC_SIGNER_HOME: env.QC_SIGNER_HOME || undefined,
    QC_SIGNER_PASSPHRASE: env.QC_SIGNER_PASSPHRASE || undefined,
  });
  // The message names the variable, never its value (one of them is the passphrase).
  if (!parsed.success) throw new UsageError(`${parsed.error.issues[0]?.path.join(".") ?? "the environment"} is invalid`);
  return {
    home: resolve(parsed.data.QC_SIGNER_HOME ?? join(homedir(), ".quantum-signer")),
    passphrase: parsed.data.QC_SIGNER_PASSPHRASE,
  };
}
