import { createRouter } from "../../trpc";
import { getSecuritySettingsProcedure } from "./get-security-settings";
import { listMemberPasskeysProcedure, listOwnPasskeysProcedure } from "./list-passkeys";
import { logInWithPasskeyProcedure } from "./log-in-with-passkey";
import { registerPasskeyProcedure } from "./register-passkey";
import { passkeyRegistrationOptionsProcedure } from "./registration-options";
import { removeMemberPasskeyProcedure, removeOwnPasskeyProcedure } from "./remove-passkey";
import { updateSecuritySettingsProcedure } from "./update-security-settings";

/**
 * Passkeys (CONTRACT §14), in one area after the others: the fuzz seeds each route by its position,
 * so the security settings and the login's passkey step live here rather than among settings and
 * auth. The signed-in member's own passkeys are tRPC only (the dashboard's; a key has no browser).
 */
export const passkeysRouter = createRouter({
  registrationOptions: passkeyRegistrationOptionsProcedure,
  register: registerPasskeyProcedure,
  listOwn: listOwnPasskeysProcedure,
  removeOwn: removeOwnPasskeyProcedure,
  listForMember: listMemberPasskeysProcedure,
  removeForMember: removeMemberPasskeyProcedure,
  securitySettings: getSecuritySettingsProcedure,
  updateSecuritySettings: updateSecuritySettingsProcedure,
  logIn: logInWithPasskeyProcedure,
});
