import { createRouter } from "../../trpc";
import { resendVerificationProcedure } from "./resend-verification";
import { signUpProcedure } from "./sign-up";
import { verifyEmailProcedure } from "./verify-email";

export const signupRouter = createRouter({
  create: signUpProcedure,
  verifyEmail: verifyEmailProcedure,
  resendVerification: resendVerificationProcedure,
});
