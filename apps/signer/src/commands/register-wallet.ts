import { Command } from "commander";
import { readSeedFile } from "../lib/keystore/signer-key";
import { registerWallet } from "../lib/register-wallet";
import { connect } from "../session";
import { print } from "../terminal";
import { uuidArgument } from "./options";

export function registerWalletCommand(): Command {
  return new Command("register-wallet")
    .description("register a wallet in a vault with a key of this signer (new, or imported with --seed-file)")
    .requiredOption("--vault <vaultId>", "the vault to register the wallet in", uuidArgument)
    .option("--label <text>", "the wallet's label")
    .option("--seed-file <path>", "import an existing key: a file holding its 32-byte ML-DSA-87 seed as 64 hex digits")
    .addHelpText(
      "after",
      "\nSigns the ownership challenge of the address for your tenant and calls\nPOST " +
        "/v1/vault/accounts/{vaultId}/wallets; the wallet's type is REGISTERED.",
    )
    .action(async (options: { vault: string; label?: string; seedFile?: string }) => {
      const seed = options.seedFile === undefined ? undefined : readSeedFile(options.seedFile);
      const { keystore, profile, api } = await connect();
      try {
        const { wallet, imported } = await registerWallet({
          keystore,
          api,
          tenantId: profile.tenantId,
          vaultId: options.vault,
          ...(options.label === undefined ? {} : { label: options.label }),
          ...(seed === undefined ? {} : { seed }),
        });
        print(
          `Registered wallet ${wallet.id} (${wallet.type}) with address ${wallet.address} in vault ${wallet.vaultId}; its key${imported ? ", imported," : ""} is in this keystore.`,
        );
      } finally {
        seed?.fill(0);
        keystore.close();
      }
    });
}
