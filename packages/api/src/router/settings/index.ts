import { createRouter } from "../../trpc";
import { getIpAllowlistProcedure } from "./get-ip-allowlist";
import { getSecuritySettingsProcedure } from "./get-security-settings";
import { replaceIpAllowlistProcedure } from "./replace-ip-allowlist";
import { updateSecuritySettingsProcedure } from "./update-security-settings";

export const settingsRouter = createRouter({
  getIpAllowlist: getIpAllowlistProcedure,
  replaceIpAllowlist: replaceIpAllowlistProcedure,
  getSecurity: getSecuritySettingsProcedure,
  updateSecurity: updateSecuritySettingsProcedure,
});
