import { createRouter } from "../../trpc";
import { listMemberPasskeysProcedure, listOwnPasskeysProcedure } from "./list-passkeys";
import { registerPasskeyProcedure } from "./register-passkey";
import { passkeyRegistrationOptionsProcedure } from "./registration-options";
import { removeMemberPasskeyProcedure, removeOwnPasskeyProcedure } from "./remove-passkey";

/** Passkeys (CONTRACT §14). The `/v1/members/me/…` routes come first: the REST table matches in order, and `me` is no user id. */
export const passkeysRouter = createRouter({
  registrationOptions: passkeyRegistrationOptionsProcedure,
  register: registerPasskeyProcedure,
  listOwn: listOwnPasskeysProcedure,
  removeOwn: removeOwnPasskeyProcedure,
  listForMember: listMemberPasskeysProcedure,
  removeForMember: removeMemberPasskeyProcedure,
});
