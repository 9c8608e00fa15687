import { createRouter } from "../../trpc";
import { getOnboardingStatusProcedure } from "./get-onboarding-status";
import { kycCallbackProcedure } from "./kyc-callback";
import { startKycProcedure } from "./start-kyc";

export const onboardingRouter = createRouter({
  status: getOnboardingStatusProcedure,
  startKyc: startKycProcedure,
  kycCallback: kycCallbackProcedure,
});
