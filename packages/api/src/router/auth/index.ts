import { createRouter } from "../../trpc";
import { confirmPasswordResetProcedure } from "./confirm-password-reset";
import { logInProcedure } from "./log-in";
import { logInWithPasskeyProcedure } from "./log-in-passkey";
import { logOutProcedure } from "./log-out";
import { requestPasswordResetProcedure } from "./request-password-reset";

export const authRouter = createRouter({
  login: logInProcedure,
  loginWithPasskey: logInWithPasskeyProcedure,
  logout: logOutProcedure,
  requestPasswordReset: requestPasswordResetProcedure,
  confirmPasswordReset: confirmPasswordResetProcedure,
});
