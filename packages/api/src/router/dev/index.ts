import { createRouter } from "../../trpc";
import { listDevMailboxProcedure } from "./list-dev-mailbox";

export const devMailboxRouter = createRouter({
  list: listDevMailboxProcedure,
});
