import { createRouter } from "../../trpc";
import { addNetworkLinkProcedure } from "./add-network-link";
import { archiveWalletProcedure } from "./archive-wallet";
import { createWatchOnlyWalletProcedure } from "./create-watch-only-wallet";
import { generateWalletProcedure } from "./generate-wallet";
import { getWalletBalanceProcedure } from "./get-wallet-balance";
import { getWalletProcedure } from "./get-wallet";
import { listVaultWalletsProcedure } from "./list-vault-wallets";
import { registerWalletProcedure } from "./register-wallet";

export const walletsRouter = createRouter({
  generate: generateWalletProcedure,
  register: registerWalletProcedure,
  createWatchOnly: createWatchOnlyWalletProcedure,
  listByVault: listVaultWalletsProcedure,
  get: getWalletProcedure,
  archive: archiveWalletProcedure,
  addNetworkLink: addNetworkLinkProcedure,
  balance: getWalletBalanceProcedure,
});
