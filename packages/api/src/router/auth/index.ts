import { createRouter } from "../../trpc";
import { confirmPasswordResetProcedure } from "./confirm-password-reset";
import { logInProcedure } from "./log-in";
import { logOutProcedure } from "./log-out";
import { requestPasswordResetProcedure } from "./request-password-reset";

export const authRouter = createRouter({
  login: logInProcedure,
  logout: logOutProcedure,
  requestPasswordReset: requestPasswordResetProcedure,
  confirmPasswordReset: confirmPasswordResetProcedure,
});
