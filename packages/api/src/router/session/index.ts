import { createRouter } from "../../trpc";
import { getSignedInMemberProcedure } from "./get-signed-in-member";

/** The dashboard session's own procedures (tRPC only). */
export const sessionRouter = createRouter({
  me: getSignedInMemberProcedure,
});
