import { createRouter } from "../../trpc";
import { evaluatePolicyProcedure } from "./evaluate-policy";
import { getPolicyProcedure } from "./get-policy";
import { getScreeningDenylistProcedure } from "./get-screening-denylist";
import { replacePolicyProcedure } from "./replace-policy";
import { replaceScreeningDenylistProcedure } from "./replace-screening-denylist";

/** Transfer policies and the tenant's screening denylist (tRPC `policies.*`). */
export const policiesRouter = createRouter({
  get: getPolicyProcedure,
  replace: replacePolicyProcedure,
  evaluate: evaluatePolicyProcedure,
  getScreeningDenylist: getScreeningDenylistProcedure,
  replaceScreeningDenylist: replaceScreeningDenylistProcedure,
});
