import { createRouter } from "../../trpc";
import { acceptInvitationProcedure } from "./accept-invitation";
import { changeMemberRoleProcedure } from "./change-member-role";
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
});
