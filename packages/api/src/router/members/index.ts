import { createRouter } from "../../trpc";
import { acceptInvitationProcedure } from "./accept-invitation";
import { approvalKeysRouter } from "./approval-keys";
import { changeMemberRoleProcedure } from "./change-member-role";
import { currentMemberProcedure } from "./current-member";
import { inviteMemberProcedure } from "./invite-member";
import { listInvitationsProcedure } from "./list-invitations";
import { listMembersProcedure } from "./list-members";
import { removeMemberProcedure } from "./remove-member";
import { revokeInvitationProcedure } from "./revoke-invitation";

export const membersRouter = createRouter({
  list: listMembersProcedure,
  changeRole: changeMemberRoleProcedure,
  remove: removeMemberProcedure,
  invitations: createRouter({
    create: inviteMemberProcedure,
    list: listInvitationsProcedure,
    revoke: revokeInvitationProcedure,
  }),
  acceptInvitation: acceptInvitationProcedure,
  // Last: the fuzz seeds each route by its position (fuzz-every-route.test.ts).
  me: currentMemberProcedure,
  approvalKeys: approvalKeysRouter,
});
