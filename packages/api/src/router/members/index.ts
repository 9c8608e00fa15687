import { createRouter } from "../../trpc";
import { changeMemberRoleProcedure } from "./change-member-role";
import { listMembersProcedure } from "./list-members";

export const membersRouter = createRouter({
  list: listMembersProcedure,
  changeRole: changeMemberRoleProcedure,
});
