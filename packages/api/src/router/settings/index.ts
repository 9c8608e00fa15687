import { createRouter } from "../../trpc";
import { getIpAllowlistProcedure } from "./get-ip-allowlist";
import { replaceIpAllowlistProcedure } from "./replace-ip-allowlist";

export const settingsRouter = createRouter({
  getIpAllowlist: getIpAllowlistProcedure,
  replaceIpAllowlist: replaceIpAllowlistProcedure,
});
