import { createRouter } from "../../trpc";
import { getAddressBookSettingsProcedure, replaceAddressBookSettingsProcedure } from "./address-book-settings";
import { getIpAllowlistProcedure } from "./get-ip-allowlist";
import { replaceIpAllowlistProcedure } from "./replace-ip-allowlist";

export const settingsRouter = createRouter({
  getIpAllowlist: getIpAllowlistProcedure,
  replaceIpAllowlist: replaceIpAllowlistProcedure,
  getAddressBook: getAddressBookSettingsProcedure,
  replaceAddressBook: replaceAddressBookSettingsProcedure,
});
