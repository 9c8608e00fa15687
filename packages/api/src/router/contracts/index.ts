import { createRouter } from "../../trpc";
import { createContractDeploymentProcedure } from "./create-contract-deployment";
import { listContractTemplatesProcedure } from "./list-contract-templates";

export const contractsRouter = createRouter({
  listTemplates: listContractTemplatesProcedure,
  deploy: createContractDeploymentProcedure,
});
