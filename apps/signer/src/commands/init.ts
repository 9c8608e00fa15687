import { Command } from "commander";
import { readSignerEnv } from "../env";
import { keystoreExists } from "../lib/keystore/keystore";
import { createNewKeystore, signerPaths, unlockKeystore } from "../session";
import { print } from "../terminal";

export function initCommand(): Command {
  return new Command("init")
    .description("create the encrypted keystore in QC_SIGNER_HOME (default ~/.quantum-signer)")
    .addHelpText(
      "after",
      "\nAsks for a new passphrase on the terminal (QC_SIGNER_PASSPHRASE for automation). Run again on an\nexisting " +
        "keystore, it only checks the passphrase and changes nothing.",
    )
    .action(async () => {
      const env = readSignerEnv();
      const paths = signerPaths(env);
      if (keystoreExists(paths.keystore)) {
        const keystore = await unlockKeystore(env);
        print(`The keystore ${paths.keystore} already exists (${keystore.keys.length} keys); nothing changed.`);
        keystore.close();
        return;
      }
      const keystore = await createNewKeystore(env);
      keystore.close();
      print(`Created the keystore ${paths.keystore} (encrypted, mode 0600).`);
      print("Next: signer login --url <baseUrl> --key <keyId:secret> [--ca <pem file>]");
    });
}
