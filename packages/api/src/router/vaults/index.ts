import { createRouter } from "../../trpc";
import { archiveVaultProcedure } from "./archive-vault";
import { createVaultProcedure } from "./create-vault";
import { getVaultProcedure } from "./get-vault";
import { listVaultsProcedure } from "./list-vaults";
import { updateVaultProcedure } from "./update-vault";

export const vaultsRouter = createRouter({
  create: createVaultProcedure,
  list: listVaultsProcedure,
  get: getVaultProcedure,
  update: updateVaultProcedure,
  archive: archiveVaultProcedure,
});
