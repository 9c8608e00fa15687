import { join } from "node:path";
import { readSignerEnv, type SignerEnv } from "./env";
import { SignerError } from "./lib/errors";
import { createKeystore, openKeystore, MIN_PASSPHRASE_LENGTH, type UnlockedKeystore } from "./lib/keystore/keystore";
import { readProfile, type Profile } from "./lib/profile";
import { createServiceClient, type ServiceClient } from "./lib/service/service-client";
import { signerApi, type SignerApi } from "./lib/service/signer-api";
import { promptHidden, stdinIsTerminal } from "./terminal";

export type SignerPaths = { home: string; keystore: string; profile: string };

export function signerPaths(env: SignerEnv = readSignerEnv()): SignerPaths {
  return { home: env.home, keystore: join(env.home, "keystore.json"), profile: join(env.home, "profile.json") };
}

async function passphrase(env: SignerEnv, purpose: "unlock" | "create"): Promise<string> {
  if (env.passphrase !== undefined) return env.passphrase;
  if (!stdinIsTerminal()) {
    throw new SignerError("no passphrase: run the signer on a terminal, or set QC_SIGNER_PASSPHRASE for automation");
  }
  if (purpose === "unlock") return promptHidden("Keystore passphrase: ");
  const first = await promptHidden(`New keystore passphrase (at least ${MIN_PASSPHRASE_LENGTH} characters): `);
  const again = await promptHidden("Repeat the passphrase: ");
  if (first !== again) throw new SignerError("the two passphrases differ; nothing was created");
  return first;
}

export async function unlockKeystore(env: SignerEnv = readSignerEnv()): Promise<UnlockedKeystore> {
  const paths = signerPaths(env);
  return openKeystore(paths.keystore, await passphrase(env, "unlock"));
}

export async function createNewKeystore(env: SignerEnv = readSignerEnv()): Promise<UnlockedKeystore> {
  const paths = signerPaths(env);
  return createKeystore(paths.keystore, await passphrase(env, "create"));
}

export type Connection = { keystore: UnlockedKeystore; profile: Profile; api: SignerApi; client: ServiceClient };

/** The unlocked keystore and a client for the profile's service, with the stored API key (and `keptConnections` kept open). */
export async function connect(env: SignerEnv = readSignerEnv(), options: { keptConnections?: number } = {}): Promise<Connection> {
  const paths = signerPaths(env);
  // The profile first: "not logged in" should not cost a passphrase prompt.
  const profile = readProfile(paths.profile);
  const keystore = await unlockKeystore(env);
  if (!keystore.apiKey) throw new SignerError("the keystore holds no API key: run `signer login` again");
  const client = createServiceClient({
    url: profile.url,
    apiKey: keystore.apiKey,
    ca: profile.ca,
    keptConnections: options.keptConnections,
  });
  return { keystore, profile, api: signerApi(client), client };
}
