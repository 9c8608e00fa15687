import { Command } from "commander";
import { unlockKeystore } from "../session";
import { print } from "../terminal";

export function keysCommand(): Command {
  const list = new Command("list")
    .description("list the keys in the keystore (addresses and states, and the approval keys; never secrets)")
    .option("--json", "print {keys: [...], approvalKeys: [...]} as JSON")
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
      const approvalKeys = keystore.approvalKeys.map((key) => ({
        keyId: key.keyId,
        publicKey: key.publicKey,
        status: key.status,
        tenantId: key.tenantId,
        userId: key.userId,
        createdAt: key.createdAt,
        acceptedAt: key.acceptedAt,
      }));
      keystore.close();
      if (options.json) {
        print(JSON.stringify({ keys, approvalKeys }));
        return;
      }
      if (keys.length === 0 && approvalKeys.length === 0) {
        print("The keystore holds no keys yet: `signer enroll --count <n>` or `signer register-wallet --vault <id>`.");
        return;
      }
      if (keys.length > 0) {
        print(`${"ADDRESS".padEnd(42)}  ${"STATUS".padEnd(20)}  ${"ORIGIN".padEnd(9)}  ${"CREATED".padEnd(24)}  WALLET`);
        for (const key of keys) {
          print(`${key.address}  ${key.status.padEnd(20)}  ${key.origin.padEnd(9)}  ${key.createdAt.padEnd(24)}  ${key.walletId ?? ""}`);
        }
      }
      if (approvalKeys.length > 0) {
        if (keys.length > 0) print("");
        print(`${"APPROVAL KEY".padEnd(36)}  ${"STATUS".padEnd(20)}  ${"CREATED".padEnd(24)}  MEMBER`);
        for (const key of approvalKeys) {
          print(`${(key.keyId ?? "(not enrolled)").padEnd(36)}  ${key.status.padEnd(20)}  ${key.createdAt.padEnd(24)}  ${key.userId}`);
        }
      }
    });
  return new Command("keys").description("inspect the keystore").addCommand(list);
}
