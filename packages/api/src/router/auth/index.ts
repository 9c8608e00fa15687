import { createRouter } from "../../trpc";
import { logInProcedure } from "./log-in";
import { logOutProcedure } from "./log-out";

export const authRouter = createRouter({
  login: logInProcedure,
  logout: logOutProcedure,
});
