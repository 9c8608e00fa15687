import { createRouter } from "../../trpc";
import { addAssetProcedure } from "./add-asset";
import { listAssetsProcedure } from "./list-assets";

export const assetsRouter = createRouter({
  list: listAssetsProcedure,
  add: addAssetProcedure,
});
