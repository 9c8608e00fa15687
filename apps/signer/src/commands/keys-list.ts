import { Command } from "commander";
import { unlockKeystore } from "../session";
import { print } from "../terminal";

export function keysCommand(): Command {
  const list = new Command("list")
    .description("list the keys in the keystore (addresses and states, never secrets)")
    .option("--json", "print {keys: [...]} as JSON")
    .action(async (options: { json?: boolean }) => {
      const keystore = await unlockKeystore();
      const keys = keystore.keys.map((key) => ({
        address: key.address,
        publicKey: key.publicKey,
        status: key.status,
        origin: key.origin,
        tenantId: key.tenantId,
        createdAt: key.createdAt,
        acceptedAt: key.acceptedAt,
        vaultId: key.vaultId,
        walletId: key.walletId,
        label: key.label,
      }));
      keystore.close();
      if (options.json) {
        print(JSON.stringify({ keys }));
        return;
      }
      if (keys.length === 0) {
        print("The keystore holds no keys yet: `signer enroll --count <n>` or `signer register-wallet --vault <id>`.");
        return;
      }
      print(`${"ADDRESS".padEnd(42)}  ${"STATUS".padEnd(20)}  ${"ORIGIN".padEnd(9)}  ${"CREATED".padEnd(24)}  WALLET`);
      for (const key of keys) {
        print(`${key.address}  ${key.status.padEnd(20)}  ${key.origin.padEnd(9)}  ${key.createdAt.padEnd(24)}  ${key.walletId ?? ""}`);
      }
    });
  return new Command("keys").description("inspect the keystore").addCommand(list);
}
